package dev.informer.runtime.status;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchError;
import dev.informer.watch.WatchSnapshot;

/**
 * The status of one watch (one fabric8 informer: a namespace of an informer, or all of
 * it): the one writer of its {@link WatchState state}. Every input is {@link #post
 * posted}; {@link WatchTransitions#step} takes one at a time and the state it returns is
 * published as one immutable value, which every read (health, metrics, the endpoint, the
 * runtime's own checks) takes whole. The state changes a step makes are published after
 * it, in the order of the steps, one at a time: a listener that posts again is heard
 * after it returns, never inside it. What flows through the watch is counted beside the
 * state, in its {@link #observed() observations}. Never holds resource data.
 * <p>
 * Whether the watch is open is sampled, not signalled: fabric8 reports no callback when
 * it closes a watch to rotate it or loses the connection, so {@link #isWatching()} is as
 * fresh as the last {@link WatchInput.Sampled sample} (a quarter of a second by default).
 *
 * @since 0.1.0
 */
public final class WatchStatus implements Watch {

	private final @Nullable String namespace;

	private final Clock clock;

	private final StateListener listener;

	private final AtomicReference<WatchState> state;

	private final Queue<WatchTransitions.Change> changes = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean publishing = new AtomicBoolean();

	private final WatchObservations observed;

	public WatchStatus(@Nullable String namespace, Duration resyncPeriod, Clock clock, StateListener listener) {
		this(namespace, resyncPeriod, clock, listener, AvailabilityWindow.DEFAULT_SAMPLES);
	}

	public WatchStatus(@Nullable String namespace, Duration resyncPeriod, Clock clock, StateListener listener,
			int availabilitySamples) {
		this.namespace = namespace;
		this.clock = clock;
		this.listener = listener;
		this.state = new AtomicReference<>(WatchState.initial(clock.instant(), availabilitySamples));
		this.observed = new WatchObservations(clock, resyncPeriod);
	}

	/**
	 * Take one input: the only way a watch's state changes.
	 * @param input what happened
	 * @return the step it made
	 */
	public WatchTransitions.Step post(WatchInput input) {
		WatchTransitions.Step step;
		synchronized (this.state) {
			step = WatchTransitions.step(this.state.get(), input, this.clock.instant());
			this.state.set(step.state());
			if (step.change() != null) {
				this.changes.add(step.change());
			}
		}
		publishChanges();
		return step;
	}

	// one thread at a time, in the order of the steps, outside the step's lock: listeners
	// may take their time, read this status or post to it
	private void publishChanges() {
		while (!this.changes.isEmpty() && this.publishing.compareAndSet(false, true)) {
			try {
				WatchTransitions.Change change;
				while ((change = this.changes.poll()) != null) {
					this.listener.stateChanged(this, change.previous(), change.current(), change.cause());
				}
			}
			finally {
				this.publishing.set(false);
			}
		}
	}

	/**
	 * Return what flows through this watch, counted beside its state.
	 * @return the observations
	 */
	public WatchObservations observed() {
		return this.observed;
	}

	@Override
	public WatchSnapshot snapshot() {
		return this.state.get().snapshot(this.namespace, this.clock.instant(), this.observed);
	}

	// the values the runtime reads often, without a snapshot: each from one state

	/**
	 * Return the availability window alone, without a whole snapshot.
	 * @return the window as it is now
	 */
	public WatchSnapshot.Availability availability() {
		return this.state.get().availability().snapshot();
	}

	@Override
	public @Nullable String getNamespace() {
		return this.namespace;
	}

	@Override
	public InformerState getState() {
		return this.state.get().state();
	}

	@Override
	public boolean isSynced() {
		return this.state.get().isSynced();
	}

	@Override
	public boolean isWatching() {
		return this.state.get().isWatching();
	}

	@Override
	public @Nullable Instant getNotWatchingSince() {
		return this.state.get().connection().notWatchingSince();
	}

	@Override
	public @Nullable WatchError getLastError() {
		return this.state.get().lastError();
	}

	@Override
	public @Nullable Instant getLastActivityAt() {
		return this.state.get().lastActivityAt(this.observed);
	}

	/**
	 * Told about every state change, outside any lock, one at a time.
	 */
	@FunctionalInterface
	public interface StateListener {

		void stateChanged(WatchStatus status, InformerState previous, InformerState current, String cause);

	}

}
