package dev.informer.it;

import java.io.IOException;
import java.time.Clock;
import java.util.Objects;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.LeaseDelay;
import dev.informer.watch.DeliverySnapshot;

/**
 * One replica of a {@link ReplicaGroup}: its proxy, its Lease delay, its client through
 * both and, while it runs, its context.
 */
final class Replica {

	final String identity;

	final TcpProxy proxy;

	final LeaseDelay leases;

	final @Nullable Clock clock;

	private final KubernetesClient client;

	volatile @Nullable AssertableApplicationContext context;

	Replica(String identity, TcpProxy proxy, LeaseDelay leases, @Nullable Clock clock, Config config) {
		this.identity = identity;
		this.proxy = proxy;
		this.leases = leases;
		this.clock = clock;
		this.client = new KubernetesClientBuilder().withConfig(config)
			.withHttpClientBuilderConsumer((builder) -> builder.addOrReplaceInterceptor(LeaseDelay.NAME, leases))
			.build();
	}

	KubernetesClient client() {
		return this.client;
	}

	DeliverySnapshot snapshot() {
		return Objects.requireNonNull(this.context).getBean(DeliveryCoordinator.class).snapshot();
	}

	void closeClient() {
		this.client.close();
		try {
			this.proxy.close();
		}
		catch (IOException ex) {
			// closed
		}
	}

	@Override
	public String toString() {
		return this.identity;
	}

}
