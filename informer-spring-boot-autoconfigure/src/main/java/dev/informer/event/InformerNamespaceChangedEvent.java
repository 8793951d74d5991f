package dev.informer.event;

import org.springframework.context.ApplicationEvent;

/**
 * Published when a namespace joins or leaves an informer declared with a
 * {@code namespace-selector}: it started matching the selector (created, or labelled) and
 * its watch starts, or it stopped matching (unlabelled) or was deleted and its watch
 * stopped.
 * <p>
 * A joining namespace's event comes before the {@link ResourceAddedEvent}s of its
 * objects; a leaving namespace's event comes after the {@link ResourceDeletedEvent}s
 * (flagged {@link ResourceDeletedEvent#isLeftSelection() left the selection}) of its
 * objects, once its watch has stopped.
 *
 * @since 0.1.0
 */
public class InformerNamespaceChangedEvent extends ApplicationEvent {

	private final String informerName;

	private final String namespace;

	private final Change change;

	private final String cause;

	/**
	 * Create a new event.
	 * @param informerName the name of the informer
	 * @param namespace the namespace that joined or left
	 * @param change whether it joined or left
	 * @param cause why, for example {@code namespace deleted}
	 */
	public InformerNamespaceChangedEvent(String informerName, String namespace, Change change, String cause) {
		super(informerName);
		this.informerName = informerName;
		this.namespace = namespace;
		this.change = change;
		this.cause = cause;
	}

	/**
	 * Return the name of the informer.
	 * @return the informer name
	 */
	public String getInformerName() {
		return this.informerName;
	}

	/**
	 * Return the namespace that joined or left.
	 * @return the namespace
	 */
	public String getNamespace() {
		return this.namespace;
	}

	/**
	 * Return whether the namespace joined or left.
	 * @return the change
	 */
	public Change getChange() {
		return this.change;
	}

	/**
	 * Return whether the namespace joined (its watch starts).
	 * @return whether joined
	 */
	public boolean isJoined() {
		return this.change == Change.JOINED;
	}

	/**
	 * Return why the namespace joined or left, for example
	 * {@code labels match the selector}, {@code labels no longer match the selector} or
	 * {@code namespace deleted}.
	 * @return the cause
	 */
	public String getCause() {
		return this.cause;
	}

	@Override
	public String toString() {
		return "InformerNamespaceChangedEvent[informer=" + this.informerName + ", namespace=" + this.namespace
				+ ", change=" + this.change + ", cause=" + this.cause + "]";
	}

	/**
	 * How the selection of an informer's namespaces changed.
	 *
	 * @since 0.1.0
	 */
	public enum Change {

		/**
		 * The namespace matches the selector now: its watch starts.
		 */
		JOINED,

		/**
		 * The namespace no longer matches the selector, or was deleted: its watch stopped
		 * and its objects left the cache.
		 */
		LEFT

	}

}
