package dev.informer.runtime.replicas;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchSnapshot;

/**
 * Judges, each time it is asked, whether this replica's watches are current enough for it
 * to publish for the group, from the signals a watch already has: a watch is
 * <em>behind</em> while it is not open, or open with nothing arriving on its connection
 * for longer than {@code informer.health.stale-after}, or its cache has been behind a
 * resourceVersion the API server had for longer than the bound. It counts as stale once
 * it has been behind without a break for longer than
 * {@code informer.replicas.step-down-stale-after}: a silent watch is restarted after
 * {@code informer.reliability.restart-silent-watch-after}, so a bound above that gives
 * the restart its chance first, and a restart that helps ends the spell.
 * <p>
 * Only what arrives from the API server counts, never the listeners: a backlog behind a
 * slow listener leaves a watch current. A watch that has not synced yet is left out (a
 * replica that starts is not stale), and so is one that stopped. Asked on one thread, the
 * coordinator's.
 */
final class StaleWatches {

	private final Duration staleAfter;

	private final Duration bound;

	/** Since when each watch has been behind without a break, by watch. */
	private final Map<String, Instant> behindSince = new HashMap<>();

	/**
	 * Create the judge.
	 * @param staleAfter how long nothing may arrive on an open watch before it is behind
	 * ({@code informer.health.stale-after})
	 * @param bound how long a watch may be behind before it is stale
	 */
	StaleWatches(Duration staleAfter, Duration bound) {
		this.staleAfter = staleAfter;
		this.bound = bound;
	}

	Duration bound() {
		return this.bound;
	}

	/**
	 * Return the watches of {@code informers} that have been behind for longer than the
	 * bound, each described with how long.
	 * @param informers the informers this replica publishes for
	 * @param now the current time
	 * @return the stale watches, empty when every watch is current
	 */
	List<String> judge(List<ReplicatedInformer> informers, Instant now) {
		List<String> stale = new ArrayList<>();
		Map<String, Instant> seen = new HashMap<>();
		for (ReplicatedInformer informer : informers) {
			for (Watch watch : informer.getWatches()) {
				WatchSnapshot snapshot = watch.snapshot();
				String name = informer.getName()
						+ ((snapshot.namespace() != null) ? " in " + snapshot.namespace() : "");
				Instant since = behindSince(snapshot, now);
				if (since == null) {
					continue;
				}
				Instant earlier = this.behindSince.get(name);
				if (earlier != null && earlier.isBefore(since)) {
					// behind without a break since then: a silent watch that was
					// restarted
					// and has not connected again is still the same spell
					since = earlier;
				}
				seen.put(name, since);
				Duration behind = Duration.between(since, now);
				if (behind.compareTo(this.bound) > 0) {
					stale.add(name + " (" + why(snapshot, now) + ", behind for " + behind.toSeconds() + " s)");
				}
			}
		}
		this.behindSince.clear();
		this.behindSince.putAll(seen);
		return stale;
	}

	/**
	 * Return since when one watch has been behind, as far as one snapshot tells, or
	 * {@code null} while it is current.
	 */
	private @Nullable Instant behindSince(WatchSnapshot snapshot, Instant now) {
		InformerState state = snapshot.lifecycle().state();
		if (!snapshot.lifecycle().isSynced() || state == InformerState.STOPPED) {
			return null;
		}
		Instant since = null;
		WatchSnapshot.Connection connection = snapshot.connection();
		if (!connection.watching()) {
			since = (connection.notWatchingSince() != null) ? connection.notWatchingSince() : now;
		}
		else if (snapshot.isSilentFor(this.staleAfter)) {
			since = snapshot.liveness().lastByteAt();
		}
		Duration lag = snapshot.lag().staleFor();
		if (lag != null && lag.compareTo(this.bound) > 0) {
			// a watch whose connection delivers, yet whose cache does not reach what the
			// server had: only the lag tells
			Instant lagSince = now.minus(lag);
			since = (since == null || lagSince.isBefore(since)) ? lagSince : since;
		}
		return since;
	}

	private String why(WatchSnapshot snapshot, Instant now) {
		if (!snapshot.connection().watching()) {
			return "not watching";
		}
		Duration silent = snapshot.liveness().sinceLastByte(now);
		if (snapshot.isSilentFor(this.staleAfter) && silent != null) {
			return "nothing arrived for " + silent.toSeconds() + " s";
		}
		Duration lag = snapshot.lag().staleFor();
		return "cache behind the server for " + ((lag != null) ? lag.toSeconds() : 0) + " s";
	}

}
