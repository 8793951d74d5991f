package dev.informer.runtime;

import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.core.SpringProperties;

/**
 * Whether this JVM is a training run for class data sharing or an AOT cache: Spring's
 * {@code spring.context.exit=onRefresh} (a system property or an entry in
 * {@code spring.properties}), with which the context is refreshed and the JVM halts
 * before any lifecycle starts. Spring Boot's CDS and AOT cache documentation trains that
 * way, and so do buildpacks in an image build, where there is usually no cluster: in such
 * a run the starter resolves declarations without the API server and starts no informer.
 *
 * @since 0.1.0
 */
public final class TrainingRun {

	private TrainingRun() {
	}

	/**
	 * Whether this is a training run, read as Spring's lifecycle processor reads it.
	 * @return whether the context halts after its refresh
	 */
	public static boolean isActive() {
		return DefaultLifecycleProcessor.ON_REFRESH_VALUE
			.equalsIgnoreCase(SpringProperties.getProperty(DefaultLifecycleProcessor.EXIT_PROPERTY_NAME));
	}

}
