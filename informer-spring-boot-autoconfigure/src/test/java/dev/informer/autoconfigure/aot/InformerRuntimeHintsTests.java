package dev.informer.autoconfigure.aot;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.api.model.NamespaceList;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.informer.autoconfigure.InformerProperties;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hints every application with the starter gets, checked with Spring's
 * {@link RuntimeHintsPredicates}: what a native image would otherwise miss at the first
 * informer.
 */
class InformerRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	InformerRuntimeHintsTests() {
		new InformerRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void isRegisteredForSpringsAotProcessing() {
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).anyMatch(InformerRuntimeHints.class::isInstance);
	}

	@Test
	void eventsExposeTheirAccessorsToSpelConditions() {
		assertThat(RuntimeHintsPredicates.reflection().onType(ResourceUpdatedEvent.class)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ResourceEvent.class, "getResource"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ResourceUpdatedEvent.class, "getOldResource"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(InformerSyncedEvent.class, "getCacheSize"))
			.accepts(this.hints);
	}

	@Test
	void theClientImplementationIsConstructedByReflection() throws Exception {
		// KubernetesClientBuilder names the class and asks for its constructor
		assertThat(new String(
				KubernetesClientBuilder.class.getResourceAsStream("KubernetesClientBuilder.class").readAllBytes(),
				java.nio.charset.StandardCharsets.ISO_8859_1))
			.contains(InformerRuntimeHints.CLIENT_IMPLEMENTATION);
		Class<?> implementation = Class.forName(InformerRuntimeHints.CLIENT_IMPLEMENTATION);
		for (var constructor : implementation.getConstructors()) {
			assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(constructor)).accepts(this.hints);
		}
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(TypeReference.of(InformerRuntimeHints.CLIENT_IMPLEMENTATION))).accepts(this.hints);
	}

	@Test
	void whatTheClientReadsBesidesTheDeclaredKindsIsBound() {
		// the kubeconfig
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Config.class, "setContexts"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(NamedContext.class, "setContext"))
			.accepts(this.hints);
		// discovery, watch events, errors
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(APIResourceList.class, "setResources"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(WatchEvent.class, "setObject"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Status.class, "setReason"))
			.accepts(this.hints);
		// Leases of the replica modes, Namespaces of a namespace selector
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LeaseSpec.class, "setHolderIdentity"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(Lease.class, "spec")).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(NamespaceList.class)).accepts(this.hints);
	}

	@Test
	void theModelClassListIsAResource() {
		assertThat(RuntimeHintsPredicates.resource().forResource(InformerRuntimeHints.MODEL_CLASS_LIST))
			.accepts(this.hints);
	}

	@Test
	void thePropertiesAreBound() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(InformerProperties.class, "getResources"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(InformerProperties.Resource.class, "setLabelSelector")).accepts(this.hints);
		assertThat(
				RuntimeHintsPredicates.reflection().onMethodInvocation(InformerProperties.Startup.class, "setTimeout"))
			.accepts(this.hints);
	}

	@Test
	void aModelClassIsNotHintedUnlessDeclaredOrRead() {
		assertThat(RuntimeHintsPredicates.reflection().onType(io.fabric8.kubernetes.api.model.Pod.class))
			.rejects(this.hints);
	}

}
