package dev.informer.runtime.status;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;
import dev.informer.watch.ListCycle;
import dev.informer.watch.RelistReason;
import dev.informer.watch.WatchError;
import dev.informer.watch.WatchSnapshot;

/**
 * Every transition of a watch, in one function: {@link #step} takes the state and one
 * {@link WatchInput} and returns the next state and what to do (the state change to
 * publish). It does no I/O and reads no clock but the time it is given, so every
 * transition is testable alone; {@link WatchStatus} runs it, one input at a time. A
 * stopped watch keeps its state until {@link WatchInput.Restarted restarted}; a step to
 * the current state publishes nothing.
 */
public final class WatchTransitions {

	private WatchTransitions() {
	}

	/**
	 * Take one input.
	 * @param state the state before
	 * @param input what happened
	 * @param now when
	 * @return the state after and what to do
	 */
	static Step step(WatchState state, WatchInput input, Instant now) {
		// Java 17: an instanceof per input where a pattern switch would do
		if (input instanceof WatchInput.ListStarted started) {
			return listStarted(state, started.trigger(), now);
		}
		if (input instanceof WatchInput.ListCompleted completed) {
			return listCompleted(state, completed.items(), now);
		}
		if (input instanceof WatchInput.Sampled sampled) {
			return sampled(state, sampled, now);
		}
		if (input instanceof WatchInput.Silent silent) {
			WatchState next = state.withSilentRestart();
			if (state.isWatching()) {
				next = reconnected(next, now, true);
			}
			return change(notWatching(next, now), InformerState.RECONNECTING, silent.why(), now);
		}
		if (input instanceof WatchInput.Failed failed) {
			return failed(state, failed, now);
		}
		if (input instanceof WatchInput.GaveUp gaveUp) {
			WatchState next = (gaveUp.errorReason() != null) ? state
				.with(new WatchError(now, 0, gaveUp.errorReason(), gaveUp.cause()), state.consecutiveFailures() + 1)
					: state;
			return change(next, InformerState.FAILED, gaveUp.cause(), now);
		}
		if (input instanceof WatchInput.Noted noted) {
			return new Step(
					state.with(new WatchError(now, 0, noted.reason(), noted.message()), state.consecutiveFailures()));
		}
		if (input instanceof WatchInput.Replacing replacing) {
			return change(state, InformerState.RECONNECTING,
					"replacing in " + replacing.delayMillis() + " ms: " + replacing.why(), now);
		}
		if (input instanceof WatchInput.Replaced) {
			return new Step(state.with(state.availability().reset()));
		}
		if (input instanceof WatchInput.Stopped) {
			return change(state, InformerState.STOPPED, "stopped", now);
		}
		if (input instanceof WatchInput.Restarted) {
			return new Step(state.with(new WatchSnapshot.Lifecycle(InformerState.STARTING, now, null))
				.with(new WatchSnapshot.Connection(false, null, state.connection().reconnects()))
				.with(state.availability().reset()));
		}
		throw new IllegalArgumentException("Unknown watch input " + input);
	}

	private static Step listStarted(WatchState state, RelistReason trigger, Instant now) {
		WatchState next = notWatching(state, now);
		if (!state.isSynced()) {
			next = next.with(new WatchState.Listing(now, RelistReason.INITIAL), state.lists());
			return change(next, InformerState.LISTING, "initial list", now);
		}
		WatchSnapshot.Lists lists = state.lists();
		Map<String, Long> relists = new TreeMap<>(lists.relists());
		relists.merge(trigger.tagValue(), 1L, Long::sum);
		next = next.with(new WatchState.Listing(now, trigger), new WatchSnapshot.Lists(lists.last(), lists.count(),
				lists.totalTime(), Collections.unmodifiableMap(relists)));
		// only relists fabric8 started by itself; manual ones and replacements are ours
		if (trigger.isByFabric8()) {
			next = next.with(next.availability().relistedByFabric8(now));
		}
		return change(next, InformerState.RELISTING, "relist (" + trigger + ")", now);
	}

