package dev.informer.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.status.WatchInput;
import dev.informer.runtime.recovery.RecoveryCheck;
import dev.informer.runtime.recovery.ReplacementBackOff;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.RelistReason;

/**
 * The replacements of one start of a watch: when a sample finds its fabric8 informer no
 * longer working ({@link RecoveryCheck}), or fabric8 stopped it, it is stopped at once
 * and a relist seeded with what listeners will have seen starts after the next backoff
 * interval. The old cache stays readable meanwhile and nothing is requested from the API
 * server. Guarded by its watch's lock, which the scheduled replacement takes too.
 *
 * @param <T> the resource type
 */
final class Replacements<T extends HasMetadata> {

	private static final Log logger = LogFactory.getLog(Replacements.class);

	private final WatchContext<T> context;

	private final WatchSettings settings;

	private final Object lock;

	private final Replaceable<T> watch;

	private final ReplacementBackOff backOff;

	// guarded by lock
	private @Nullable ScheduledFuture<?> pending;

	// when the current silence was first logged; sampling thread only
	private volatile @Nullable Instant silentSince;

	/**
	 * Create the replacements of one start of a watch.
	 * @param context the watch
	 * @param settings the recovery options and thread
	 * @param lock the watch's lock
	 * @param watch what is replaced
	 */
	Replacements(WatchContext<T> context, WatchSettings settings, Object lock, Replaceable<T> watch) {
		this.context = context;
		this.settings = settings;
		this.lock = lock;
		this.watch = watch;
		this.backOff = new ReplacementBackOff(settings.recovery());
	}

	/**
	 * Sample the current fabric8 informer into the status, and judge it.
	 * @param generation the current fabric8 informer
	 * @return whether its resourceVersion moved since the last sample (a bookmark moves
	 * it without any change to the cache)
	 */
	boolean sample(WatchGeneration<T> generation) {
		SharedIndexInformer<T> informer = generation.informer();
		boolean moved = this.context.status()
			.post(new WatchInput.Sampled(informer.isWatching(), informer.lastSyncResourceVersion()))
			.resourceVersionMoved();
		if (!generation.isActive() || !generation.isStarted()) {
			return moved;
		}
		restartIfSilent(generation, informer.isWatching());
		ListProgress lists = generation.lists();
		RecoveryCheck.Diagnosis diagnosis = RecoveryCheck.diagnose(this.context.status(),
				this.context.status()::availability,
				new RecoveryCheck.Source(informer.isRunning(), lists.isListing(), lists.listedAt()),
				this.context.clock().instant(), this.settings.recovery());
		switch (diagnosis.outcome()) {
			case REPLACE -> schedule(diagnosis.reason(), diagnosis.why());
			// without the watch's lock: a relist holds it while it swaps the fabric8
			// informer, and sampling must never wait for one
			case HEALTHY -> this.backOff.reset();
			case NOTHING -> {
			}
		}
		return moved;
	}

	/**
	 * End the watch connection if it is open but nothing arrived on it for longer than
	 * the bound: it may be dead without having closed (a black hole). fabric8 watches
	 * again from its last resourceVersion on a new connection: no relist, nothing
	 * delivered twice. Logged once per connection.
	 */
	private void restartIfSilent(WatchGeneration<T> generation, boolean watching) {
		Instant last = this.context.status().observed().lastArrivalAt();
		Duration bound = this.settings.recovery().restartSilentWatchAfter();
		if (!watching || last == null) {
			return;
		}
		Duration silent = Duration.between(last, this.context.clock().instant());
		if (silent.compareTo(bound) <= 0) {
			return;
		}
		String why = "nothing arrived on the watch connection for " + silent.toSeconds()
				+ " s (informer.reliability.restart-silent-watch-after=" + bound.toSeconds() + "s)";
		// once per silence: a connection that stays silent after a restart (nothing but
		// its opening arrived, as on a kind the API server has not seen change since it
		// started, which sends no bookmarks) is restarted again at DEBUG
		Instant lastBookmark = this.context.status().observed().lastBookmarkAt();
		boolean again = this.silentSince != null && (lastBookmark == null || lastBookmark.isBefore(this.silentSince));
		if (generation.connection().end(why)) {
			this.context.status().post(new WatchInput.Silent("watch silent: " + why));
			String message = "Informer '" + this.context.name() + "'" + this.context.where() + ": " + why
					+ "; watching again from the last resourceVersion on a new connection";
			if (again) {
				logger.debug(message);
			}
			else {
				this.silentSince = this.context.clock().instant();
				logger.warn(message);
			}
		}
	}

	/**
	 * Stop the current fabric8 informer now and start a replacement after the next
	 * backoff interval, unless one is pending or the watch no longer runs.
	 * @param reason the relist reason of the replacement
	 * @param why what is wrong, for the log and the state change
	 */
	void schedule(@Nullable RelistReason reason, String why) {
		synchronized (this.lock) {
			WatchGeneration<T> generation = this.watch.current();
			// callers judged the current generation; one retired already is a failed
			// replacement
			if (reason == null || generation == null || this.pending != null || !this.watch.isReplaceable()) {
				return;
			}
			long delay = this.backOff.nextDelay();
			generation.retire();
			this.context.status().post(new WatchInput.Replacing(delay, why));
			logger.warn("Informer '" + this.context.name() + "'" + this.context.where() + ": " + why
					+ "; replacing it with a fresh informer in " + delay + " ms");
			try {
				this.pending = this.settings.scheduler().schedule(() -> replace(reason), delay, TimeUnit.MILLISECONDS);
			}
			catch (RejectedExecutionException ex) {
				// the informer is stopping
			}
		}
	}

	private void replace(RelistReason reason) {
		synchronized (this.lock) {
			this.pending = null;
			if (!this.watch.isReplaceable()) {
				return;
			}
			this.context.status().post(new WatchInput.Replaced());
			try {
				// lists once a list permit is free, without this lock
				this.watch.relist(reason, (ex) -> failed(reason, ex));
			}
			catch (IllegalStateException ex) {
				// stopped meanwhile
			}
		}
	}

	private void failed(RelistReason reason, RuntimeException ex) {
		logger.warn("Replacing informer '" + this.context.name() + "'" + this.context.where() + " failed ("
				+ KubernetesErrors.describe(ex) + "); trying again");
		schedule(reason, "the replacement failed");
	}

	/**
	 * Cancel the pending replacement: a relist replaced the fabric8 informer, or the
	 * watch stops. Call under the watch's lock.
	 */
	void cancel() {
		ScheduledFuture<?> pending = this.pending;
		if (pending != null) {
			pending.cancel(false);
			this.pending = null;
		}
	}

	/**
	 * What replacements need of their watch; called under its lock.
	 *
	 * @param <T> the resource type
	 */
	interface Replaceable<T extends HasMetadata> {

		/**
		 * Return whether the watch runs and may be replaced (it is not leaving).
		 * @return whether to replace
		 */
		boolean isReplaceable();

		/**
		 * Return the current fabric8 informer.
		 * @return the generation, {@code null} before the start
		 */
		@Nullable WatchGeneration<T> current();

		/**
		 * Replace the current fabric8 informer by a new one that relists, once a list
		 * permit is free; returns without waiting for it.
		 * @param reason the relist reason
		 * @param failedToStart told if the replacement could not be created once its
		 * permit came
		 * @throws IllegalStateException if the watch no longer runs
		 */
		void relist(RelistReason reason, Consumer<RuntimeException> failedToStart);

	}

}
