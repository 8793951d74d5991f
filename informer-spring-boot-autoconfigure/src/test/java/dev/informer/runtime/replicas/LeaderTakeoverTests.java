package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.informer.DeliveryMode;
import dev.informer.ResourceCache;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How far back a new leader catches up on deletes nobody may have delivered. The previous
 * leader published until shortly after its last renewal; a takeover can come much later
 * than that when nobody could take the Lease meanwhile (the API server down, Lease
 * requests refused), so the window is counted from the last renewal this replica saw, not
 * only from the takeover. Found by {@code FaultScheduleIT} seed 641363971144115683
 * (leader, {@code on-change}): the leader cut off, the API server down for 8 s, the other
 * replica leader 12 s after the old one stopped: its catch-up began after the delete only
 * the old leader could have delivered, and the delete was lost without a word.
 */
class LeaderTakeoverTests {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static final Duration RETRY = Duration.ofMillis(200);

	private final MockApiServer mock = MockApiServer.crud();

	private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

	private @Nullable LeaderDelivery delivery;

	@AfterEach
	void stop() {
		if (this.delivery != null) {
			this.delivery.stop(Duration.ofSeconds(1));
		}
		this.scheduler.shutdownNow();
		this.mock.close();
	}

	@Test
	void aNewLeaderCatchesUpFromAWindowBeforeItLastSawThePreviousHolderRenew() throws Exception {
		KubernetesClient client = this.mock.client();
		// held by a replica that is gone: its record never changes again
		client.leases()
			.inNamespace("ns")
			.resource(new LeaseBuilder().withNewMetadata()
				.withName("g")
				.withNamespace("ns")
				.endMetadata()
				.withNewSpec()
				.withHolderIdentity("gone")
				.withLeaseDurationSeconds((int) LEASE.toSeconds())
				.withRenewTime(ZonedDateTime.now(ZoneOffset.UTC))
				.withAcquireTime(ZonedDateTime.now(ZoneOffset.UTC))
				.withLeaseTransitions(0)
				.endSpec()
				.build())
			.create();
		DeliveryOptions options = new DeliveryOptions(DeliveryMode.LEADER, Map.of(), "g", "a", "ns", LEASE,
				Duration.ofSeconds(2), RETRY, false);
		TakingOver informer = new TakingOver();
		Instant started = Instant.now();
		LeaderDelivery delivery = new LeaderDelivery(client, options, Clock.systemUTC(), List.of(informer),
				DeliveryRecords.defaults(), (mode, previous, role) -> {
				});
		this.delivery = delivery;
		this.scheduler.execute(() -> delivery.start(this.scheduler, (round) -> {
		}));
		Instant since = informer.since.get(30, TimeUnit.SECONDS);
		// this replica first saw the record within a moment of its start, and the Lease
		// expired a lease duration later: the window counts from that sight, so it starts
		// a lease duration earlier than one counted from the takeover (which starts at
		// started - 3.4 s at the earliest)
		Duration window = options.takeoverWindow();
		assertThat(since).isBefore(started.minus(window).plus(Duration.ofSeconds(2)));
	}

	/**
	 * An informer that records from when it was asked to catch up.
	 */
	private static final class TakingOver implements QuietInformer {

		final CompletableFuture<Instant> since = new CompletableFuture<>();

		@Override
		public ResourceCache<?> getCache() {
			throw new UnsupportedOperationException();
		}

		@Override
		public void takeOver(Predicate<? super HasMetadata> gained, Instant since, String reason) {
			this.since.complete(since);
		}

	}

}
