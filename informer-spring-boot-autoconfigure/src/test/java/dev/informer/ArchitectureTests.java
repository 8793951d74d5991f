package dev.informer;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The arrows between the packages of the main code, as the package javadocs describe
 * them: autoconfigure → adapters ({@code health}, {@code metrics}, {@code endpoint}) →
 * read model ({@code watch}) → API ({@code dev.informer}); runtime → API, read model and
 * events; {@code runtime.changes} (the on-change filter, pruning, indexes) → API only.
 */
class ArchitectureTests {

	private static final String[] ADAPTERS = { "dev.informer.health..", "dev.informer.metrics..",
			"dev.informer.endpoint.." };

	private static final JavaClasses main = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.informer");

	@Test
	void packagesAreFreeOfCycles() {
		slices().matching("dev.informer.(**)").should().beFreeOfCycles().check(main);
	}

	@Test
	void theApiDependsOnNoSubPackage() {
		noClasses().that()
			.resideInAPackage("dev.informer")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.informer.*..")
			.check(main);
	}

	@Test
	void eventsDependOnlyOnTheApi() {
		classes().that()
			.resideInAPackage("dev.informer.event..")
			.should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage("dev.informer", "dev.informer.event..", "java..", "io.fabric8.kubernetes.api.model..",
					"org.jspecify..", "org.springframework.core..", "org.springframework.context..",
					"org.springframework.util..")
			.check(main);
	}

	@Test
	void observationsDependOnlyOnEventsTheReadModelAndMicrometer() {
		classes().that()
			.resideInAPackage("dev.informer.observation..")
			.should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage("dev.informer", "dev.informer.event..", "dev.informer.watch..",
					"dev.informer.observation..", "java..", "io.fabric8.kubernetes.api.model..", "org.jspecify..",
					"io.micrometer.observation..", "io.micrometer.common..")
			.check(main);
	}

	@Test
	void theReadModelDependsOnlyOnTheApi() {
		classes().that()
			.resideInAPackage("dev.informer.watch..")
			.should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage("dev.informer", "dev.informer.watch..", "java..", "io.fabric8.kubernetes.api.model..",
					"io.fabric8.kubernetes.client", "org.jspecify..", "tools.jackson..", "org.springframework.util..")
			.check(main);
	}

	@Test
	void changesDependOnlyOnTheApiAndTheModel() {
		classes().that()
			.resideInAPackage("dev.informer.runtime.changes..")
			.should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage("dev.informer", "dev.informer.runtime.changes..", "java..",
					"io.fabric8.kubernetes.api.model..", "com.fasterxml.jackson.annotation..", "org.jspecify..",
					"org.springframework.util..")
			.check(main);
	}

	@Test
	void nothingButAutoConfigurationDependsOnAutoConfiguration() {
		noClasses().that()
			.resideOutsideOfPackage("dev.informer.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.informer.autoconfigure..")
			.check(main);
	}

	@Test
	void adaptersNeverDependOnTheRuntime() {
		noClasses().that()
			.resideInAnyPackage(ADAPTERS)
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.informer.runtime..")
			.check(main);
	}

	@Test
	void adaptersAreIndependentOfEachOther() {
		slices().matching("dev.informer.(health|metrics|endpoint)..").should().notDependOnEachOther().check(main);
	}

	@Test
	void theRuntimeDependsOnNoAdapter() {
		noClasses().that()
			.resideInAPackage("dev.informer.runtime..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(ADAPTERS)
			.check(main);
	}

}
