package dev.informer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.runtime.replicas.DeliveryOptions;
import dev.informer.test.LeaseDelay;
import dev.informer.test.TestResources;
import dev.informer.watch.DeliverySnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fixture of the replica fault tests: one delivery group in a namespace of its own on
 * a real API server, replicas that are application contexts each with its own client
 * through its own {@link TcpProxy} (and a {@link LeaseDelay} on its Lease requests), a
 * {@link ChangeWriter} in the background, and the two checks every fault ends with:
 * nothing lost (the group's folded view equals the server's objects) and, in a steady
 * state, every change published live exactly once, by its owner.
 */
final class ReplicaGroup implements AutoCloseable {

	/** The issue's Lease times: Lease 6 s, renew deadline 4 s, retry period 1 s. */
	static final Duration LEASE_DURATION = Duration.ofSeconds(6);

	static final Duration RENEW_DEADLINE = Duration.ofSeconds(4);

	static final Duration RETRY_PERIOD = Duration.ofSeconds(1);

	/** How long the group has to settle and catch up once a fault healed. */
	static final Duration SETTLE = Duration.ofSeconds(30);

	private static final AtomicInteger groups = new AtomicInteger();

	private final RealApiServer server;

	private final String namespace;

	private final DeliveryMode mode;

	private final KubernetesClient admin;

	private final GroupRecorder recorder = new GroupRecorder();

	private final List<Replica> replicas = new ArrayList<>();

	private final List<Replica> running = new CopyOnWriteArrayList<>();

	private @Nullable ChangeWriter writer;

	/**
	 * Create the group's namespace and {@code objects} ConfigMaps in it.
	 * @param server the server
	 * @param scenario a short name, part of the namespace
	 * @param mode {@code leader} or {@code sharded}
	 * @param objects how many objects exist before any replica starts
	 */
	ReplicaGroup(RealApiServer server, String scenario, DeliveryMode mode, int objects) {
		this.server = server;
		String name = DeliveryOptions.leaseName("f" + groups.incrementAndGet() + "-" + scenario);
		this.namespace = DeliveryOptions.leaseName(name.substring(0, Math.min(name.length(), 63)));
		this.mode = mode;
		this.admin = server.adminClient();
		TestResources.createNamespaces(this.admin, this.namespace);
		Map<String, String> uids = new LinkedHashMap<>();
		for (int i = 0; i < objects; i++) {
			ConfigMap created = this.admin.configMaps()
				.inNamespace(this.namespace)
				.resource(TestResources.configMap(this.namespace, "obj-" + i, "v0"))
				.create();
			uids.put(created.getMetadata().getName(), created.getMetadata().getUid());
		}
		long seed = Long.getLong("informer.it.seed", new Random().nextLong());
		this.writer = new ChangeWriter(this.admin, this.namespace, seed, uids);
		System.out.println("ReplicaGroup " + this.namespace + ": writer seed " + seed
				+ " (rerun with -Dinformer.it.seed=" + seed + ")");
	}

	String namespace() {
		return this.namespace;
	}

	KubernetesClient admin() {
		return this.admin;
	}

	ChangeWriter writer() {
		return Objects.requireNonNull(this.writer);
	}

	GroupRecorder recorder() {
		return this.recorder;
	}

