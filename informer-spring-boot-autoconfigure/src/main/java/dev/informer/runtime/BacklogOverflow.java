package dev.informer.runtime;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.watch.WatchHealthPolicy;

/**
 * What the {@link ListenerQueue} of one watch learns about its backlog: the changes
 * fabric8 still holds, the changes folded ({@code informer.listeners.overflow=coalesce}),
 * and the overflow of a bound that fails ({@code overflow=fail}), which stops the watch
 * and reports it {@code DOWN} with reason {@value WatchHealthPolicy#BACKLOG_OVERFLOW};
 * and the turns the listener executor rejected, counted and retried on the informer's
 * recovery thread.
 */
final class BacklogOverflow implements ListenerQueue.Backlog {

	private static final Log logger = LogFactory.getLog(BacklogOverflow.class);

	private final WatchContext<?> context;

	private final LongSupplier upstream;

	private final WatchSettings settings;

	private final BiConsumer<String, String> fail;

	/**
	 * Create the backlog view of one start of a watch.
	 * @param context the watch
	 * @param upstream the changes fabric8 still holds
	 * @param settings the bound, and the thread that stops the watch
	 * @param fail stops the watch, with a reason and a message
	 */
	BacklogOverflow(WatchContext<?> context, LongSupplier upstream, WatchSettings settings,
			BiConsumer<String, String> fail) {
		this.context = context;
		this.upstream = upstream;
		this.settings = settings;
		this.fail = fail;
	}

	@Override
	public long upstream() {
		return this.upstream.getAsLong();
	}

	@Override
	public void coalesced(int changes) {
		this.context.status().observed().coalesced(changes);
	}

	@Override
	public void rejected() {
		this.context.status().observed().rejected();
	}

	@Override
	public void retryLater(Runnable retry, Duration delay) {
		this.settings.scheduler().schedule(retry, delay.toMillis(), TimeUnit.MILLISECONDS);
	}

	@Override
	public void overflowed(long backlog) {
		long max = this.settings.backlog().maxBacklog();
		String message = backlog + " changes wait for listeners, informer.listeners.max-backlog is " + max
				+ " and informer.listeners.overflow is 'fail': the watch stopped. Make the listeners faster, "
				+ "raise informer.listeners.max-backlog, or set informer.listeners.overflow=coalesce";
		logger.error("Informer '" + this.context.name() + "'" + this.context.where() + ": " + message);
		// told on fabric8's thread, inside its hand-off: stopping waits for locks taken
		// in the other order
		try {
			this.settings.scheduler().execute(() -> this.fail.accept(WatchHealthPolicy.BACKLOG_OVERFLOW, message));
		}
		catch (RejectedExecutionException ex) {
			// the informer is stopping
		}
	}

}
