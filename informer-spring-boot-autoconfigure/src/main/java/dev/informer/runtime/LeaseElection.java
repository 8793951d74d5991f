package dev.informer.runtime;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.watch.WatchError;

/**
 * One Lease held with fabric8's {@code LeaderElector}: acquired when free or expired,
 * renewed every retry period, released on {@link #stop()} so that another replica can
 * take it at once. fabric8's elector runs once; after a lost Lease a new one is started,
 * so that the replica competes again, and the JVM is never exited.
 * <p>
 * {@link #isHeld()} is stricter than fabric8's callbacks: the Lease counts as held only
 * until the renew deadline after its last successful renewal, which comes before any
 * other replica may take it (lease duration). A renewal stuck in a cut connection
 * therefore stops the holder in time even if fabric8 tells it late.
 */
final class LeaseElection {

	private static final Log logger = LogFactory.getLog(LeaseElection.class);

	private final KubernetesClient client;

	private final ObjectMeta lease;

	private final String identity;

	private final DeliveryOptions options;

	private final Clock clock;

	private final ScheduledExecutorService scheduler;

	private final Listener listener;

	private volatile boolean running;

	private volatile boolean leading;

	private volatile @Nullable String holder;

	private volatile @Nullable Instant lastRenewal;

	private volatile @Nullable Instant lastContact;

	private volatile @Nullable CompletableFuture<?> election;

	private final CompletableFuture<Void> firstRound = new CompletableFuture<>();

	private final LeaseRequestFailures failures;

	LeaseElection(KubernetesClient client, ObjectMeta lease, DeliveryOptions options, Clock clock,
			ScheduledExecutorService scheduler, Listener listener) {
		this.client = client;
		this.lease = lease;
		this.identity = options.identity();
		this.options = options;
		this.clock = clock;
		this.scheduler = scheduler;
		this.listener = listener;
		this.failures = new LeaseRequestFailures(options.group(), describe(), options.retryPeriod(), clock);
	}

	String leaseName() {
		return this.lease.getName();
	}

	/**
	 * Return whether this replica holds the Lease and renewed it within the renew
	 * deadline.
	 * @return whether held
	 */
	boolean isHeld() {
		Instant renewed = this.lastRenewal;
		return this.leading && renewed != null
				&& this.clock.instant().isBefore(renewed.plus(this.options.renewDeadline()));
	}

	@Nullable String holder() {
		return this.holder;
	}

	@Nullable Instant lastRenewal() {
		return this.lastRenewal;
	}

	@Nullable Instant lastContact() {
		return this.lastContact;
	}

	/**
	 * Return the last refusal of a request on the Lease that no retry cures, while
	 * requests of that kind keep failing so.
	 * @return the refusal, or {@code null}
	 */
	@Nullable WatchError refusal() {
		return this.failures.refusal();
	}

	/**
	 * Start competing for the Lease.
	 * @return a future that completes after the first attempt saw who holds the Lease
	 */
	synchronized CompletableFuture<Void> start() {
		this.running = true;
		elect();
		return this.firstRound;
	}

