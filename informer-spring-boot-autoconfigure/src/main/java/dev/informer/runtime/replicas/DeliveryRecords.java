package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounds of what the gates of one replica remember for later delivery, and how much
 * they remember now: the {@link Tombstones} of deletes they dropped, and the
 * {@link MissedChanges} of a lapse. Shared by the watches of every informer of a delivery
 * mode; read by metrics.
 *
 * @since 0.1.0
 */
public final class DeliveryRecords {

	/**
	 * How long a tombstone is kept by default.
	 */
	public static final Duration DEFAULT_TOMBSTONE_RETENTION = Duration.ofMinutes(10);

	/**
	 * How many tombstones one watch keeps by default.
	 */
	public static final int DEFAULT_MAX_TOMBSTONES = 10_000;

	/**
	 * How many objects' last-seen states one watch keeps through a lapse by default.
	 */
	public static final int DEFAULT_MAX_MISSED_CHANGES = 10_000;

	private final Duration tombstoneRetention;

	private final int maxTombstones;

	private final int maxMissedChanges;

	private final Clock clock;

	private final AtomicLong tombstones = new AtomicLong();

	private final AtomicLong tombstonesDropped = new AtomicLong();

	private final AtomicLong missedChanges = new AtomicLong();

	private final AtomicLong missedOverflows = new AtomicLong();

	/**
	 * Create the records' bounds.
	 * @param tombstoneRetention how long a tombstone is kept
	 * @param maxTombstones how many tombstones one watch keeps
	 * @param maxMissedChanges how many objects' last-seen states one watch keeps through
	 * a lapse before it falls back to replaying every object
	 * @param clock the clock that ages tombstones
	 */
	public DeliveryRecords(Duration tombstoneRetention, int maxTombstones, int maxMissedChanges, Clock clock) {
		this.tombstoneRetention = tombstoneRetention;
		this.maxTombstones = maxTombstones;
		this.maxMissedChanges = maxMissedChanges;
		this.clock = clock;
	}

	/**
	 * Return records with the default bounds.
	 * @return the records
	 */
	public static DeliveryRecords defaults() {
		return new DeliveryRecords(DEFAULT_TOMBSTONE_RETENTION, DEFAULT_MAX_TOMBSTONES, DEFAULT_MAX_MISSED_CHANGES,
				Clock.systemUTC());
	}

	Duration tombstoneRetention() {
		return this.tombstoneRetention;
	}

	int maxTombstones() {
		return this.maxTombstones;
	}

	int maxMissedChanges() {
		return this.maxMissedChanges;
	}

	Clock clock() {
		return this.clock;
	}

	void tombstonesChanged(long delta) {
		this.tombstones.addAndGet(delta);
	}

	void tombstonesDropped(long count) {
		this.tombstonesDropped.addAndGet(count);
	}

	void missedChanged(long delta) {
		this.missedChanges.addAndGet(delta);
	}

	void missedOverflowed() {
		this.missedOverflows.incrementAndGet();
	}

	/**
	 * Return how many tombstones the gates keep now.
	 * @return the number of tombstones
	 */
	public long tombstones() {
		return this.tombstones.get();
	}

	/**
	 * Return how many tombstones were dropped by a bound (age or count) before any
	 * replica delivered them here.
	 * @return the number dropped
	 */
	public long tombstonesDropped() {
		return this.tombstonesDropped.get();
	}

	/**
	 * Return how many objects' last-seen states the gates keep now through a lapse.
	 * @return the number of states
	 */
	public long missedChanges() {
		return this.missedChanges.get();
	}

	/**
	 * Return how many times a watch's record of a lapse hit its bound and fell back to
	 * replaying every object.
	 * @return the number of overflows
	 */
	public long missedOverflows() {
		return this.missedOverflows.get();
	}

}
