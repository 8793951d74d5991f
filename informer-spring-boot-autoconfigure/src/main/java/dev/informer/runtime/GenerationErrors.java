package dev.informer.runtime;

import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.status.WatchInput;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.watch.KubernetesErrors;

/**
 * What goes wrong in one fabric8 informer, as fabric8 reports it: errors of its lists and
 * watch (recorded, then retried or not as the retry policy says), a watch-list the API
 * server refuses (left to the watch, which lists instead), and transforms that throw.
 * Once its informer retired, nothing is recorded any more.
 */
final class GenerationErrors {

	private static final Log logger = LogFactory.getLog(GenerationErrors.class);

	private final WatchContext<?> context;

	private final RetryPolicy retryPolicy;

	private final ListProgress lists;

	private final boolean watchList;

	private final BooleanSupplier active;

	private volatile @Nullable Throwable watchListRefusal;

	/**
	 * Create the error handling of one fabric8 informer.
	 * @param context the watch
	 * @param retryPolicy whether an error is retried
	 * @param lists the informer's lists
	 * @param watchList whether the informer gets its initial state from a watch-list
	 * @param active whether the informer is still its watch's current one
	 */
	GenerationErrors(WatchContext<?> context, RetryPolicy retryPolicy, ListProgress lists, boolean watchList,
			BooleanSupplier active) {
		this.context = context;
		this.retryPolicy = retryPolicy;
		this.lists = lists;
		this.watchList = watchList;
		this.active = active;
	}

	/**
	 * Take an error fabric8 reports.
	 * @param isStarted whether fabric8 had started the informer
	 * @param ex the error
	 * @return whether fabric8 retries
	 */
	boolean retry(boolean isStarted, Throwable ex) {
		try {
			if (!this.active.getAsBoolean()) {
				return false;
			}
			if (this.watchList && isWatchListRefusal(ex)) {
				this.watchListRefusal = ex;
				return false;
			}
			WatchStatus status = this.context.status();
			status.post(WatchInput.Failed.of(ex));
			this.lists.failed(ex);
			// a relist's informer has not started, but the watch had synced before
			boolean retry = this.retryPolicy.shouldRetry(isStarted || status.isSynced(), ex);
			if (retry) {
				logger.warn("Informer '" + this.context.name() + "'" + this.context.where() + ": "
						+ KubernetesErrors.describe(ex) + "; retrying with backoff");
			}
			else {
				logger.error("Informer '" + this.context.name() + "'" + this.context.where() + ": "
						+ KubernetesErrors.describe(ex) + "; not retrying");
			}
			return retry;
		}
		catch (Throwable unexpected) {
			// fabric8 wedges an informer whose exception handler throws: retry instead
			logger.error("Informer '" + this.context.name() + "': handling an error failed; retrying anyway",
					unexpected);
			return true;
		}
	}

	/**
	 * Whether the API server refused a watch-list: it answers a watch with
	 * {@code sendInitialEvents} or {@code resourceVersionMatch} it does not serve as
	 * invalid (HTTP 422, or 400 from older servers). fabric8 does not read the body of a
	 * refused WebSocket upgrade, so the code is all there is; a selector the server
	 * rejects fails the list that follows, and is reported there.
	 */
	static boolean isWatchListRefusal(Throwable ex) {
		int code = KubernetesErrors.httpCode(ex);
		return code == 400 || code == 422;
	}

	/**
	 * Return why the API server refused the informer's watch-list.
	 * @return the error, {@code null} unless refused
	 */
	@Nullable Throwable watchListRefusal() {
		return this.watchListRefusal;
	}

	/**
	 * Take a transform that threw on an object: the object is cached and delivered as it
	 * was before that transform.
	 * @param key the object's key
	 * @param ex the failure
	 */
	void transformFailed(String key, Throwable ex) {
		if (this.active.getAsBoolean()) {
			this.context.status()
				.post(new WatchInput.Noted("TransformFailed", "a transform failed on " + key + " ("
						+ ex.getClass().getName() + "); cached and delivered as it was before that transform"));
			logger.warn("Informer '" + this.context.name() + "'" + this.context.where() + ": a transform failed on "
					+ key + " (" + ex.getClass().getName()
					+ "); the object is cached and delivered as it was before that transform");
			logger.debug("Transform failure on " + key, ex);
		}
	}

}
