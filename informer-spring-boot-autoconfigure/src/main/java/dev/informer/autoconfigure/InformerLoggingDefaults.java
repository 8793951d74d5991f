package dev.informer.autoconfigure;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.DefaultPropertiesPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Turns off fabric8's {@code Reflector} logger unless the application sets its level:
 * when fabric8 cannot read a watch event, it logs the exception whose message holds the
 * raw event, Secret data included. The starter's own exception handler logs each of those
 * failures at the same level, without the event (see
 * {@link dev.informer.watch.KubernetesErrors#message(Throwable)}), so nothing else is
 * lost for the informers the starter runs. Also sets fabric8's {@code LeaderElector}
 * logger to errors only: it logs every failed Lease request as "retrying...", a refusal
 * that no retry cures included, at every attempt, while the starter logs each kind of
 * failure once with the API server's message, and when requests succeed again. Default
 * properties, so that any setting of the application wins; not added when
 * {@code informer.enabled=false}.
 *
 * @since 0.1.0
 */
public class InformerLoggingDefaults implements EnvironmentPostProcessor {

	/**
	 * The fabric8 logger that logs the exceptions of informers with their messages.
	 */
	public static final String REFLECTOR_LOGGER = "io.fabric8.kubernetes.client.informers.impl.cache.Reflector";

	/**
	 * The fabric8 logger of Lease elections.
	 */
	public static final String LEADER_ELECTOR_LOGGER = "io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.getProperty("informer.enabled", Boolean.class, true)) {
			return;
		}
		DefaultPropertiesPropertySource.addOrMerge(
				Map.of("logging.level." + REFLECTOR_LOGGER, "off", "logging.level." + LEADER_ELECTOR_LOGGER, "error"),
				environment.getPropertySources());
	}

}
