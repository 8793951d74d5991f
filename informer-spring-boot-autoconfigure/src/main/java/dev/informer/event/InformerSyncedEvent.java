package dev.informer.event;

import java.time.Duration;

import org.springframework.context.ApplicationEvent;

/**
 * Published once per informer, after the initial list of every namespace it watches has
 * been delivered to listeners as {@link ResourceAddedEvent}s.
 *
 * @since 0.1.0
 */
public class InformerSyncedEvent extends ApplicationEvent {

	private final String informerName;

	private final int cacheSize;

	private final Duration timeToSync;

	/**
	 * Create a new event.
	 * @param informerName the name of the informer
	 * @param cacheSize the number of cached resources at sync
	 * @param timeToSync the time from start to sync
	 */
	public InformerSyncedEvent(String informerName, int cacheSize, Duration timeToSync) {
		super(informerName);
		this.informerName = informerName;
		this.cacheSize = cacheSize;
		this.timeToSync = timeToSync;
	}

	/**
	 * Return the name of the informer.
	 * @return the informer name
	 */
	public String getInformerName() {
		return this.informerName;
	}

	/**
	 * Return the number of resources cached when the informer synced.
	 * @return the cache size
	 */
	public int getCacheSize() {
		return this.cacheSize;
	}

	/**
	 * Return the time from the informer's start until it synced.
	 * @return the time to sync
	 */
	public Duration getTimeToSync() {
		return this.timeToSync;
	}

	@Override
	public String toString() {
		return "InformerSyncedEvent[informer=" + this.informerName + ", cacheSize=" + this.cacheSize + ", timeToSync="
				+ this.timeToSync + "]";
	}

}