	/**
	 * Declare a replica; it starts with {@link #run}.
	 * @param identity its identity
	 * @param clock its {@code informerClock}, or {@code null} for the system's
	 * @return the replica
	 */
	Replica replica(String identity, @Nullable Clock clock) {
		try {
			Replica replica = new Replica(identity, this.server.newProxy(), new LeaseDelay(), clock);
			this.replicas.add(replica);
			return replica;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	Replica replica(String identity) {
		return replica(identity, null);
	}

	/**
	 * Start the replicas one after the other, run {@code body} while they run, then stop
	 * them.
	 */
	void run(List<Replica> replicas, Runnable body) {
		if (replicas.isEmpty()) {
			body.run();
			return;
		}
		Replica first = replicas.get(0);
		first.runner().run((context) -> {
			assertThat(context).as("replica %s", first.identity).hasNotFailed();
			first.context = context;
			this.running.add(first);
			try {
				run(replicas.subList(1, replicas.size()), body);
			}
			finally {
				this.running.remove(first);
			}
		});
	}

	/**
	 * Stop one running replica, as a pod that leaves the group.
	 */
	void stop(Replica replica) {
		this.running.remove(replica);
		Objects.requireNonNull(replica.context).close();
	}

	List<String> runningIdentities() {
		return this.running.stream().map((r) -> r.identity).sorted().toList();
	}

	/**
	 * Wait until the group agrees on its roles: one leader and standbys that know it, or
	 * every running replica a member of a group of exactly the running replicas.
	 */
	void awaitSettled(String when) {
		await().atMost(SETTLE).untilAsserted(() -> assertThat(roles()).as("roles %s", when).isEqualTo(settledRoles()));
	}

	private Map<String, String> roles() {
		Map<String, String> roles = new LinkedHashMap<>();
		for (Replica replica : this.running) {
			DeliverySnapshot snapshot = replica.snapshot();
			roles.put(replica.identity,
					(this.mode == DeliveryMode.LEADER)
							? snapshot.leadership().role() + " holder=" + snapshot.leadership().leaseHolder()
							: snapshot.sharding().role() + " members=" + snapshot.sharding().members());
		}
		return roles;
	}

	private Map<String, String> settledRoles() {
		Map<String, String> roles = new LinkedHashMap<>();
		String leader = this.running.stream()
			.filter((r) -> r.snapshot().leadership() != null && r.snapshot().leadership().role() == DeliveryRole.LEADER)
			.map((r) -> r.identity)
			.findFirst()
			.orElse("(none)");
		for (Replica replica : this.running) {
			roles
				.put(replica.identity,
						(this.mode == DeliveryMode.LEADER)
								? (replica.identity.equals(leader) ? DeliveryRole.LEADER : DeliveryRole.STANDBY)
										+ " holder=" + leader
								: DeliveryRole.MEMBER + " members=" + runningIdentities());
		}
		return roles;
	}

	/**
	 * Wait until the group's folded view equals the server's objects: nothing lost, live
	 * or replayed. The writer must be paused.
	 */
	void awaitNothingLost(String when) {
		Map<String, String> expected = serverState();
		Map<String, String> uids = writer().uids();
		List<String> members = runningIdentities();
		await().atMost(SETTLE).untilAsserted(() -> {
			Map<String, String> view = this.recorder.foldedView((this.mode == DeliveryMode.LEADER) ? null : uids);
			assertThat(
					ViewDiff.describe(view, expected, (this.mode == DeliveryMode.LEADER) ? List.of() : members, uids))
				.as("nothing lost %s (writer seed %d)", when, writer().seed())
				.isEmpty();
		});
	}

	/**
	 * A fault-free steady state: with the group settled, let the writer make
	 * {@code changes} changes, then check that each was published live exactly once, by
	 * its owner (the leader; the member whose range holds the object's uid hash).
	 */
	void assertSteadyState(String when, int changes) {
		ChangeWriter writer = writer();
		writer.pause();
		awaitSettled(when);
		List<String> members = runningIdentities();
		String leader = (this.mode == DeliveryMode.LEADER) ? leader().identity : null;
		int from = writer.count();
		writer.resume();
		await().atMost(Duration.ofSeconds(30)).until(() -> writer.count() >= from + changes);
		writer.pause();
		List<ChangeWriter.Change> window = writer.changes().subList(from, writer.count());
		awaitNothingLost(when);
		assertThat(roles()).as("roles after the steady state %s", when).isEqualTo(settledRoles());
		List<String> problems = new ArrayList<>();
		for (ChangeWriter.Change change : window) {
			String owner = (leader != null) ? leader : ShardOwner.of(change.uid(), members);
			List<GroupRecorder.Published> live = this.recorder.liveEventsOf(change.name())
				.stream()
				.filter((p) -> (change.op() == ChangeWriter.Change.Op.DELETE) ? p.kind().equals("deleted")
						: !p.kind().equals("deleted") && p.resourceVersion().equals(change.resourceVersion()))
				.toList();
			List<String> publishers = live.stream().map(GroupRecorder.Published::replica).toList();
			if (!publishers.equals(List.of(owner))) {
				problems.add(change.op() + " " + change.name() + "@" + change.resourceVersion() + " owned by " + owner
						+ " published live by " + publishers);
			}
		}
		assertThat(problems)
			.as("each change live exactly once by its owner %s (%d changes, writer seed %d)", when, window.size(),
					writer.seed())
			.isEmpty();
	}

	/**
	 * A network blip on one replica while changes flow: changes before, the replica's
	 * proxy frozen for {@code length} (with {@code during} run right after it froze), and
	 * changes after it thawed; then the writer is paused.
	 */
	void blip(Replica replica, Duration length, Runnable during) {
		ChangeWriter writer = writer();
		int before = writer.count();
		writer.resume();
		await().atMost(Duration.ofSeconds(30)).until(() -> writer.count() >= before + 5);
		long thawAt = System.nanoTime() + length.toNanos();
		int held = replica.proxy.getHeld();
		replica.proxy.freeze();
		try {
			during.run();
			holdUntil(thawAt);
		}
		finally {
			replica.proxy.thaw();
		}
		assertThat(replica.proxy.getHeld()).as("connections and chunks the blip on %s held", replica.identity)
			.isGreaterThan(held);
		int healed = writer.count();
		await().atMost(Duration.ofSeconds(30)).until(() -> writer.count() >= healed + 10);
		writer.pause();
	}

	/**
	 * Keep a fault until its end: the length of the fault, not synchronization.
	 */
	static void holdUntil(long nanoTime) {
		long left;
		while ((left = nanoTime - System.nanoTime()) > 0) {
			LockSupport.parkNanos(left);
		}
	}

	/**
	 * Return the running replica that leads.
	 * @return the leader
	 */
	Replica leader() {
		return this.running.stream()
			.filter((r) -> r.snapshot().leadership().role() == DeliveryRole.LEADER)
			.findFirst()
			.orElseThrow(() -> new AssertionError("no leader: " + roles()));
	}

	Map<String, String> serverState() {
		Map<String, String> state = new LinkedHashMap<>();
		for (ConfigMap cm : this.admin.configMaps().inNamespace(this.namespace).list().getItems()) {
			if (!cm.getMetadata().getName().equals("kube-root-ca.crt")) {
				state.put(cm.getMetadata().getName(), cm.getMetadata().getResourceVersion());
			}
		}
		return state;
	}

	/**
	 * Return a line that sums up what the group published, for the test's output.
	 * @return the summary
	 */
	String summary() {
		Map<String, Map<String, Long>> counts = new LinkedHashMap<>();
		for (GroupRecorder.Published p : this.recorder.published()) {
			counts.computeIfAbsent(p.replica(), (r) -> new java.util.TreeMap<>()).merge(p.kind(), 1L, Long::sum);
		}
		return this.namespace + ": " + writer().count() + " changes (" + writer().failures() + " failed), published "
				+ counts;
	}

	@Override
	public void close() {
		if (this.writer != null) {
			this.writer.close();
		}
		for (Replica replica : this.replicas) {
			replica.closeClient();
		}
		this.admin.close();
	}

	/**
	 * One replica: its proxy, its Lease delay, its client and, while it runs, its
	 * context.
	 */
	final class Replica {

		final String identity;

		final TcpProxy proxy;

		final LeaseDelay leases;

		private final @Nullable Clock clock;

		private final KubernetesClient client;

		volatile @Nullable AssertableApplicationContext context;

		Replica(String identity, TcpProxy proxy, LeaseDelay leases, @Nullable Clock clock) {
			this.identity = identity;
			this.proxy = proxy;
			this.leases = leases;
			this.clock = clock;
			this.client = new KubernetesClientBuilder().withConfig(ReplicaGroup.this.server.adminConfigThrough(proxy))
				.withHttpClientBuilderConsumer((builder) -> builder.addOrReplaceInterceptor(LeaseDelay.NAME, leases))
				.build();
		}

		DeliverySnapshot snapshot() {
			return Objects.requireNonNull(this.context).getBean(DeliveryCoordinator.class).snapshot();
		}

		ApplicationContextRunner runner() {
			String namespace = ReplicaGroup.this.namespace;
			ApplicationContextRunner runner = new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
				.withBean(KubernetesClient.class, () -> this.client,
						(definition) -> definition.setDestroyMethodName(""))
				.withInitializer((context) -> context.addApplicationListener(ReplicaGroup.this.recorder
					.listener(this.identity, Duration.ZERO, () -> members(context.getBean(DeliveryCoordinator.class)))))
				.withPropertyValues("informer.delivery.mode=" + ReplicaGroup.this.mode.name().toLowerCase(),
						"informer.delivery.group=" + namespace, "informer.delivery.identity=" + this.identity,
						"informer.delivery.lease-namespace=" + namespace,
						"informer.delivery.lease-duration=" + LEASE_DURATION.toMillis() + "ms",
						"informer.delivery.renew-deadline=" + RENEW_DEADLINE.toMillis() + "ms",
						"informer.delivery.retry-period=" + RETRY_PERIOD.toMillis() + "ms",
						"informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
						"informer.resources.configmaps.namespaces=" + namespace,
						"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt");
			Clock clock = this.clock;
			if (clock != null) {
				runner = runner.withBean(InformerAutoConfiguration.CLOCK_BEAN_NAME, Clock.class, () -> clock);
			}
			return runner;
		}

		private static List<String> members(DeliveryCoordinator coordinator) {
			DeliverySnapshot.Sharding sharding = coordinator.snapshot().sharding();
			return (sharding != null) ? sharding.members() : List.of();
		}

		void closeClient() {
			this.client.close();
			try {
				this.proxy.close();
			}
			catch (IOException ex) {
				// closed
			}
		}

		@Override
		public String toString() {
			return this.identity;
		}

	}

}
