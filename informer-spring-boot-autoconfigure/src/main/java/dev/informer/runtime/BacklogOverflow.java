package dev.informer.runtime;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.watch.WatchHealthPolicy;

/**
 * What the {@link ListenerQueue} of one watch learns about its backlog: the changes
 * fabric8 still holds, the changes folded ({@code informer.delivery.overflow=coalesce}),
 * and the overflow of a bound that fails ({@code overflow=fail}), which stops the watch
 * and reports it {@code DOWN} with reason {@value WatchHealthPolicy#BACKLOG_OVERFLOW}.
 */
final class BacklogOverflow implements ListenerQueue.Backlog {

	private static final Log logger = LogFactory.getLog(ResourceInformer.class);

	private final NamespaceInformer<?> watch;

	BacklogOverflow(NamespaceInformer<?> watch) {
		this.watch = watch;
	}

	@Override
	public long upstream() {
		return this.watch.fabric8Backlog();
	}

	@Override
	public void coalesced(int changes) {
		this.watch.getStatus().coalesced(changes);
	}

	@Override
	public void overflowed(long backlog) {
		long max = this.watch.owner().getBacklog().maxBacklog();
		String message = backlog + " changes wait for listeners, informer.delivery.max-backlog is " + max
				+ " and informer.delivery.overflow is 'fail': the watch stopped. Make the listeners faster, "
				+ "raise informer.delivery.max-backlog, or set informer.delivery.overflow=coalesce";
		logger.error("Informer '" + this.watch.definition().getName() + "'" + this.watch.where() + ": " + message);
		// told on fabric8's thread, inside its hand-off: stopping waits for locks taken
		// in the other order
		Runnable fail = () -> this.watch.fail(WatchHealthPolicy.BACKLOG_OVERFLOW, message);
		ScheduledExecutorService scheduler = this.watch.owner().getScheduler();
		try {
			if (scheduler != null) {
				scheduler.execute(fail);
			}
		}
		catch (RejectedExecutionException ex) {
			// the informer is stopping
		}
	}

}
