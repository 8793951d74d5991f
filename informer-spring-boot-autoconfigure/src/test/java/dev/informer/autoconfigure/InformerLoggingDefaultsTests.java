package dev.informer.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * fabric8's {@code Reflector} logger is off, and its leader elector's logs errors only,
 * unless the application says otherwise.
 */
class InformerLoggingDefaultsTests {

	private static final String LEVEL = "logging.level." + InformerLoggingDefaults.REFLECTOR_LOGGER;

	private final StandardEnvironment environment = new StandardEnvironment();

	@Test
	void theReflectorLoggerIsOffByDefault() {
		postProcess();
		assertThat(this.environment.getProperty(LEVEL)).isEqualTo("off");
	}

	@Test
	void theLeaderElectorLoggerLogsErrorsOnlyByDefault() {
		// it logs a refused Lease request as "retrying..." at every attempt: the starter
		// logs each kind of failure once, with the server's message
		postProcess();
		assertThat(this.environment.getProperty("logging.level." + InformerLoggingDefaults.LEADER_ELECTOR_LOGGER))
			.isEqualTo("error");
	}

	@Test
	void theApplicationsLevelWins() {
		this.environment.getPropertySources().addFirst(new MapPropertySource("application", Map.of(LEVEL, "warn")));
		postProcess();
		assertThat(this.environment.getProperty(LEVEL)).isEqualTo("warn");
	}

	@Test
	void nothingChangesWhenInformersAreDisabled() {
		this.environment.getPropertySources()
			.addFirst(new MapPropertySource("application", Map.of("informer.enabled", "false")));
		postProcess();
		assertThat(this.environment.containsProperty(LEVEL)).isFalse();
	}

	private void postProcess() {
		new InformerLoggingDefaults().postProcessEnvironment(this.environment, new SpringApplication());
	}

}
