package dev.informer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.Source;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The arrows between the packages of the main code, as the package javadocs and
 * CONTRIBUTING.md describe them: autoconfigure → adapters ({@code health},
 * {@code metrics}, {@code endpoint}) → read model ({@code watch}) → API
 * ({@code dev.informer}); the runtime's core → its rooms ({@code status},
 * {@code recovery}, {@code kinds}, {@code namespaces}, {@code replicas},
 * {@code listeners}, {@code changes}) → API, read model and events. No room points back
 * into the core, and each may use only the rooms its rule names.
 */
class ArchitectureTests {

	private static final String[] ADAPTERS = { "dev.informer.health..", "dev.informer.metrics..",
			"dev.informer.endpoint.." };

	private static final String READ_MODEL = "dev.informer.watch..";

	private static final String STATUS = "dev.informer.runtime.status.";

	private static final Path SOURCES = Path.of("src/main/java");

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

	/**
	 * javac drops an import that only javadoc uses, so the class files ArchUnit reads
	 * cannot show a javadoc link from the API to a sub-package: the rule above passes
	 * with one. The sources show it.
	 */
	@Test
	void theApiNamesNoSubPackageInItsSource() {
		classes().that()
			.resideInAPackage("dev.informer")
			.and()
			.areTopLevelClasses()
			.should(importOrLinkNoClassOf("dev.informer.*"))
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
	void noRoomOfTheRuntimeDependsOnItsCore() {
		noRoomDependsOnTheCore().check(main);
	}

	@ParameterizedTest
	@MethodSource("rooms")
	void eachRoomOfTheRuntimeDependsOnlyOnWhatItsRuleAllows(String room, ArchRule rule) {
		rule.check(main);
	}

	/**
	 * Each room's test sources hold a {@code BadArrowFixture} with one arrow its rule
	 * forbids: the rule must find it, so that a rule that cannot fail is caught.
	 */
	@ParameterizedTest
	@MethodSource("rooms")
	void eachRoomsRuleFailsOnABadArrow(String room, ArchRule rule) throws ClassNotFoundException {
		JavaClasses fixture = new ClassFileImporter()
			.importClasses(Class.forName("dev.informer.runtime." + room + ".BadArrowFixture"));
		assertThat(rule.evaluate(fixture).hasViolation()).as(room).isTrue();
	}

	@Test
	void theCoreRuleFailsOnABadArrow() throws ClassNotFoundException {
		JavaClasses fixture = new ClassFileImporter()
			.importClasses(Class.forName("dev.informer.runtime.status.BadArrowFixture"));
		assertThat(noRoomDependsOnTheCore().evaluate(fixture).hasViolation()).isTrue();
	}

	private static ArchRule noRoomDependsOnTheCore() {
		return noClasses().that()
			.resideInAPackage("dev.informer.runtime.*..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.informer.runtime");
	}

	/**
	 * The rooms of the runtime and what each may use besides the API, the JDK, the model
	 * classes and JSpecify.
	 */
	static Stream<Arguments> rooms() {
		return Stream.of(room("status", READ_MODEL),
				room("recovery", READ_MODEL, "org.springframework.util.backoff..", "org.apache.commons.logging.."),
				room("kinds", READ_MODEL, "dev.informer.runtime.changes..", "io.fabric8.kubernetes..",
						"tools.jackson..", "com.fasterxml.jackson.annotation..", "org.apache.commons.logging..",
						"org.springframework.util.."),
				room("namespaces", READ_MODEL, "dev.informer.runtime.status..", "dev.informer.runtime.recovery..",
						"io.fabric8.kubernetes..", "org.apache.commons.logging.."),
				room("replicas", READ_MODEL, "dev.informer.event..", "dev.informer.runtime.listeners..",
						"io.fabric8.kubernetes..", "org.apache.commons.logging..", "org.springframework.context.."),
				room("listeners", READ_MODEL, "dev.informer.event..", "io.fabric8.kubernetes.api.model..",
						"org.apache.commons.logging..", "org.slf4j..", "org.springframework.aop..",
						"org.springframework.beans..", "org.springframework.context..", "org.springframework.core..",
						"org.springframework.expression..", "org.springframework.util.."),
				room("changes", "com.fasterxml.jackson.annotation..", "org.springframework.util.."));
	}

	private static Arguments room(String name, String... others) {
		List<String> allowed = new ArrayList<>(List.of("dev.informer", "dev.informer.runtime." + name + "..", "java..",
				"io.fabric8.kubernetes.api.model..", "org.jspecify.."));
		allowed.addAll(List.of(others));
		return Arguments.of(name,
				classes().that()
					.resideInAPackage("dev.informer.runtime." + name + "..")
					.should()
					.onlyDependOnClassesThat()
					.resideInAnyPackage(allowed.toArray(String[]::new)));
	}

	/**
	 * One writer per watch: its state changes only in {@code WatchTransitions.step},
	 * which only {@code WatchStatus.post} runs; nothing else builds or changes a
	 * {@code WatchState}.
	 */
	@Test
	void aWatchsStateChangesOnlyInItsTransitionsRunByItsStatus() {
		oneWriterOfAWatchsState().check(main);
	}

	@Test
	void theOneWriterRuleFailsOnASecondWriter() throws ClassNotFoundException {
		JavaClasses fixture = new ClassFileImporter()
			.importClasses(Class.forName("dev.informer.runtime.status.SecondWriterFixture"));
		assertThat(oneWriterOfAWatchsState().evaluate(fixture).getFailureReport().getDetails()).hasSize(2);
	}

	private static ArchRule oneWriterOfAWatchsState() {
		String state = STATUS + "WatchState";
		String transitions = STATUS + "WatchTransitions";
		ArchRule changes = noClasses().that()
			.doNotHaveFullyQualifiedName(transitions)
			.and()
			.doNotHaveFullyQualifiedName(state)
			.should()
			.callMethodWhere(DescribedPredicate.describe("a change of a WatchState",
					(JavaMethodCall call) -> call.getTargetOwner().getName().equals(state)
							&& call.getName().startsWith("with")))
			.orShould()
			.callConstructorWhere(DescribedPredicate.describe("a new WatchState",
					(JavaConstructorCall call) -> call.getTargetOwner().getName().equals(state)));
		ArchRule steps = noClasses().that()
			.doNotHaveFullyQualifiedName(STATUS + "WatchStatus")
			.should()
			.callMethodWhere(DescribedPredicate.describe("a step of a watch",
					(JavaMethodCall call) -> call.getTargetOwner().getName().equals(transitions)
							&& call.getName().equals("step")));
		return CompositeArchRule.of(changes).and(steps);
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

	/**
	 * Spring AOT support reads what the starter declares (its API, events and properties)
	 * and fabric8's model; it never reaches into the runtime, and nothing depends on it:
	 * Spring finds it through {@code META-INF/spring/aot.factories}.
	 */
	@Test
	void aotSupportDependsOnlyOnWhatItsRuleAllows() {
		aotRule().check(main);
		noClasses().that()
			.resideOutsideOfPackage("dev.informer.autoconfigure.aot..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.informer.autoconfigure.aot..")
			.check(main);
	}

	@Test
	void theAotRuleFailsOnABadArrow() throws ClassNotFoundException {
		JavaClasses fixture = new ClassFileImporter()
			.importClasses(Class.forName("dev.informer.autoconfigure.aot.BadArrowFixture"));
		assertThat(aotRule().evaluate(fixture).hasViolation()).isTrue();
	}

	private static ArchRule aotRule() {
		return classes().that()
			.resideInAPackage("dev.informer.autoconfigure.aot..")
			.should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage("dev.informer", "dev.informer.event..", "dev.informer.autoconfigure",
					"dev.informer.autoconfigure.aot..", "java..", "io.fabric8.kubernetes.api.model..", "org.jspecify..",
					"org.springframework.aot..", "org.springframework.beans.factory..",
					"org.springframework.boot.context.properties.bind..", "org.springframework.core",
					"org.springframework.util..");
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

	/**
	 * A condition on the source file of a class: no import of, and no javadoc link
	 * ({@code @link}, {@code @linkplain}, {@code @see}, {@code @throws}) to, a package
	 * matching {@code packages} (a package name with {@code *} for one segment). Naming
	 * the package in prose, plain or as code, is allowed.
	 */
	private static ArchCondition<JavaClass> importOrLinkNoClassOf(String packages) {
		String name = Pattern.quote(packages).replace("*", "\\E[a-z][a-z0-9_]*\\Q");
		Pattern reference = Pattern
			.compile("(\\bimport\\s+(static\\s+)?|\\{@link(plain)?\\s+|@see\\s+|@throws\\s+)" + name + "\\b");
		return new ArchCondition<>("import or link no class of " + packages + " in their source") {

			@Override
			public void check(JavaClass item, ConditionEvents events) {
				Path source = SOURCES.resolve(item.getPackageName().replace('.', '/'))
					.resolve(item.getSource().flatMap(Source::getFileName).orElse(item.getSimpleName() + ".java"));
				if (!Files.isRegularFile(source)) {
					events.add(SimpleConditionEvent.violated(item, "No source " + source + " for " + item.getName()));
					return;
				}
				List<String> lines = readLines(source);
				for (int i = 0; i < lines.size(); i++) {
					if (reference.matcher(lines.get(i)).find()) {
						events.add(SimpleConditionEvent.violated(item, item.getName() + " names " + packages + " in ("
								+ source.getFileName() + ":" + (i + 1) + "): " + lines.get(i).strip()));
					}
				}
			}

		};
	}

	private static List<String> readLines(Path source) {
		try {
			return Files.readAllLines(source);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