	private static Step listCompleted(WatchState state, int items, Instant now) {
		Instant started = state.listing().startedAt();
		Duration duration = (started != null) ? Duration.between(started, now) : Duration.ZERO;
		RelistReason trigger = state.isSynced() ? state.listing().trigger() : RelistReason.INITIAL;
		WatchSnapshot.Lists lists = state.lists();
		WatchState next = state
			.with(state.listing(),
					new WatchSnapshot.Lists(new ListCycle((started != null) ? started : now, duration, items, trigger),
							lists.count() + 1, lists.totalTime().plus(duration), lists.relists()))
			.with(state.lastError(), 0);
		// the watch opens right after the list: it is not open yet
		next = notWatching(next, now);
		boolean first = !state.isSynced();
		if (first) {
			WatchSnapshot.Lifecycle lifecycle = next.lifecycle();
			next = next.with(new WatchSnapshot.Lifecycle(lifecycle.state(), lifecycle.since(), now));
		}
		String cause = (trigger == RelistReason.INITIAL) ? "initial list" : "relist (" + trigger + ")";
		Step step = change(next, InformerState.WATCHING, cause + " completed", now);
		return new Step(step.state(), step.change(), first, false);
	}

	private static Step sampled(WatchState state, WatchInput.Sampled sampled, Instant now) {
		WatchState next = state;
		boolean moved = sampled.resourceVersion() != null && !sampled.resourceVersion().equals(state.resourceVersion());
		if (moved) {
			next = next.withResourceVersion(sampled.resourceVersion(), now);
		}
		if (state.state() == InformerState.STOPPED) {
			return new Step(next, null, false, moved);
		}
		next = next.with(next.availability().sample(sampled.open()));
		WatchSnapshot.Connection connection = next.connection();
		Step step;
		if (sampled.open()) {
			next = next.with(new WatchSnapshot.Connection(true, null, connection.reconnects()));
			// only a reconnecting watch resumes: a listing one opens after its list
			step = (!state.isWatching() && state.state() == InformerState.RECONNECTING)
					? change(next, InformerState.WATCHING, "watch re-established", now) : new Step(next);
		}
		else if (state.isWatching()) {
			next = notWatching(state.isSynced() ? reconnected(next, now, true) : next, now);
			step = (state.isSynced() && state.state() == InformerState.WATCHING)
					? change(next, InformerState.RECONNECTING, "watch closed", now) : new Step(next);
		}
		else {
			// closed and seen closed: since when stays as it was
			step = new Step(next
				.with(new WatchSnapshot.Connection(false, connection.notWatchingSince(), connection.reconnects())));
		}
		return new Step(step.state(), step.change(), false, moved);
	}

	private static Step failed(WatchState state, WatchInput.Failed failed, Instant now) {
		WatchState next = state.with(new WatchError(now, failed.code(), failed.reason(), failed.message()),
				state.consecutiveFailures() + 1);
		// a 410 is fabric8's cue to relist, which says so itself
		if (!state.isSynced() || failed.code() == 410) {
			return new Step(next);
		}
		if (state.isWatching()) {
			// counted, but not as a loss in the availability window: a sample finds that
			next = reconnected(next, now, false);
		}
		return change(notWatching(next, now), InformerState.RECONNECTING,
				((failed.code() != 0) ? "HTTP " + failed.code() + " " : "") + failed.reason(), now);
	}

	private static WatchState reconnected(WatchState state, Instant now, boolean lost) {
		WatchSnapshot.Connection connection = state.connection();
		WatchState next = state.with(new WatchSnapshot.Connection(connection.watching(), connection.notWatchingSince(),
				connection.reconnects() + 1));
		return lost ? next.with(state.availability().lost(now)) : next;
	}

	private static WatchState notWatching(WatchState state, Instant now) {
		WatchSnapshot.Connection connection = state.connection();
		Instant since = (connection.notWatchingSince() != null) ? connection.notWatchingSince() : now;
		return state.with(new WatchSnapshot.Connection(false, since, connection.reconnects()));
	}

	private static Step change(WatchState state, InformerState target, String cause, Instant now) {
		InformerState previous = state.state();
		if (previous == InformerState.STOPPED || previous == target) {
			return new Step(state);
		}
		WatchSnapshot.Lifecycle lifecycle = state.lifecycle();
		return new Step(state.with(new WatchSnapshot.Lifecycle(target, now, lifecycle.syncedAt())),
				new Change(previous, target, cause), false, false);
	}

	/**
	 * The state after one input, and what to do.
	 *
	 * @param state the state after
	 * @param change the state change to publish, or {@code null}
	 * @param firstSync whether the input completed the watch's first list
	 * @param resourceVersionMoved whether a sample found a new resourceVersion (a
	 * bookmark moves it without any change to the cache)
	 */
	public record Step(WatchState state, @Nullable Change change, boolean firstSync, boolean resourceVersionMoved) {

		Step(WatchState state) {
			this(state, null, false, false);
		}

	}

	/**
	 * A state change, published after the step that made it.
	 *
	 * @param previous the state before
	 * @param current the state after
	 * @param cause why
	 */
	public record Change(InformerState previous, InformerState current, String cause) {
	}

}
