package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;

import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.runtime.status.WatchInput;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.watch.DeliveryObserver;
import dev.informer.watch.EventType;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;

/**
 * Builds informers that are never started and drives their watch statuses by hand, for
 * tests of what reads them (health, metrics, endpoint).
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

	public static ResourceInformer<ConfigMap> selectedConfigMaps(Clock clock, String namespaceSelector) {
		InformerDeclaration declaration = InformerDeclaration.builder("tenants")
			.apiVersion("v1")
			.kind("ConfigMap")
			.namespaceSelector(namespaceSelector)
			.build();
		return new ResourceInformer<>(new InformerDefinition<>(declaration, ConfigMap.class, "configmaps", true),
				new InformerEventPublisher(), RetryPolicy.standard(false), clock);
	}

	public static ResourceInformer<ConfigMap> configMaps(Clock clock, String... namespaces) {
		return configMaps(clock, new InformerEventPublisher(), Duration.ZERO, namespaces);
	}

	public static void sync(Watch watch, int items) {
		status(watch).post(new WatchInput.ListStarted(RelistReason.INITIAL));
		status(watch).post(new WatchInput.ListCompleted(items));
	}

	public static void watching(Watch watch, boolean open) {
		status(watch).post(new WatchInput.Sampled(open, null));
	}

	public static void error(Watch watch, Throwable ex) {
		status(watch).post(WatchInput.Failed.of(ex));
	}

	public static void fail(Watch watch, Throwable ex) {
		status(watch).post(WatchInput.Failed.of(ex));
		status(watch).post(new WatchInput.GaveUp("gave up", null));
	}

	public static void relist(Watch watch, RelistReason reason, int items) {
		status(watch).post(new WatchInput.ListStarted(reason));
		status(watch).post(new WatchInput.ListCompleted(items));
	}

	public static void delivered(Watch watch, EventType type, int failedListeners) {
		status(watch).observed().delivered(type, failedListeners);
	}

	public static void resourceVersion(Watch watch, String resourceVersion) {
		status(watch).post(new WatchInput.Sampled(watch.isWatching(), resourceVersion));
	}

	private static WatchStatus status(Watch watch) {
		return (WatchStatus) watch;
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
