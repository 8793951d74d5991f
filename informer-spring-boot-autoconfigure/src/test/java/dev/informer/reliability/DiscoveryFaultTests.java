package dev.informer.reliability;

import java.time.Duration;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.informer.InformerStartupException;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InformerContexts;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.status;
import static dev.informer.reliability.FaultServer.watchPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * API discovery (which kind, which plural, which scope) failing while the application
 * starts: fatal when startup waits for the informers anyway, not when it does not wait.
 */
@ExtendWith(OutputCaptureExtension.class)
class DiscoveryFaultTests {

	@AutoClose
	private final FaultServer faults = FaultServer.withoutDiscovery();

	private final ApplicationContextRunner runner = this.faults.configMaps("discovery");

	@Test
	void withoutWaitingForSyncAnUnavailableDiscoveryDoesNotFailStartupAndTheInformerComesUp(CapturedOutput output) {
		// discovery stays down: the informer needs only its list
		discoveryUnavailable();
		this.faults.fails(listPath("discovery"),
				status(503, "ServiceUnavailable", "the server is currently unable to handle the request"), 2);
		this.faults.lists(listPath("discovery"), list("4", cm("discovery", "a", "4")));
		this.faults.watchStaysOpen(watchPath("discovery", "4"));
		this.runner.withPropertyValues("informer.startup.wait-for-sync=false").run((context) -> {
			assertThat(context).hasNotFailed();
			ResourceInformer<?> informer = InformerContexts.informer(context);
			assertThat(informer.getDefinition().getPlural()).isEqualTo("configmaps");
			assertThat(informer.getDefinition().isNamespaced()).isTrue();
			await().atMost(Duration.ofSeconds(10)).until(informer::isSynced);
			assertThat(describe(InformerContexts.listener(context).resourceEvents())).containsExactly("added a 4");
		});
		assertThat(output.getOut()).contains("Informer 'configmaps'")
			.contains("API discovery of v1 failed")
			.contains("HTTP 503")
			.contains("io.fabric8.kubernetes.api.model.ConfigMap");
	}

	@Test
	void whenStartupWaitsAnUnavailableDiscoveryFailsItAtOnce() {
		discoveryUnavailable();
		this.runner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(cause(context.getStartupFailure())).hasMessageContaining("API discovery of v1 failed")
				.hasMessageContaining("HTTP 503");
		});
	}

	@Test
	void withoutWaitingForSyncAKindWithoutAClassStillNeedsDiscovery() {
		this.faults.failsAlways("/apis/example.com/v1",
				status(503, "ServiceUnavailable", "the server is currently unable to handle the request"));
		this.runner
			.withPropertyValues("informer.startup.wait-for-sync=false", "informer.resources.configmaps.enabled=false",
					"informer.resources.widgets.api-version=example.com/v1", "informer.resources.widgets.kind=Widget")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(cause(context.getStartupFailure())).hasMessageContaining("example.com/v1")
					.satisfies((ex) -> assertThat(ex.getAction()).contains("'type'"));
			});
	}

	private void discoveryUnavailable() {
		this.faults.failsAlways("/api/v1",
				status(503, "ServiceUnavailable", "the server is currently unable to handle the request"));
	}

	private static InformerStartupException cause(Throwable failure) {
		for (Throwable current = failure; current != null; current = current.getCause()) {
			if (current instanceof InformerStartupException startup) {
				return startup;
			}
		}
		throw new AssertionError("No InformerStartupException in " + failure, failure);
	}

}
