package dev.informer.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.informer.DeliveryMode;

/**
 * A seeded fault schedule for {@link FaultScheduleIT}: how the replicas and their
 * listeners are set up, and a list of timed faults over the writing window, several of
 * them at once. Everything here follows from the seed, the mode and whether the informers
 * filter with {@code on-change}, so a run is replayed from the three (the interleaving of
 * threads and the server's timing still vary from run to run).
 *
 * @param seed the seed
 * @param mode the delivery mode
 * @param onChange whether the informers declare {@code on-change}
 * @param setup how the replicas are set up
 * @param steps the faults, by start time
 */
record FaultSchedule(long seed, DeliveryMode mode, boolean onChange, Setup setup, List<Step> steps) {

	/** How long the writers change objects; faults start within it. */
	static final Duration WRITING = Duration.ofSeconds(20);

	/** The renew deadline of {@link ReplicaGroup}, the unit of network faults. */
	private static final long DEADLINE_MS = ReplicaGroup.RENEW_DEADLINE.toMillis();

	/**
	 * Derive the schedule of a seed in one mode.
	 * @param seed the seed
	 * @param mode the delivery mode
	 * @param onChange whether the informers declare {@code on-change}
	 * @return the schedule
	 */
	static FaultSchedule of(long seed, DeliveryMode mode, boolean onChange) {
		Random random = new Random(seed * 31 + mode.ordinal() * 2 + (onChange ? 1 : 0));
		int replicas = (mode == DeliveryMode.SHARDED) ? 3 : 2;
		Setup setup = new Setup(replicas, Duration.ofMillis(List.of(2, 10, 25).get(random.nextInt(3))),
				random.nextInt(3) == 0, random.nextBoolean(), random.nextBoolean() ? "data" : "labels");
		List<Fault> eligible = new ArrayList<>(List.of(Fault.FREEZE, Fault.CUT, Fault.BLACK_HOLE, Fault.COMPACTION,
				Fault.RESTART, Fault.LISTENER_STALL));
		if (mode != DeliveryMode.ALL) {
			eligible.addAll(List.of(Fault.LEASE_REFUSED, Fault.LEASE_SLOW));
		}
		List<Step> steps = new ArrayList<>();
		int count = 3 + random.nextInt(3);
		for (int i = 0; i < count; i++) {
			Fault fault = eligible.get(random.nextInt(eligible.size()));
			Duration length = fault.length(random);
			long latestStart = Math.max(1000, WRITING.toMillis() - length.toMillis());
			long at;
			if (!steps.isEmpty() && (steps.size() == 1 || random.nextBoolean())) {
				// within the previous fault: several at once
				Step previous = steps.get(steps.size() - 1);
				at = previous.at().toMillis() + random.nextLong(Math.max(1, previous.length().toMillis()));
			}
			else {
				at = 500 + random.nextLong(latestStart);
			}
			Step step = free(steps, new Step(Duration.ofMillis(at), fault, random.nextInt(replicas), length), replicas);
			if (step != null) {
				if (fault == Fault.RESTART) {
					// one restart a run: it takes every replica and the writers down
					eligible.remove(Fault.RESTART);
				}
				steps.add(step);
			}
		}
		steps.sort((a, b) -> a.at().compareTo(b.at()));
		return new FaultSchedule(seed, mode, onChange, setup, List.copyOf(steps));
	}

	/**
	 * Return the step, moved to another replica if it conflicts with one on its replica;
	 * {@code null} if it conflicts on every replica.
	 */
	private static @Nullable Step free(List<Step> steps, Step step, int replicas) {
		for (int r = 0; r < replicas; r++) {
			Step moved = new Step(step.at(), step.fault(), (step.replica() + r) % replicas, step.length());
			if (steps.stream().noneMatch(moved::conflicts)) {
				return moved;
			}
		}
		return null;
	}

	/**
	 * Return the faults of this schedule.
	 * @return the faults
	 */
	Set<Fault> faults() {
		Set<Fault> faults = EnumSet.noneOf(Fault.class);
		this.steps.forEach((step) -> faults.add(step.fault()));
		return faults;
	}

	/**
	 * Return the end of the last fault.
	 * @return the time from the start of writing
	 */
	Duration end() {
		return this.steps.stream().map((s) -> s.at().plus(s.length())).max(Duration::compareTo).orElse(Duration.ZERO);
	}

