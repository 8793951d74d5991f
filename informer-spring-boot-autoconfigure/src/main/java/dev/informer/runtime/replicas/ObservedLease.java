package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import org.jspecify.annotations.Nullable;

/**
 * fabric8's Lease lock: notes each successful read and renewal by this replica, stamps
 * what it writes with this replica's clock, and shows fabric8 another holder's record
 * with the time this replica observed it instead of the renew time written in it.
 */
final class ObservedLease implements Lock {

	private final Lock delegate;

	private final String identity;

	private final String lease;

	private final Clock clock;

	private final BooleanSupplier running;

	private final LeaseRequestFailures failures;

	private final Consumer<LeaseRefusedException> refusals;

	private final LeaseSightings sightings;

	private volatile @Nullable Instant lastContact;

	private volatile @Nullable Instant lastRenewal;

	/**
	 * Whether this replica held the Lease last, as far as it knows: set by its own
	 * renewals, cleared when it sees another replica take over or stops.
	 */
	private volatile boolean owner;

	/** The last record of another holder read, and when this replica first read it so. */
	private volatile @Nullable Observed observed;

	/**
	 * Create the lock of one Lease, for every election of this replica on it.
	 * @param delegate fabric8's lock
	 * @param lease the Lease, as {@code namespace/name}
	 * @param clock this replica's clock, which stamps what it writes
	 * @param running whether the election runs
	 * @param failures how requests on the Lease failed
	 * @param refusals told of a refusal no retry cures
	 */
	ObservedLease(Lock delegate, String lease, Clock clock, BooleanSupplier running, LeaseRequestFailures failures,
			Consumer<LeaseRefusedException> refusals, LeaseSightings sightings) {
		this.sightings = sightings;
		this.delegate = delegate;
		this.identity = delegate.identity();
		this.lease = lease;
		this.clock = clock;
		this.running = running;
		this.failures = failures;
		this.refusals = refusals;
	}

	@Nullable Instant lastContact() {
		return this.lastContact;
	}

	@Nullable Instant lastRenewal() {
		return this.lastRenewal;
	}

	boolean isOwner() {
		return this.owner;
	}

	/**
	 * Forget being the last holder: another replica took over, or this one stops.
	 */
	void disown() {
		this.owner = false;
	}

	@Override
	public @Nullable LeaderElectionRecord get(KubernetesClient client) {
		if (!this.running.getAsBoolean()) {
			// fabric8 reads the Lease once more when stopped: nothing to wait for
			throw new KubernetesClientException("Lease " + this.lease + ": election stopped");
		}
		LeaderElectionRecord record = refused("get", () -> this.delegate.get(client));
		this.lastContact = this.clock.instant();
		if (record == null || this.identity.equals(record.getHolderIdentity())) {
			return record;
		}
		return record.toBuilder().renewTime(observedAt(record)).build();
	}

	/**
	 * Return when this replica first read the record as it is now, in fabric8's time base
	 * (the system clock in UTC), against which fabric8 judges expiry.
	 */
	private ZonedDateTime observedAt(LeaderElectionRecord record) {
		Observed last = this.observed;
		if (last != null && last.sameRecord(record)) {
			return last.at();
		}
		ZonedDateTime at = ZonedDateTime.now(ZoneOffset.UTC);
		this.sightings.seen(LeaseSightings.describe(record.getHolderIdentity(), record.getRenewTime(),
				record.getLeaderTransitions()), this.clock.instant());
		this.observed = new Observed(record.getHolderIdentity(), record.getRenewTime(), record.getLeaderTransitions(),
				at);
		return at;
	}

	@Override
	public void create(KubernetesClient client, LeaderElectionRecord record) {
		LeaderElectionRecord stamped = stamped(record);
		refused("create", () -> {
			this.delegate.create(client, stamped);
			return null;
		});
		renewed(stamped);
	}

	@Override
	public void update(KubernetesClient client, LeaderElectionRecord record) {
		LeaderElectionRecord stamped = stamped(record);
		refused("update", () -> {
			this.delegate.update(client, stamped);
			return null;
		});
		renewed(stamped);
	}

	private LeaderElectionRecord stamped(LeaderElectionRecord record) {
		if (!this.running.getAsBoolean()) {
			throw new KubernetesClientException("Lease " + this.lease + ": election stopped");
		}
		ZonedDateTime now = ZonedDateTime.ofInstant(this.clock.instant(), ZoneOffset.UTC);
		boolean acquired = Objects.equals(record.getAcquireTime(), record.getRenewTime());
		return record.toBuilder().renewTime(now).acquireTime(acquired ? now : record.getAcquireTime()).build();
	}

	/**
	 * Run a request, noting how it failed; a refusal that retrying cannot cure (403: a
	 * missing RBAC rule, 404 on create: no such namespace, 422: a Lease the server or an
	 * admission policy finds invalid, see {@link LeaseRequestFailures#isRefusal}) ends
	 * the first round, so that startup fails at once rather than after the lease
	 * duration.
	 */
	private <R> R refused(String verb, Supplier<R> request) {
		R result;
		try {
			result = request.get();
		}
		catch (KubernetesClientException ex) {
			if (this.failures.failed(verb, ex)) {
				this.refusals.accept(new LeaseRefusedException(verb, this.lease, ex));
			}
			throw ex;
		}
		this.failures.succeeded(verb);
		return result;
	}

	private void renewed(LeaderElectionRecord record) {
		this.lastContact = this.clock.instant();
		if (this.identity.equals(record.getHolderIdentity()) && record.getRenewTime() != null) {
			this.lastRenewal = record.getRenewTime().toInstant();
			this.owner = true;
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

	/**
	 * Another holder's record, and when this replica first read it so.
	 */
	private record Observed(@Nullable String holder, @Nullable ZonedDateTime renewTime, int transitions,
			ZonedDateTime at) {

		boolean sameRecord(LeaderElectionRecord record) {
			return Objects.equals(this.holder, record.getHolderIdentity())
					&& Objects.equals(this.renewTime, record.getRenewTime())
					&& this.transitions == record.getLeaderTransitions();
		}

	}

}
