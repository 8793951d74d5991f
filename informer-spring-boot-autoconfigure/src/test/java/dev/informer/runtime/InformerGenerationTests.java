package dev.informer.runtime;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;

import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One fabric8 informer of a watch, as the watch's relists, stops and list permits drive
 * it from several threads.
 */
class InformerGenerationTests {

	@Test
	void aGenerationRetiredBeforeItsPermitArrivedStartsNothingAndGivesThePermitBack() {
		try (MockApiServer mock = MockApiServer.crud()) {
			ResourceInformer<ConfigMap> informer = TestWatches.configMaps(Clock.systemUTC(), "permits");
			NamespaceInformer<ConfigMap> watch = new NamespaceInformer<>(informer, "permits", Clock.systemUTC());
			InformerGeneration<ConfigMap> generation = new InformerGeneration<>(watch, mock.client(), List.of());
			// another thread stopped or relisted the watch between the permit's check and
			// the start
			generation.retire();
			AtomicInteger released = new AtomicInteger();
			generation.start(released::incrementAndGet);
			assertThat(released).hasValue(1);
		}
	}

}
