package dev.informer.runtime.listeners;

import java.util.List;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The factory knows every event type the starter publishes, so that a new one does not
 * silently fall back to Spring's slower adapter.
 */
class InformerEventListenerFactoryTests {

	@Test
	void everyEventOfTheEventPackageIsAnInformerEvent() {
		List<Class<?>> events = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("dev.informer.event")
			.stream()
			.filter((type) -> type.isAssignableTo(ApplicationEvent.class))
			.<Class<?>>map(JavaClass::reflect)
			.toList();
		assertThat(events).hasSizeGreaterThanOrEqualTo(6)
			.allSatisfy((event) -> assertThat(InformerEventListenerFactory.isInformerEvent(event)).as(event.getName())
				.isTrue());
	}

}
