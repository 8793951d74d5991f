package dev.informer.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.informer.watch.ListObserver;

/**
 * Records an {@value #NAME} observation around each list of a watch, the initial one and
 * every relist: low-cardinality {@code informer}, {@code list.type} ({@code initial} or
 * {@code relist}) and {@code k8s.namespace.name} (a watch's namespace: as many as the
 * informer watches separately, {@code *} for one watch of all); a failed attempt is
 * recorded as the observation's error.
 *
 * @since 0.1.0
 */
public class ObservingListObserver implements ListObserver {

	/** The name of the observation. */
	public static final String NAME = "informer.list";

	private final ObservationRegistry registry;

	/**
	 * Create an observer.
	 * @param registry the registry
	 */
	public ObservingListObserver(ObservationRegistry registry) {
		this.registry = registry;
	}

	@Override
	public Listing listStarted(String informer, @Nullable String namespace, boolean relist) {
		String type = relist ? "relist" : "initial";
		Observation observation = Observation.createNotStarted(NAME, this.registry)
			.contextualName("informer " + informer + " " + type)
			.lowCardinalityKeyValues(KeyValues.of("informer", informer, "list.type", type,
					DefaultInformerEventObservationConvention.NAMESPACE, (namespace != null) ? namespace : "*"))
			.start();
		return new Listing() {

			@Override
			public void failed(Throwable failure) {
				observation.error(failure);
			}

			@Override
			public void ended() {
				observation.stop();
			}

		};
	}

}
