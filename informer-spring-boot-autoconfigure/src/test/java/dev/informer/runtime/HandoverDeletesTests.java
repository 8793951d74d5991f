package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.event.ResourcesReplayedEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Deletes a standby dropped as "not ours" reach the listeners of the replica that takes
 * over (issue 32, point 1): its gate keeps tombstones of them, and a takeover replay
 * delivers them, flagged as replays, before its replayed adds. The listener is the
 * contract's: it applies adds, updates and deletes to a map by key, and starts with what
 * the previous leader's listeners held, as the group's fold would.
 */
class HandoverDeletesTests {

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private final AtomicReference<DeliveryGate.Verdict> verdict = new AtomicReference<>(DeliveryGate.Verdict.NOT_OURS);

	private final ContractMap listener = new ContractMap();

	private ResourceInformer<ConfigMap> informer;

	@Test
	void aStandbyThatTakesOverDeliversTheDeletesItDroppedBeforeItsReplayedAdds() throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener(this.listener);
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC(), publisher, Duration.ZERO, "apps"));
		this.informer.deliverThrough((resource) -> this.verdict.get(), () -> null);
		ConfigMap doomed = create("doomed");
		ConfigMap kept = create("kept");
		ConfigMap reborn = create("reborn");
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		// what the previous leader's listeners hold when it goes
		this.listener.hold(doomed, kept, reborn);
		this.mock.client().resource(doomed).delete();
		this.mock.client().resource(reborn).delete();
		await().until(() -> this.informer.getCache().get("apps", "reborn").isEmpty());
		ConfigMap recreated = create("reborn");
		await().until(() -> this.informer.getCache().list().size() == 2 && backlog() == 0);
		assertThat(this.listener.received()).as("nothing while standing by").isEmpty();
		// this replica becomes leader
		this.verdict.set(DeliveryGate.Verdict.PUBLISH);
		this.informer.replay((resource) -> true, "leader");
		await().until(() -> this.listener.replays() == 1);
		assertThat(this.listener.view()).as("the listener's map against the server").containsOnlyKeys("kept", "reborn");
		assertThat(this.listener.view().get("reborn").getMetadata().getUid()).as("the recreated object's uid")
			.isEqualTo(recreated.getMetadata().getUid());
		assertThat(this.listener.received()).as("deletes first, flagged as replays")
			.startsWith("replayed delete doomed", "replayed delete reborn");
	}

	@Test
	void aReplayedDeleteOfAnOldUidIsFollowedByTheObjectThisReplicaPublishesUnderItsName() throws Exception {
		// sharded: each uid is judged on its own, the old uid by another member first
		Set<String> others = sharded();
		ConfigMap old = create("reborn");
		others.add(old.getMetadata().getUid());
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		this.mock.client().resource(old).delete();
		await().until(() -> this.informer.getCache().get("apps", "reborn").isEmpty());
		ConfigMap recreated = create("reborn");
		await().until(() -> this.listener.view().containsKey("reborn"));
		// this member's range grows over the old uid: it delivers the delete it dropped
		others.clear();
		this.informer.replay((resource) -> resource.getMetadata().getUid().equals(old.getMetadata().getUid()),
				"shard-range");
		await().until(() -> this.listener.replays() == 1);
		assertThat(this.listener.received()).as("the old uid's delete, at least once")
			.contains("replayed delete reborn");
		assertThat(this.listener.view()).as("the listener's map against the server").containsOnlyKeys("reborn");
		assertThat(this.listener.view().get("reborn").getMetadata().getUid()).as("the recreated object's uid")
			.isEqualTo(recreated.getMetadata().getUid());
	}

	/**
	 * The member an object's range moved to may never see it: its watch relisted across a
	 * gap in which the object was created and deleted, while this member published its
	 * add. This member delivers the deletes of what it handed over, as replays; not those
	 * of objects that were never its own.
	 */
	@Test
	void aMemberWhoseRangeMovedAwayDeliversTheDeletesOfWhatItPublishedThere() throws Exception {
		Set<String> others = sharded();
		ConfigMap foreign = create("foreign");
		others.add(foreign.getMetadata().getUid());
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		ConfigMap moved = create("moved");
		ConfigMap stays = create("stays");
		await().until(() -> this.listener.view().keySet().containsAll(List.of("moved", "stays")));
		// the range of "moved" goes to another member
		String movedUid = moved.getMetadata().getUid();
		this.informer.handOver((resource) -> resource.getMetadata().getUid().equals(movedUid));
		others.add(movedUid);
		this.mock.client().resource(foreign).delete();
		this.mock.client().resource(moved).delete();
		this.mock.client().resource(stays).delete();
		await().until(() -> this.listener.received().contains("delete stays"));
		assertThat(this.listener.received()).as("what this member delivered")
			.containsExactly("add moved", "add stays", "replayed delete moved", "delete stays");
		assertThat(this.listener.view()).as("the listener's map against the server").isEmpty();
	}

	/**
	 * A member whose Lease lapsed owes the deletes its gate dropped meanwhile. When its
	 * Lease counts as held again but the object's range moved to another member during
	 * the lapse (which may have relisted across the gap and never seen the object), it
	 * delivers that delete itself, as a replay: its listeners hold the object. Found by
	 * {@code FaultScheduleIT} seed 944 ({@code obj-8}: all three members' Leases lapsed
	 * while the kube-apiserver was down; the object was deleted meanwhile and its range
	 * went to a member that had relisted across its whole life).
	 */
	@Test
	void aMemberDeliversADeleteItOwedThroughALapseEvenOnceTheObjectsRangeMovedAway() throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener(this.listener);
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC(), publisher, Duration.ZERO, "apps"));
		AtomicBoolean lapsed = new AtomicBoolean();
		Set<String> others = ConcurrentHashMap.newKeySet();
		this.informer.deliverThrough((resource) -> lapsed.get() ? DeliveryGate.Verdict.LAPSED
				: others.contains(resource.getMetadata().getUid()) ? DeliveryGate.Verdict.NOT_OURS
						: DeliveryGate.Verdict.PUBLISH,
				() -> null);
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		ConfigMap moved = create("moved");
		create("stays");
		await().until(() -> this.listener.view().keySet().containsAll(List.of("moved", "stays")));
		lapsed.set(true);
		this.mock.client().resource(moved).delete();
		await().until(() -> this.informer.getCache().get("apps", "moved").isEmpty() && backlog() == 0);
		// held again, with a range that no longer holds "moved": the hand-over finds it
		// gone from the cache, and nothing is gained
		String movedUid = moved.getMetadata().getUid();
		this.informer.handOver((resource) -> resource.getMetadata().getUid().equals(movedUid));
		others.add(movedUid);
		lapsed.set(false);
		this.informer.replay((resource) -> false, "shard-range");
		await().until(() -> this.listener.replays() == 1);
		assertThat(this.listener.received()).as("what this member delivered")
			.containsExactly("add moved", "add stays", "replayed delete moved", "replayed add stays");
		assertThat(this.listener.view()).as("the listener's map against the server").containsOnlyKeys("stays");
	}

	/**
	 * A leader whose Lease lapsed owes the deletes its gate dropped meanwhile; when
	 * another replica becomes leader instead, that one may never see them (its watch
	 * listed again across the objects' whole life, and its catch-up on deletes cannot
	 * reach back past a kube-apiserver restart). The former leader delivers them, as
	 * replays, and the delete of what it published that it sees afterwards too. Found by
	 * {@code FaultScheduleIT} seed 641363971144115683 (leader, {@code on-change}).
	 */
	@Test
	void aFormerLeaderDeliversTheDeletesItOwedOnceAnotherReplicaLeads() throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener(this.listener);
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC(), publisher, Duration.ZERO, "apps"));
		this.verdict.set(DeliveryGate.Verdict.PUBLISH);
		this.informer.deliverThrough((resource) -> this.verdict.get(), () -> null);
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		ConfigMap lapsed = create("lapsed");
		ConfigMap later = create("later");
		create("stays");
		await().until(() -> this.listener.view().keySet().containsAll(List.of("lapsed", "later", "stays")));
		// its renewals lapse: it stops leading, what its listeners hold is handed over
		this.informer.handOver((resource) -> true);
		this.verdict.set(DeliveryGate.Verdict.LAPSED);
		this.mock.client().resource(lapsed).delete();
		await().until(() -> this.informer.getCache().get("apps", "lapsed").isEmpty() && backlog() == 0);
		// another replica leads
		this.verdict.set(DeliveryGate.Verdict.NOT_OURS);
		this.informer.deliverOwedDeletes();
		await().until(() -> this.listener.received().contains("replayed delete lapsed"));
		this.mock.client().resource(later).delete();
		await().until(() -> this.listener.received().contains("replayed delete later"));
		assertThat(this.listener.received()).as("what the former leader delivered")
			.containsExactly("add lapsed", "add later", "add stays", "replayed delete lapsed", "replayed delete later");
		assertThat(this.listener.view()).as("the listener's map against the server").containsOnlyKeys("stays");
	}

	/**
	 * An informer of a sharded member: the uids in the returned set are another member's,
	 * every other object is this member's.
	 */
	private Set<String> sharded() {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener(this.listener);
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC(), publisher, Duration.ZERO, "apps"));
		Set<String> others = ConcurrentHashMap.newKeySet();
		this.informer.deliverThrough((resource) -> others.contains(resource.getMetadata().getUid())
				? DeliveryGate.Verdict.NOT_OURS : DeliveryGate.Verdict.PUBLISH, () -> null);
		return others;
	}

	private long backlog() {
		return this.informer.getWatches().get(0).snapshot().cache().backlog();
	}

	private ConfigMap create(String name) {
		return this.mock.client().configMaps().resource(TestResources.configMap("apps", name, "v")).create();
	}

	/**
	 * A listener as the contract asks for: adds (replayed or not) and updates put,
	 * deletes remove, by namespace and name.
	 */
	static final class ContractMap implements ApplicationListener<ApplicationEvent> {

		private final Map<String, HasMetadata> view = new ConcurrentHashMap<>();

		private final List<String> received = new CopyOnWriteArrayList<>();

		private volatile int replays;

		void hold(HasMetadata... resources) {
			for (HasMetadata resource : resources) {
				this.view.put(resource.getMetadata().getName(), resource);
			}
		}

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			if (event instanceof ResourcesReplayedEvent) {
				this.replays++;
			}
			if (!(event instanceof ResourceEvent<?> change)) {
				return;
			}
			String name = change.getResource().getMetadata().getName();
			if (change instanceof ResourceDeletedEvent<?> deleted) {
				this.view.remove(name);
				this.received.add((deleted.isReplay() ? "replayed delete " : "delete ") + name);
			}
			else {
				this.view.put(name, change.getResource());
				boolean replay = change instanceof ResourceAddedEvent<?> added && added.isReplay();
				this.received
					.add((replay ? "replayed add " : (change instanceof ResourceUpdatedEvent<?>) ? "update " : "add ")
							+ name);
			}
		}

		Map<String, HasMetadata> view() {
			return Map.copyOf(this.view);
		}

		List<String> received() {
			return List.copyOf(this.received);
		}

		int replays() {
			return this.replays;
		}

	}

}
