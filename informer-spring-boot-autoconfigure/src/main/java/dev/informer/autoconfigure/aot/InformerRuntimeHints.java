package dev.informer.autoconfigure.aot;

import java.util.List;

import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceList;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

import dev.informer.autoconfigure.InformerProperties;
import dev.informer.event.DeliveryRoleChangedEvent;
import dev.informer.event.InformerNamespaceChangedEvent;
import dev.informer.event.InformerStateChangedEvent;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.event.ResourcesReplayedEvent;

/**
 * The runtime hints of what every application with the starter uses, whatever it
 * declares: the events (their generic type, resolved through
 * {@link org.springframework.core.ResolvableTypeProvider}, and the accessors a SpEL
 * {@code condition} reads), the {@code informer.*} properties, and the fabric8 classes
 * the client and the starter reach by reflection or read from JSON besides the declared
 * kinds (the kubeconfig, discovery, watch events, errors, the Leases of the replica
 * modes, the Namespaces a namespace selector watches). The declared kinds' model classes
 * come from {@link DeclaredKindsAotProcessor}.
 */
public final class InformerRuntimeHints implements RuntimeHintsRegistrar {

	/** The events listeners receive. */
	static final List<Class<?>> EVENTS = List.of(ResourceEvent.class, ResourceAddedEvent.class,
			ResourceUpdatedEvent.class, ResourceDeletedEvent.class, ResourcesReplayedEvent.class,
			InformerSyncedEvent.class, InformerStateChangedEvent.class, InformerNamespaceChangedEvent.class,
			DeliveryRoleChangedEvent.class);

	/**
	 * fabric8's model classes read from JSON whatever the declarations: the kubeconfig,
	 * discovery, watch events, errors, Leases, Namespaces.
	 */
	static final List<Class<?>> FABRIC8_MODEL = List.of(Config.class, APIGroupList.class, APIResourceList.class,
			WatchEvent.class, Status.class, Lease.class, Namespace.class, NamespaceList.class);

	/**
	 * The class {@code KubernetesClientBuilder} instantiates by reflection, by name.
	 */
	static final String CLIENT_IMPLEMENTATION = "io.fabric8.kubernetes.client.impl.KubernetesClientImpl";

	/**
	 * The list of model classes the starter reads to find a kind's class.
	 */
	static final String MODEL_CLASS_LIST = "META-INF/services/" + KubernetesResource.class.getName();

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (Class<?> event : EVENTS) {
			hints.reflection().registerType(event, MemberCategory.INVOKE_PUBLIC_METHODS);
		}
		ModelHints.register(hints, FABRIC8_MODEL);
		hints.reflection()
			.registerType(TypeReference.of(CLIENT_IMPLEMENTATION), MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
		hints.resources().registerPattern(MODEL_CLASS_LIST);
		BindableRuntimeHintsRegistrar.forTypes(InformerProperties.class).registerHints(hints, classLoader);
	}

}
