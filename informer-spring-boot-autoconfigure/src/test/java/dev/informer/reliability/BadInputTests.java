package dev.informer.reliability;

import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.informer.InformerState;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.test.InformerContexts;
import dev.informer.watch.Watch;

import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Declarations the API server must see exactly as written, and requests it rejects as
 * malformed (HTTP 400), which no retry can fix.
 */
@ExtendWith(OutputCaptureExtension.class)
class BadInputTests {

	/**
	 * What a real API server (1.37) answers to a field it cannot select ConfigMaps by.
	 */
	private static final String SERVER_MESSAGE = "\"data.colour\" is not a known field selector: only "
			+ "\"metadata.name\", \"metadata.namespace\"";

	private static final String UNSUPPORTED = "data.colour=blue";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	@Test
	void selectorsReachTheServerAsDeclared() {
		String labels = "replicas>1,generation<10,tier in (web,api)";
		String fields = "metadata.name!=a,metadata.name!=b\\,c,metadata.name!=d\\=e\\\\f";
		this.faults.configMaps("selected")
			.withPropertyValues("informer.resources.configmaps.label-selector=" + labels,
					"informer.resources.configmaps.field-selector=" + fields, "informer.startup.wait-for-sync=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				await().atMost(Duration.ofSeconds(10)).until(() -> !this.faults.paths().isEmpty());
				Map<String, String> query = query(this.faults.paths().get(0));
				assertThat(query).containsEntry("labelSelector", labels).containsEntry("fieldSelector", fields);
			});
	}

	@Test
	void aBadRequestOnTheInitialListFailsStartupAtOnceNamingTheInformerAndTheServersMessage(CapturedOutput output) {
		this.faults.failsAlways(selectedListPath("rejected", UNSUPPORTED), status(400, "BadRequest", SERVER_MESSAGE));
		this.faults.configMaps("rejected")
			.withPropertyValues("informer.startup.timeout=30s",
					"informer.resources.configmaps.field-selector=" + UNSUPPORTED)
			.run((context) -> {
				assertThat(context).hasFailed();
				InvalidInformerDeclarationException failure = cause(context.getStartupFailure(),
						InvalidInformerDeclarationException.class);
				assertThat(failure).hasMessageContaining("Informer 'configmaps': field-selector")
					.hasMessageContaining(SERVER_MESSAGE)
					.hasMessageNotContaining("did not sync within");
				assertThat(this.faults.paths()).containsExactly(selectedListPath("rejected", UNSUPPORTED));
			});
		assertThat(output.getOut()).contains("informer.resources.configmaps.field-selector").contains(SERVER_MESSAGE);
	}

	@Test
	void aBadRequestOnTheInitialListIsNotRetriedWhenStartupDoesNotWait(CapturedOutput output) {
		this.faults.failsAlways(selectedListPath("rejected", UNSUPPORTED), status(400, "BadRequest", SERVER_MESSAGE));
		this.faults.configMaps("rejected")
			.withPropertyValues("informer.startup.wait-for-sync=false",
					"informer.resources.configmaps.field-selector=" + UNSUPPORTED)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Watch status = InformerContexts.watch(context);
				await().atMost(Duration.ofSeconds(10)).until(() -> status.getState() == InformerState.FAILED);
				assertThat(status.getLastError().httpCode()).isEqualTo(400);
				assertThat(status.getLastError().message()).contains(SERVER_MESSAGE);
				// fabric8 would retry after 200 ms, then 400 ms: well within this
				await().during(Duration.ofSeconds(1))
					.atMost(Duration.ofSeconds(2))
					.until(() -> this.faults.paths().size() == 1);
				assertThat(status.getState()).isEqualTo(InformerState.FAILED);
			});
		assertThat(output.getOut()).contains("Informer 'configmaps'")
			.contains("informer.resources.configmaps.field-selector")
			.contains(UNSUPPORTED)
			.contains(SERVER_MESSAGE)
			.contains("not retrying");
	}

	private static String selectedListPath(String namespace, String fieldSelector) {
		return relistPath(namespace) + "?fieldSelector=" + URLEncoder.encode(fieldSelector, StandardCharsets.UTF_8)
				+ "&resourceVersion=0";
	}

	private static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
		for (Throwable current = failure; current != null; current = current.getCause()) {
			if (type.isInstance(current)) {
				return type.cast(current);
			}
		}
		throw new AssertionError("No " + type.getSimpleName() + " in " + failure, failure);
	}

	private static Map<String, String> query(String path) {
		String query = URI.create(path).getRawQuery();
		return Arrays.stream(query.split("&"))
			.map((parameter) -> parameter.split("=", 2))
			.collect(Collectors.toMap((pair) -> pair[0],
					(pair) -> URLDecoder.decode((pair.length > 1) ? pair[1] : "", StandardCharsets.UTF_8)));
	}

}
