package dev.informer.event;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;

import dev.informer.InformerState;

/**
 * Published when one watch of an informer (one of its namespaces, or all of it) changes
 * state, for example from {@link InformerState#WATCHING} to
 * {@link InformerState#RECONNECTING} when its watch is lost. Published on the thread that
 * noticed the change: fabric8's, or the watch monitor's on its sampling period.
 *
 * @since 0.1.0
 */
public class InformerStateChangedEvent extends ApplicationEvent {

	private final String informerName;

	private final @Nullable String namespace;

	private final InformerState previousState;

	private final InformerState state;

	private final String cause;

	/**
	 * Create a new event.
	 * @param informerName the name of the informer
	 * @param namespace the namespace of the watch, {@code null} for all namespaces or a
	 * cluster-scoped kind
	 * @param previousState the state before
	 * @param state the state now
	 * @param cause what caused the change, for example {@code watch closed}
	 */
	public InformerStateChangedEvent(String informerName, @Nullable String namespace, InformerState previousState,
			InformerState state, String cause) {
		super(informerName);
		this.informerName = informerName;
		this.namespace = namespace;
		this.previousState = previousState;
		this.state = state;
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
	 * Return the namespace of the watch that changed state.
	 * @return the namespace, {@code null} for all namespaces or a cluster-scoped kind
	 */
	public @Nullable String getNamespace() {
		return this.namespace;
	}

	/**
	 * Return the state before the change.
	 * @return the previous state
	 */
	public InformerState getPreviousState() {
		return this.previousState;
	}

	/**
	 * Return the state after the change.
	 * @return the state
	 */
	public InformerState getState() {
		return this.state;
	}

	/**
	 * Return what caused the change, for example {@code watch closed} or
	 * {@code HTTP 403 Forbidden}.
	 * @return the cause
	 */
	public String getCause() {
		return this.cause;
	}

	@Override
	public String toString() {
		return "InformerStateChangedEvent[informer=" + this.informerName
				+ ((this.namespace != null) ? ", namespace=" + this.namespace : "") + ", " + this.previousState + " -> "
				+ this.state + ", cause=" + this.cause + "]";
	}

}