	/**
	 * Describe the schedule, a line a step, for the test's output.
	 * @return the description
	 */
	String describe() {
		return "seed " + this.seed + ", mode " + this.mode.name().toLowerCase() + ", "
				+ (this.onChange ? "on-change [" + this.setup.configMapsOnChange() + "] on ConfigMaps, [spec] on Dials"
						: "no on-change")
				+ ": " + this.setup + "\n"
				+ this.steps.stream().map((step) -> "  " + step).collect(Collectors.joining("\n"));
	}

	/**
	 * How the replicas are set up for the whole run.
	 *
	 * @param replicas how many replicas
	 * @param listenerWork the longest time a listener spends on an event (uneven: from
	 * none to this)
	 * @param rejectingExecutor whether listeners run on a {@code ThreadPoolTaskExecutor}
	 * with one thread and no queue, which rejects while busy
	 * @param undecodable whether the writer of Dials makes some impossible to decode
	 * @param configMapsOnChange the part the ConfigMaps' {@code on-change} declares
	 * ({@code data} or {@code labels}), when the schedule filters
	 */
	record Setup(int replicas, Duration listenerWork, boolean rejectingExecutor, boolean undecodable,
			String configMapsOnChange) {

		@Override
		public String toString() {
			return this.replicas + " replicas, listeners take up to " + this.listenerWork.toMillis() + " ms an event"
					+ (this.rejectingExecutor ? ", a listener executor that rejects while busy" : "")
					+ (this.undecodable ? ", Dials that cannot be decoded" : "");
		}

	}

	/**
	 * One fault.
	 *
	 * @param at when it starts, from the start of writing
	 * @param fault what it is
	 * @param replica the replica it hits (its index), unless it hits the server
	 * @param length how long it lasts
	 */
	record Step(Duration at, Fault fault, int replica, Duration length) {

		boolean conflicts(Step other) {
			boolean overlaps = this.at.compareTo(other.at.plus(other.length)) < 0
					&& other.at.compareTo(this.at.plus(this.length)) < 0;
			return overlaps && this.fault.channel != Channel.SERVER && this.fault.channel == other.fault.channel
					&& this.replica == other.replica;
		}

		@Override
		public String toString() {
			return String.format("at %5.1f s: %s%s for %.1f s", this.at.toMillis() / 1000.0, this.fault.description,
					(this.fault.channel != Channel.SERVER) ? " of replica " + this.replica : "",
					this.length.toMillis() / 1000.0);
		}

	}

	/**
	 * What a fault acts on: two faults on one channel of one replica never overlap.
	 */
	enum Channel {

		NETWORK, LEASES, LISTENER, SERVER

	}

	/**
	 * The faults.
	 */
	enum Fault {

		/** The replica's path frozen: bytes held, then released. */
		FREEZE(Channel.NETWORK, "the path frozen", 0.5, 1.5, 3),

		/** The replica's connections reset and new ones refused. */
		CUT(Channel.NETWORK, "the path cut", 0.5, 1.5, 3),

		/**
		 * The replica's open connections stop forwarding without closing; new ones work;
		 * at the end they are reset (a stand-in for detecting them, see
		 * {@link FaultScheduleIT}).
		 */
		BLACK_HOLE(Channel.NETWORK, "the open connections black-holed", 0.5, 1.5, 3),

		/**
		 * The replica's path cut until etcd compacted past the revision of the cut, so
		 * that its watch resumes into 410 Gone.
		 */
		COMPACTION(Channel.NETWORK, "the path cut until etcd compacted past it", 0.5, 1.5),

		/** The kube-apiserver killed and started again on its port and etcd. */
		RESTART(Channel.SERVER, "the kube-apiserver down", 0.5, 2),

		/** The replica's Lease requests answered 403. */
		LEASE_REFUSED(Channel.LEASES, "Lease requests refused", 0.5, 1.5, 3),

		/** The replica's Lease requests held, then sent. */
		LEASE_SLOW(Channel.LEASES, "Lease requests held", 0.5, 1.5, 3),

		/** The replica's listeners stalled, so that a backlog builds. */
		LISTENER_STALL(Channel.LISTENER, "the listeners stalled", 0.5, 1.5);

		final Channel channel;

		private final String description;

		/** Lengths, in renew deadlines. */
		private final double[] lengths;

		Fault(Channel channel, String description, double... lengths) {
			this.channel = channel;
			this.description = description;
			this.lengths = lengths;
		}

		Duration length(Random random) {
			return Duration.ofMillis((long) (DEADLINE_MS * this.lengths[random.nextInt(this.lengths.length)]));
		}

	}

}
