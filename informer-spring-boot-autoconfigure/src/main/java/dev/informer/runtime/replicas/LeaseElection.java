package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.WatchError;

/**
 * One Lease held with fabric8's {@code LeaderElector}: acquired when free or expired,
 * renewed every retry period, given up on {@link #stop()} so that another replica can
 * take it at once. fabric8's elector runs once; after a lost Lease a new one is started,
 * so that the replica competes again, and the JVM is never exited.
 * <p>
 * Three things differ from fabric8's own behaviour:
 * <ul>
 * <li>{@link #isHeld()} is stricter than fabric8's callbacks: the Lease counts as held
 * only until the renew deadline after its last successful renewal, which comes before any
 * other replica may take it.</li>
 * <li>Another holder's Lease expires a lease duration after this replica
 * <em>observed</em> it change, not after the renew time written in it, so that a clock
 * that runs ahead or behind on either node cannot make two holders (client-go judges
 * expiry the same way). Renew times are written with this replica's {@link Clock}.</li>
 * <li>{@link #stop()} never waits on the API server for longer than its bound: the Lease
 * is given up on a thread of its own, and a server that does not answer costs shutdown
 * that bound, not fabric8's request retries.</li>
 * </ul>
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

	private final OnStop onStop;

	private volatile boolean running;

	private volatile boolean leading;

	private volatile @Nullable String holder;

	private volatile @Nullable CompletableFuture<?> election;

	private final CompletableFuture<Void> firstRound = new CompletableFuture<>();

	private final LeaseRequestFailures failures;

	private final ObservedLease observed;

	LeaseElection(KubernetesClient client, ObjectMeta lease, DeliveryOptions options, Clock clock,
			ScheduledExecutorService scheduler, OnStop onStop, Listener listener) {
		this(client, lease, options, clock, scheduler, onStop, listener, new LeaseSightings());
	}

	/**
	 * Create an election that records what it sees of other holders in {@code sightings},
	 * which outlive it.
	 */
	LeaseElection(KubernetesClient client, ObjectMeta lease, DeliveryOptions options, Clock clock,
			ScheduledExecutorService scheduler, OnStop onStop, Listener listener, LeaseSightings sightings) {
		this.client = client;
		this.lease = lease;
		this.identity = options.identity();
		this.options = options;
		this.clock = clock;
		this.scheduler = scheduler;
		this.onStop = onStop;
		this.listener = listener;
		this.failures = new LeaseRequestFailures(options.group(), describe(), options.retryPeriod(), clock);
		this.observed = new ObservedLease(new LeaseLock(lease, this.identity), describe(), clock, () -> this.running,
				this.failures, this.firstRound::completeExceptionally, sightings);
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
		Instant renewed = this.observed.lastRenewal();
		return this.leading && renewed != null
				&& this.clock.instant().isBefore(renewed.plus(this.options.renewDeadline()));
	}

	/**
	 * Return whether this replica held the Lease last, as far as it knows, and it does
	 * not count as held now: its renewals lapsed, and no other replica took over yet.
	 * @return whether lapsed
	 */
	boolean isLapsed() {
		return this.observed.isOwner() && !isHeld();
	}

	@Nullable String holder() {
		return this.holder;
	}

	@Nullable Instant lastRenewal() {
		return this.observed.lastRenewal();
	}

	@Nullable Instant lastContact() {
		return this.observed.lastContact();
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
		// released by stop() itself, within its bound: fabric8 releases on the
		// cancelling thread, with its request retries
		LeaderElectionConfig config = new LeaderElectionConfig(this.observed, this.options.leaseDuration(),
				this.options.renewDeadline(), this.options.retryPeriod(), callbacks, false, this.lease.getName());
		CompletableFuture<?> future = this.client.leaderElector().withConfig(config).build().start();
		this.election = future;
		future.whenComplete((ignored, ex) -> {
			if (ex != null && !(ex instanceof CancellationException)) {
				logger.warn("Lease " + describe() + ": election failed (" + KubernetesErrors.describe(ex)
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
	 * Stop competing and give the Lease up if held (release it, or delete it, as this
	 * election's {@link OnStop} says), so that another replica takes over without waiting
	 * for it to expire. Waits at most {@code bound} for the API server; what is not done
	 * by then goes on in the background.
	 * @param bound the longest time to wait
	 */
	void stop(Duration bound) {
		CompletableFuture<?> future;
		boolean held;
		synchronized (this) {
			this.running = false;
			future = this.election;
			held = this.observed.isOwner();
		}
		lost();
		this.observed.disown();
		CompletableFuture<Void> givenUp = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				if (future != null) {
					// fabric8 reads the Lease while stopping, under the lock its
					// renewal holds: never on the stopping thread
					future.cancel(true);
				}
				if (held || this.onStop == OnStop.DELETE) {
					giveUp();
				}
				givenUp.complete(null);
			}
			catch (RuntimeException ex) {
				givenUp.completeExceptionally(ex);
			}
		}, "informer-lease-release");
		thread.setDaemon(true);
		thread.start();
		try {
			givenUp.get(bound.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			logger.warn("Lease " + describe() + ": giving it up failed (" + KubernetesErrors.describe(ex.getCause())
					+ "); other replicas take over once it expires");
		}
		catch (TimeoutException ex) {
			logger.warn("Lease " + describe() + ": the API server did not answer within " + bound.toMillis()
					+ " ms while giving it up; other replicas take over once it expires");
		}
	}

	private void giveUp() {
		var resource = this.client.leases().inNamespace(this.lease.getNamespace()).withName(this.lease.getName());
		if (this.onStop == OnStop.DELETE) {
			resource.delete();
			return;
		}
		Lease current = resource.get();
		LeaseSpec spec = (current != null) ? current.getSpec() : null;
		if (spec == null || !this.identity.equals(spec.getHolderIdentity())) {
			return;
		}
		spec.setHolderIdentity(null);
		spec.setLeaseDurationSeconds(1);
		spec.setRenewTime(now(this.clock));
		// optimistic: refused if another replica wrote the Lease meanwhile
		this.client.leases().resource(current).update();
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
			if (this.holder != null) {
				// another replica took over: it publishes what this one could not
				this.observed.disown();
			}
			// held by another: this round is over; when this replica won, fabric8 tells
			// started() next, which ends the round once the Lease counts as held
			this.firstRound.complete(null);
		}
		this.listener.changed(this);
	}

	private String describe() {
		return this.lease.getNamespace() + "/" + this.lease.getName();
	}

	private static ZonedDateTime now(Clock clock) {
		return ZonedDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
	}

	/**
	 * What to do with the Lease on a clean stop.
	 */
	enum OnStop {

		/** Clear its holder, so that another replica may take it at once. */
		RELEASE,

		/** Delete it: a Lease of this replica alone, which nobody else takes. */
		DELETE

	}

	/**
	 * Told when the Lease is gained or lost, or its holder changes; on fabric8's election
	 * thread: keep it short.
	 */
	@FunctionalInterface
	interface Listener {

		void changed(LeaseElection election);

	}

}
