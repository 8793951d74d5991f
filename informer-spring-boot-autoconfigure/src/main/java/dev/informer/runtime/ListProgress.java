package dev.informer.runtime;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.status.ListTrigger;
import dev.informer.watch.ListObserver;
import dev.informer.watch.RelistReason;

/**
 * The lists of one fabric8 informer, as fabric8's thread reports them: whether one is in
 * progress (retries of a failed list included), when the last completed, why the next
 * starts, and the observation of the one in progress.
 */
final class ListProgress {

	private static final Log logger = LogFactory.getLog(ListProgress.class);

	private final WatchContext<?> context;

	private final ListObserver observer;

	private final ListTrigger trigger;

	private final AtomicReference<ListObserver.@Nullable Listing> observation = new AtomicReference<>();

	private volatile boolean listing;

	private volatile @Nullable Instant listedAt;

	/**
	 * Create the lists of a fabric8 informer.
	 * @param context the watch
	 * @param observer told of each list
	 * @param trigger why it lists first
	 */
	ListProgress(WatchContext<?> context, ListObserver observer, RelistReason trigger) {
		this.context = context;
		this.observer = observer;
		this.trigger = new ListTrigger(trigger);
	}

	/**
	 * A list started.
	 * @return why, for the status
	 */
	RelistReason started() {
		this.listing = true;
		end(this.observation.getAndSet(this.observer.listStarted(this.context.name(), this.context.namespace(),
				this.context.status().isSynced())));
		return this.trigger.next();
	}

	/**
	 * A list completed; the watch opens next.
	 */
	void completed() {
		this.listing = false;
		end(this.observation.getAndSet(null));
		this.trigger.listed();
		this.listedAt = this.context.clock().instant();
	}

	/**
	 * An error occurred, during a list or the watch after it.
	 * @param ex the error
	 */
	void failed(Throwable ex) {
		this.trigger.failed(ex);
		ListObserver.Listing listing = this.observation.get();
		if (listing != null) {
			listing.failed(ex);
		}
	}

	/**
	 * The fabric8 informer stopped: a list in progress ends unfinished.
	 */
	void stopped() {
		end(this.observation.getAndSet(null));
	}

	boolean isListing() {
		return this.listing;
	}

	/**
	 * Return when the last list completed.
	 * @return the time, {@code null} before the first
	 */
	@Nullable Instant listedAt() {
		return this.listedAt;
	}

	private static void end(ListObserver.@Nullable Listing listing) {
		if (listing != null) {
			try {
				listing.ended();
			}
			catch (RuntimeException ex) {
				logger.warn("A list observer failed", ex);
			}
		}
	}

}
