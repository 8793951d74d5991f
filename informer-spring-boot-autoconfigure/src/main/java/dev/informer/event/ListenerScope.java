package dev.informer.event;

/**
 * Wraps the delivery of one {@link ResourceEvent} to every listener: opened before the
 * first listener, told of each listener that throws, closed after the last, on the thread
 * the listeners run on. The starter uses it for an observation per event and for MDC
 * keys; scopes are composed in order, the first opened outermost.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ListenerScope {

	/**
	 * A scope that does nothing.
	 */
	ListenerScope NONE = (event) -> Scope.NONE;

	/**
	 * Open the scope of one event.
	 * @param event the event about to be delivered
	 * @return the open scope, closed once every listener had the event
	 */
	Scope open(ResourceEvent<?> event);

	/**
	 * Return a scope that opens this one, then {@code inner} inside it.
	 * @param inner the inner scope
	 * @return the composed scope
	 */
	default ListenerScope andThen(ListenerScope inner) {
		return (event) -> {
			Scope outer = open(event);
			Scope nested;
			try {
				nested = inner.open(event);
			}
			catch (RuntimeException ex) {
				outer.close();
				throw ex;
			}
			return new Scope() {

				@Override
				public void listenerFailed(Throwable failure) {
					nested.listenerFailed(failure);
					outer.listenerFailed(failure);
				}

				@Override
				public void close() {
					try {
						nested.close();
					}
					finally {
						outer.close();
					}
				}

			};
		};
	}

	/**
	 * The open scope of one event.
	 */
	interface Scope extends AutoCloseable {

		/**
		 * A scope that does nothing.
		 */
		Scope NONE = () -> {
		};

		/**
		 * Hear that a listener threw; the other listeners still get the event.
		 * @param failure what it threw
		 */
		default void listenerFailed(Throwable failure) {
		}

		/**
		 * Close the scope, once every listener had the event.
		 */
		@Override
		void close();

	}

}