	private synchronized void elect() {
		if (!this.running) {
			return;
		}
		LeaderCallbacks callbacks = new LeaderCallbacks(this::started, this::stopped, this::newLeader);
		LeaderElectionConfig config = new LeaderElectionConfig(
				new RecordingLock(new LeaseLock(this.lease, this.identity)), this.options.leaseDuration(),
				this.options.renewDeadline(), this.options.retryPeriod(), callbacks, true, this.lease.getName());
		CompletableFuture<?> future = this.client.leaderElector().withConfig(config).build().start();
		this.election = future;
		future.whenComplete((ignored, ex) -> {
			if (ex != null && !(ex instanceof CancellationException)) {
				logger.warn("Lease " + describe() + ": election failed (" + NamespaceInformer.describe(ex)
						+ "); competing again");
			}
			lost();
			if (this.running) {
				// fabric8's elector runs once: compete again with a new one
				this.scheduler.schedule(this::elect, this.options.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
			}
		});
	}

	/**
	 * Stop competing and release the Lease if held, so that another replica takes it
	 * without waiting for it to expire.
	 */
	synchronized void stop() {
		this.running = false;
		CompletableFuture<?> future = this.election;
		if (future != null) {
			// fabric8 releases the Lease when its election is cancelled
			future.cancel(true);
		}
		lost();
	}

	private void started() {
		this.leading = true;
		this.firstRound.complete(null);
		this.listener.changed(this);
	}

	private void stopped() {
		lost();
	}

	private void lost() {
		if (this.leading) {
			this.leading = false;
			this.listener.changed(this);
		}
	}

	private void newLeader(@Nullable String identity) {
		this.holder = (identity == null || identity.isEmpty()) ? null : identity;
		if (!this.identity.equals(identity)) {
			// held by another: this round is over; when this replica won, fabric8 tells
			// started() next, which ends the round once the Lease counts as held
			this.firstRound.complete(null);
		}
		this.listener.changed(this);
	}

	private String describe() {
		return this.lease.getNamespace() + "/" + this.lease.getName();
	}

	/**
	 * The API server refused a request on the Lease in a way retrying cannot cure.
	 */
	static final class LeaseRefusedException extends RuntimeException {

		private final String verb;

		private final String lease;

		LeaseRefusedException(String verb, String lease, KubernetesClientException cause) {
			super(cause.getMessage(), cause);
			this.verb = verb;
			this.lease = lease;
		}

		String verb() {
			return this.verb;
		}

		/**
		 * Return the Lease refused, as {@code namespace/name}.
		 */
		String lease() {
			return this.lease;
		}

		int code() {
			return ((KubernetesClientException) getCause()).getCode();
		}

	}

	/**
	 * Told when the Lease is gained or lost, or its holder changes; on fabric8's election
	 * thread: keep it short.
	 */
	@FunctionalInterface
	interface Listener {

		void changed(LeaseElection election);

	}

	/**
	 * fabric8's Lease lock, noting each successful read and each successful renewal by
	 * this replica (the time it wrote into the Lease, which other replicas count the
	 * lease duration from).
	 */
	private final class RecordingLock implements Lock {

		private final Lock delegate;

		RecordingLock(Lock delegate) {
			this.delegate = delegate;
		}

		@Override
		public @Nullable LeaderElectionRecord get(KubernetesClient client) {
			LeaderElectionRecord record = refused("get", () -> this.delegate.get(client));
			LeaseElection.this.lastContact = LeaseElection.this.clock.instant();
			return record;
		}

		@Override
		public void create(KubernetesClient client, LeaderElectionRecord record) {
			refused("create", () -> {
				this.delegate.create(client, record);
				return null;
			});
			renewed(record);
		}

		@Override
		public void update(KubernetesClient client, LeaderElectionRecord record) {
			refused("update", () -> {
				this.delegate.update(client, record);
				return null;
			});
			renewed(record);
		}

		/**
		 * Run a request, noting how it failed; a refusal that retrying cannot cure (403:
		 * a missing RBAC rule, 404 on create: no such namespace, 422: a Lease the server
		 * or an admission policy finds invalid, see
		 * {@link LeaseRequestFailures#isRefusal}) ends the first round, so that startup
		 * fails at once rather than after the lease duration.
		 */
		private <R> R refused(String verb, Supplier<R> request) {
			R result;
			try {
				result = request.get();
			}
			catch (KubernetesClientException ex) {
				if (LeaseElection.this.failures.failed(verb, ex)) {
					LeaseElection.this.firstRound
						.completeExceptionally(new LeaseRefusedException(verb, LeaseElection.this.describe(), ex));
				}
				throw ex;
			}
			LeaseElection.this.failures.succeeded(verb);
			return result;
		}

		private void renewed(LeaderElectionRecord record) {
			LeaseElection.this.lastContact = LeaseElection.this.clock.instant();
			if (LeaseElection.this.identity.equals(record.getHolderIdentity()) && record.getRenewTime() != null) {
				LeaseElection.this.lastRenewal = record.getRenewTime().toInstant();
			}
		}

		@Override
		public String identity() {
			return this.delegate.identity();
		}

		@Override
		public String describe() {
			return this.delegate.describe();
		}

	}

}
