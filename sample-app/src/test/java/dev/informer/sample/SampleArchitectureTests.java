package dev.informer.sample;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * What the sample shows users is what they may use: the API ({@code dev.informer}), the
 * events and the read model of watch state, never the runtime, the adapters or the
 * auto-configuration. The code Spring's AOT processing generates ({@code @Generated}, in
 * the build's {@code process-aot}) registers the auto-configuration's beans and is not
 * the sample's own.
 */
class SampleArchitectureTests {

	private static final JavaClasses sample = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.informer.sample");

	@Test
	void theSampleUsesOnlyTheApiTheEventsAndTheReadModel() {
		noClasses().that()
			.resideInAPackage("dev.informer.sample..")
			.and()
			.areNotAnnotatedWith("org.springframework.aot.generate.Generated")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.informer.runtime..", "dev.informer.autoconfigure..", "dev.informer.health..",
					"dev.informer.metrics..", "dev.informer.endpoint..")
			.check(sample);
	}

}
