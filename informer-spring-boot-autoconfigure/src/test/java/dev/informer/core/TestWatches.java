package dev.informer.core;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Builds informers that are never started and drives their watch statuses by hand, for tests
 * of what reads them (health, metrics, endpoint).
 */
public final class TestWatches {

	private TestWatches() {
	}

	public static ResourceInformer<ConfigMap> configMaps(Clock clock, InformerEventPublisher publisher,
			Duration resyncPeriod, String... namespaces) {
		InformerDeclaration declaration = InformerDeclaration.builder("configmaps")
			.apiVersion("v1")
			.kind("ConfigMap")
			.namespaces(List.of(namespaces))
			.resyncPeriod(resyncPeriod)
			.build();
		return new ResourceInformer<>(new InformerDefinition<>(declaration, ConfigMap.class, "configmaps", true),
				publisher, RetryPolicy.standard(false), clock);
	}

	public static ResourceInformer<ConfigMap> configMaps(Clock clock, String... namespaces) {
		return configMaps(clock, new InformerEventPublisher(), Duration.ZERO, namespaces);
	}

	public static void sync(WatchStatus status, int items) {
		status.listStarted();
		status.listCompleted(items);
	}

	public static void watching(WatchStatus status, boolean open) {
		status.watchObserved(open);
	}

	public static void error(WatchStatus status, Throwable ex) {
		status.errorOccurred(ex);
	}

	public static void fail(WatchStatus status, Throwable ex) {
		status.errorOccurred(ex);
		status.transition(InformerState.FAILED, "gave up");
	}

	public static void relist(WatchStatus status, String reason, int items) {
		status.relistRequested(reason);
		status.listStarted();
		status.listCompleted(items);
	}

	public static void delivered(WatchStatus status, String type, int failedListeners) {
		status.eventDelivered(type, failedListeners);
	}

	public static void resourceVersion(WatchStatus status, String resourceVersion) {
		status.resourceVersionObserved(resourceVersion);
	}

	public static DeliveryObserver observer(ResourceInformer<?> informer) {
		return informer.getDeliveryObserver();
	}

	public static KubernetesClientException forbidden() {
		return new KubernetesClientException(new StatusBuilder().withCode(403)
			.withReason("Forbidden")
			.withMessage("configmaps is forbidden: User \"alice\" cannot watch resource \"configmaps\"")
			.build());
	}

	public static KubernetesClientException serverError() {
		return new KubernetesClientException(
				new StatusBuilder().withCode(500).withReason("InternalError").withMessage("etcd timeout").build());
	}

}
