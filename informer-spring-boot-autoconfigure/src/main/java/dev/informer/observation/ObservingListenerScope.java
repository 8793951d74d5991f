package dev.informer.observation;

import java.util.function.Predicate;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.informer.event.ListenerScope;
import dev.informer.event.ResourceEvent;

/**
 * Records an {@value DefaultInformerEventObservationConvention#NAME} observation around
 * the delivery of each resource event, in scope while the listeners run (so a tracer
 * makes their spans its children), with each listener failure recorded as its error.
 *
 * @since 0.1.0
 */
public class ObservingListenerScope implements ListenerScope {

	private static final InformerEventObservationConvention DEFAULT = new DefaultInformerEventObservationConvention();

	private final ObservationRegistry registry;

	private final @Nullable InformerEventObservationConvention convention;

	private final Predicate<String> namespaceBounded;

	/**
	 * Create a scope.
	 * @param registry the registry
	 * @param convention the convention replacing the default one, or {@code null}
	 * @param namespaceBounded whether an informer, by name, watches a fixed list of
	 * namespaces
	 */
	public ObservingListenerScope(ObservationRegistry registry, @Nullable InformerEventObservationConvention convention,
			Predicate<String> namespaceBounded) {
		this.registry = registry;
		this.convention = convention;
		this.namespaceBounded = namespaceBounded;
	}

	@Override
	public Scope open(ResourceEvent<?> event) {
		InformerEventContext context = new InformerEventContext(event,
				this.namespaceBounded.test(event.getInformerName()));
		Observation observation = Observation.createNotStarted(this.convention, DEFAULT, () -> context, this.registry)
			.start();
		Observation.Scope scope = observation.openScope();
		return new Scope() {

			@Override
			public void listenerFailed(Throwable failure) {
				observation.error(failure);
			}

			@Override
			public void close() {
				scope.close();
				observation.stop();
			}

		};
	}

}
