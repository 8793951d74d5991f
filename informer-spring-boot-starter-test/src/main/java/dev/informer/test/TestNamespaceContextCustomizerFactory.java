package dev.informer.test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Gives the application context of every {@link InformerTest @InformerTest} and
 * {@link AutoConfigureInformerTest @AutoConfigureInformerTest} test a fresh namespace
 * name in the {@code informer.test.namespace} property, unless the test sets it. The name
 * exists before the context starts, so informer declarations can refer to it.
 */
class TestNamespaceContextCustomizerFactory implements ContextCustomizerFactory {

	static final String NAMESPACE_PROPERTY = "informer.test.namespace";

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return new TestNamespaceContextCustomizer();
	}

	/**
	 * Adds the namespace property; all instances are equal, so that contexts stay cached.
	 */
	static final class TestNamespaceContextCustomizer implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
			ConfigurableEnvironment environment = context.getEnvironment();
			if (!environment.containsProperty(NAMESPACE_PROPERTY)) {
				String name = "informer-test-" + UUID.randomUUID().toString().substring(0, 8);
				environment.getPropertySources()
					.addLast(new MapPropertySource("informerTestNamespace", Map.of(NAMESPACE_PROPERTY, name)));
			}
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other != null && other.getClass() == getClass();
		}

		@Override
		public int hashCode() {
			return getClass().hashCode();
		}

	}

}
