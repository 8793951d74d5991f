package dev.informer.reliability;

import java.time.Duration;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
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

	private final FaultServer faults = FaultServer.withoutDiscovery();

	@AfterEach
	void stopServer() {
		this.faults.close();
	}

	private ApplicationContextRunner runner(KubernetesClient client) {
		return InformerContexts.configMaps(() -> client, "discovery");
	}

	@Test
	void withoutWaitingForSyncAnUnavailableDiscoveryDoesNotFailStartupAndTheInformerComesUp(CapturedOutput output) {
		// discovery stays down: the informer needs only its list
		discoveryUnavailable();
		this.faults.fails(listPath("discovery"),
				status(503, "ServiceUnavailable", "the server is currently unable to handle the request"), 2);
		this.faults.lists(listPath("discovery"), list("4", cm("discovery", "a", "4")));
		this.faults.watchStaysOpen(watchPath("discovery", "4"));
		runner(this.faults.client()).withPropertyValues("informer.startup.wait-for-sync=false").run((context) -> {
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
		runner(this.faults.client()).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(cause(context.getStartupFailure())).hasMessageContaining("API discovery of v1 failed")
				.hasMessageContaining("HTTP 503");
		});
	}

	@Test
	void withoutWaitingForSyncAKindWithoutAClassStillNeedsDiscovery() {
		this.faults.server()
			.expect()
			.get()
			.withPath("/apis/example.com/v1")
			.andReturn(503, status(503, "ServiceUnavailable", "the server is currently unable to handle the request"))
			.always();
		runner(this.faults.client())
			.withPropertyValues("informer.startup.wait-for-sync=false", "informer.resources.configmaps.enabled=false",
					"informer.resources.widgets.api-version=example.com/v1", "informer.resources.widgets.kind=Widget")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(cause(context.getStartupFailure())).hasMessageContaining("example.com/v1")
					.satisfies((ex) -> assertThat(ex.getAction()).contains("'type'"));
			});
	}

	private void discoveryUnavailable() {
		this.faults.server()
			.expect()
			.get()
			.withPath("/api/v1")
			.andReturn(503, status(503, "ServiceUnavailable", "the server is currently unable to handle the request"))
			.always();
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
