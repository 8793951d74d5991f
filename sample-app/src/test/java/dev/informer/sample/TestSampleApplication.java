package dev.informer.sample;

import org.springframework.boot.SpringApplication;

/**
 * The sample in demo mode, on an embedded API server ({@link DemoMode}), as Spring Boot
 * runs an application with test-only services: from the repository root,
 * {@code ./mvnw -f sample-app spring-boot:test-run}. Needs no cluster and ignores the
 * kubeconfig. The test servers stay in test scope, so {@link SampleApplication}'s jar
 * does not carry them ({@link PackagedJarIT}).
 */
public class TestSampleApplication {

	public static void main(String[] args) {
		demo().run(args);
	}

	/**
	 * Return the sample's {@code main} with demo mode and its profile added.
	 * @return the application, not yet run
	 */
	static SpringApplication.Augmented demo() {
		return SpringApplication.from(SampleApplication::main).with(DemoMode.class).withAdditionalProfiles("demo");
	}

}
