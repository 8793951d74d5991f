package dev.informer.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The {@link ObservationConvention} of informer event deliveries. Declare a bean of this
 * type to replace {@link DefaultInformerEventObservationConvention}, or extend that.
 *
 * @since 0.1.0
 */
public interface InformerEventObservationConvention extends ObservationConvention<InformerEventContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof InformerEventContext;
	}

}
