package dev.informer.observation;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

import dev.informer.event.ResourceEvent;

/**
 * The default {@link InformerEventObservationConvention}: named {@value #NAME}, with the
 * low-cardinality keys {@code informer}, {@code kind}, {@code type} and, when the
 * informer watches a fixed list of namespaces, {@value #NAMESPACE} (the same tag name as
 * the starter's metrics); high-cardinality {@code name}, {@code resource.version}, and
 * the namespace when the namespaces are not bounded.
 *
 * @since 0.1.0
 */
public class DefaultInformerEventObservationConvention implements InformerEventObservationConvention {

	/** The name of the observation. */
	public static final String NAME = "informer.event";

	/** The key of the namespace. */
	public static final String NAMESPACE = "k8s.namespace.name";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(InformerEventContext context) {
		return "informer " + context.getEvent().getInformerName() + " " + context.getType();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(InformerEventContext context) {
		ResourceEvent<?> event = context.getEvent();
		KeyValues values = KeyValues.of(KeyValue.of("informer", event.getInformerName()),
				KeyValue.of("kind", event.getKind()), KeyValue.of("type", context.getType()));
		return context.isNamespaceBounded() ? values.and(namespace(event)) : values;
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(InformerEventContext context) {
		ResourceEvent<?> event = context.getEvent();
		KeyValues values = KeyValues.of(KeyValue.of("name", String.valueOf(event.getName())),
				KeyValue.of("resource.version", String.valueOf(event.getResourceVersion())));
		return context.isNamespaceBounded() ? values : values.and(namespace(event));
	}

	private static KeyValue namespace(ResourceEvent<?> event) {
		String namespace = event.getNamespace();
		return KeyValue.of(NAMESPACE, (namespace != null) ? namespace : "*");
	}

}
