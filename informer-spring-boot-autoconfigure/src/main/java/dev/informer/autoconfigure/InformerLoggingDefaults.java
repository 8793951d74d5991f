package dev.informer.autoconfigure;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.DefaultPropertiesPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.informer.watch.KubernetesErrors;

/**
 * Turns off fabric8's {@code Reflector} logger unless the application sets its level:
 * when fabric8 cannot read a watch event, it logs the exception whose message holds the
 * raw event, Secret data included. The starter's own exception handler logs each of those
 * failures at the same level, without the event (see
 * {@link dev.informer.watch.KubernetesErrors#message(Throwable)}), so nothing else is
 * lost for the informers the starter runs. A default property, so that any setting of the
 * application wins; not added when {@code informer.enabled=false}.
 */
public class InformerLoggingDefaults implements EnvironmentPostProcessor {

	/**
	 * The fabric8 logger that logs the exceptions of informers with their messages.
	 */
	public static final String REFLECTOR_LOGGER = "io.fabric8.kubernetes.client.informers.impl.cache.Reflector";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.getProperty("informer.enabled", Boolean.class, true)) {
			return;
		}
		DefaultPropertiesPropertySource.addOrMerge(Map.of("logging.level." + REFLECTOR_LOGGER, "off"),
				environment.getPropertySources());
	}

}
