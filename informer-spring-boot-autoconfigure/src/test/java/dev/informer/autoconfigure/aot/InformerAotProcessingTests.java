package dev.informer.autoconfigure.aot;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

import dev.informer.autoconfigure.InformerAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Spring's AOT processing ({@code process-aot}) makes of an application that
 * declares informers: the bean definitions are generated as code, and the runtime hints
 * name the declared kinds' model classes, as a native image needs them. The generated
 * code running is proven by the sample application's {@code SpringAotIT}.
 */
class InformerAotProcessingTests {

	@Test
	void anApplicationWithDeclaredInformersIsProcessedAheadOfTime() {
		RuntimeHints hints = processAheadOfTime("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap");
		assertThat(hints).isNotNull();
	}

	@Test
	void theDeclaredKindsModelClassesAreHintedForBinding() {
		RuntimeHints hints = processAheadOfTime("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.pods.api-version=v1",
				"informer.resources.pods.kind=Pod");
		assertThat(RuntimeHintsPredicates.reflection().onType(ConfigMap.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ConfigMap.class, "getData")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ConfigMap.class, "setData")).accepts(hints);
		// the list a first list is read into, and what the objects hold
		assertThat(RuntimeHintsPredicates.reflection().onType(ConfigMapList.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ObjectMeta.class, "setName")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(PodSpec.class, "setContainers"))
			.accepts(hints);
		// on-change, prune and indexes read the declared fields of the model
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(Pod.class, "spec")).accepts(hints);
	}

	@Test
	void aKindWithoutAModelClassIsHintedAsAGenericResource() {
		RuntimeHints hints = processAheadOfTime("informer.resources.widgets.api-version=example.com/v1",
				"informer.resources.widgets.kind=Widget");
		assertThat(RuntimeHintsPredicates.reflection().onType(GenericKubernetesResource.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(GenericKubernetesResourceList.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Pod.class)).rejects(hints);
	}

	@Test
	void aMetadataOnlyInformerIsHintedForItsPartialObjectMetadata() {
		RuntimeHints hints = processAheadOfTime("informer.resources.pods.api-version=v1",
				"informer.resources.pods.kind=Pod", "informer.resources.pods.cache=metadata");
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(PartialObjectMetadata.class, "setMetadata"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(PodSpec.class)).rejects(hints);
	}

	private static RuntimeHints processAheadOfTime(String... properties) {
		GenericApplicationContext context = new AnnotationConfigApplicationContext();
		TestPropertyValues.of(properties).applyTo(context);
		((AnnotationConfigApplicationContext) context).register(InformerAutoConfiguration.class);
		DefaultGenerationContext generationContext = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get("com.example", "AotApplication")), new InMemoryGeneratedFiles());
		new ApplicationContextAotGenerator().processAheadOfTime(context, generationContext);
		generationContext.writeGeneratedContent();
		return generationContext.getRuntimeHints();
	}

}
