package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.watch.DeliverySnapshot;

/**
 * Whether this replica keeps its part in the group's delivery while its watches are stale
 * ({@link StaleWatches}): a replica that would publish, or compete to, from a cache that
 * misses changes keeps the whole group silent, since the others defer to its Lease. One
 * decision per tick, on the coordinator's thread:
 * <ul>
 * <li>{@link Decision#STEP_DOWN} once a watch has been stale beyond
 * {@code informer.replicas.step-down-stale-after}: give the Lease up and stop competing;
 * logged at WARN with the stale watches, counted. {@link LeaderDelivery} releases the
 * group's Lease, {@link ShardedDelivery} deletes its member Lease.</li>
 * <li>{@link Decision#COMPETE} once every watch is current again, or when, stepped down,
 * no other replica has taken the part over for a takeover bound (the lease duration plus
 * four retry periods): every replica is stale, typically because the API server itself is
 * unreachable, and nobody can do better. A replica that competes again for that reason
 * does not step down again until its watches have been current once, so that a group
 * whose replicas are all stale does not hand the Lease round.</li>
 * </ul>
 * Hysteresis comes from the bound itself: a replica steps down only after a whole bound
 * of staleness without a break, and competes again as soon as its watches are current, so
 * it changes its mind at most once per bound.
 */
final class StepDowns {

	private static final Log logger = LogFactory.getLog(StepDowns.class);

	private final DeliveryOptions options;

	private final Clock clock;

	private final List<ReplicatedInformer> informers;

	private final Others others;

	private final StaleWatches stale;

	private final Duration takeoverBound;

	private volatile List<String> staleWatches = List.of();

	private volatile boolean steppedDown;

	private volatile @Nullable Instant steppedDownAt;

	private volatile long count;

	// coordinator thread only
	private @Nullable Instant othersSeenAt;

	private boolean despiteStale;

	StepDowns(DeliveryOptions options, Clock clock, List<ReplicatedInformer> informers, Others others) {
		this.options = options;
		this.clock = clock;
		this.informers = List.copyOf(informers);
		this.others = others;
		this.stale = new StaleWatches(options.staleAfter(), options.stepDownStaleAfter());
		this.takeoverBound = options.leaseDuration().plus(options.retryPeriod().multipliedBy(4));
	}

	/**
	 * Judge this replica's watches now.
	 * @param holds whether this replica holds its part now (the Lease counts as held)
	 * @return what to do
	 */
	Decision judge(boolean holds) {
		Instant now = this.clock.instant();
		List<String> stale = this.stale.judge(this.informers, now);
		this.staleWatches = stale;
		if (stale.isEmpty()) {
			this.despiteStale = false;
			if (!this.steppedDown) {
				return Decision.STAY;
			}
			this.steppedDown = false;
			logger.info("Delivery group '" + this.options.group() + "': the watches of " + this.options.identity()
					+ " are current again; competing again");
			return Decision.COMPETE;
		}
		if (!this.steppedDown) {
			if (this.despiteStale) {
				return Decision.STAY;
			}
			this.steppedDown = true;
			this.steppedDownAt = now;
			this.othersSeenAt = null;
			this.count++;
			logger.warn("Delivery group '" + this.options.group() + "': " + this.options.identity()
					+ (holds ? " gives up its part" : " stops competing") + " because its watches are stale beyond "
					+ "informer.replicas.step-down-stale-after=" + this.stale.bound().toSeconds() + "s: " + stale
					+ "; competing again once they are current");
			return Decision.STEP_DOWN;
		}
		if (this.others.takeOver()) {
			this.othersSeenAt = now;
			return Decision.STAY;
		}
		Instant since = (this.othersSeenAt != null) ? this.othersSeenAt : this.steppedDownAt;
		if (since != null && Duration.between(since, now).compareTo(this.takeoverBound) <= 0) {
			return Decision.STAY;
		}
		this.steppedDown = false;
		this.despiteStale = true;
		logger.warn("Delivery group '" + this.options.group() + "': no other replica took over within "
				+ this.takeoverBound.toSeconds() + " s; " + this.options.identity()
				+ " competes again with stale watches (every replica may be stale, the API server unreachable): "
				+ stale);
		return Decision.COMPETE;
	}

	boolean isSteppedDown() {
		return this.steppedDown;
	}

	DeliverySnapshot.Staleness snapshot() {
		return new DeliverySnapshot.Staleness(this.staleWatches, this.steppedDown, this.steppedDownAt, this.count);
	}

	/**
	 * What to do with this replica's part.
	 */
	enum Decision {

		/** Keep it as it is. */
		STAY,

		/** Give it up and stop competing. */
		STEP_DOWN,

		/** Compete again. */
		COMPETE

	}

	/**
	 * Asked each tick while this replica stands aside: whether another replica does its
	 * part now (another holder renews the group's Lease; other members are live).
	 */
	@FunctionalInterface
	interface Others {

		boolean takeOver();

	}

}
