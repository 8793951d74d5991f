package dev.informer.runtime;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import dev.informer.InformerCustomizer;
import dev.informer.InformerSpec;
import dev.informer.ResourceCache;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link ResourceCache#list(String)} reads only the objects of the namespace asked for,
 * both for an informer of all namespaces (through fabric8's namespace index) and for one
 * of several namespaces (through that namespace's own watch). Each cached object's
 * metadata counts the reads the test thread makes of it, so a scan of the whole cache
 * shows.
 */
class ResourceCacheNamespaceTests {

	private static final List<String> NAMESPACES = List.of("ns-a", "ns-b", "ns-c");

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private final Map<String, AtomicInteger> reads = Map.of("ns-a", new AtomicInteger(), "ns-b", new AtomicInteger(),
			"ns-c", new AtomicInteger());

	private final Thread testThread = Thread.currentThread();

	private ResourceInformer<ConfigMap> informer;

	@Test
	void listingOneNamespaceOfAnInformerOfAllNamespacesReadsNoOtherNamespace() {
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC()));
		assertListsOnlyTheNamespaceAskedFor();
	}

	@Test
	void listingOneNamespaceOfAnInformerOfSeveralNamespacesReadsNoOtherNamespace() {
		this.informer = this.mock
			.stopping(TestWatches.configMaps(Clock.systemUTC(), NAMESPACES.toArray(String[]::new)));
		assertListsOnlyTheNamespaceAskedFor();
	}

	@Test
	void listingOneNamespaceWithoutFabric8sNamespaceIndexStillListsItsObjects() {
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC()));
		createAndStart(List.of((spec) -> spec.getInformer().removeIndexer(Cache.NAMESPACE_INDEX)));
		assertThat(this.informer.getCache().list("ns-b")).extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactlyInAnyOrder("cm-0", "cm-1", "cm-2");
	}

	private void assertListsOnlyTheNamespaceAskedFor() {
		createAndStart(List.of(this::countReads));
		this.reads.values().forEach((count) -> count.set(0));
		List<ConfigMap> listed = this.informer.getCache().list("ns-b");
		assertThat(listed).extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactlyInAnyOrder("cm-0", "cm-1", "cm-2");
		assertThat(listed).allMatch((configMap) -> "ns-b".equals(configMap.getMetadata().getNamespace()));
		assertThat(this.reads.get("ns-a")).as("reads of objects in ns-a").hasValue(0);
		assertThat(this.reads.get("ns-c")).as("reads of objects in ns-c").hasValue(0);
		assertThat(this.informer.getCache().list("ns-none")).isEmpty();
	}

	private void createAndStart(List<InformerCustomizer> customizers) {
		for (String namespace : NAMESPACES) {
			for (int i = 0; i < 3; i++) {
				this.mock.client().configMaps().resource(TestResources.configMap(namespace, "cm-" + i, "x")).create();
			}
		}
		this.informer.start(this.mock.client(), customizers).join();
		await().until(() -> this.informer.getCache().size() == 9);
	}

	@SuppressWarnings("unchecked")
	private void countReads(InformerSpec<?> spec) {
		((InformerSpec<ConfigMap>) spec).addTransform((configMap) -> {
			ObjectMeta metadata = configMap.getMetadata();
			CountingMetadata counting = new CountingMetadata(this.reads.get(metadata.getNamespace()), this.testThread);
			counting.setNamespace(metadata.getNamespace());
			counting.setName(metadata.getName());
			counting.setResourceVersion(metadata.getResourceVersion());
			counting.setUid(metadata.getUid());
			configMap.setMetadata(counting);
		});
	}

	/**
	 * Metadata that counts the reads one thread makes of it.
	 */
	static class CountingMetadata extends ObjectMeta {

		private final AtomicInteger reads;

		private final Thread reader;

		CountingMetadata(AtomicInteger reads, Thread reader) {
			this.reads = reads;
			this.reader = reader;
		}

		@Override
		public String getNamespace() {
			count();
			return super.getNamespace();
		}

		@Override
		public String getName() {
			count();
			return super.getName();
		}

		@Override
		public String getResourceVersion() {
			count();
			return super.getResourceVersion();
		}

		@Override
		public Map<String, String> getLabels() {
			count();
			return super.getLabels();
		}

		private void count() {
			if (Thread.currentThread() == this.reader) {
				this.reads.incrementAndGet();
			}
		}

	}

}
