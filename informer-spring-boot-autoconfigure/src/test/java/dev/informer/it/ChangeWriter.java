package dev.informer.it;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.jspecify.annotations.Nullable;

/**
 * Changes the objects of one kind in one namespace in a seeded random mix, in the
 * background, directly against the API server; every change that succeeded is logged with
 * the resourceVersion the server gave it. The mix ({@link Mix}) weighs creates, updates
 * of the payload, updates of labels, deletes, deletes followed at once by a create under
 * the same name, and, for a kind whose Java class has an {@code int} where the schema
 * allows anything ({@link Payload#DIAL}), updates and creates that make an object
 * impossible to decode. Starts paused; {@link #pause()} returns only once no change is in
 * flight.
 * <p>
 * A write may fail while the test injects faults (the server restarted, a timeout): it is
 * counted, and the writer's idea of which names exist is corrected by the next answer
 * (404, 409). What is checked is always read back from the server.
 */
final class ChangeWriter implements AutoCloseable {

	/** Time between two changes of the replica fault tests: about five a second. */
	static final Duration PERIOD = Duration.ofMillis(200);

	private final NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> objects;

	private final Payload payload;

	private final String namespace;

	private final long seed;

	private final Random random;

	private final Mix mix;

	private final String prefix;

	private final List<String> names = new ArrayList<>();

	private final Map<String, String> uids = new HashMap<>();

	private final List<Change> changes = new ArrayList<>();

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "change-writer");
		thread.setDaemon(true);
		return thread;
	});

	private boolean paused = true;

	private int sequence;

	private int failures;

	/**
	 * Create a paused writer of ConfigMaps that creates, updates the data of and deletes
	 * objects, five changes a second.
	 * @param admin the client, straight to the server
	 * @param namespace the namespace
	 * @param seed the seed of the mix
	 * @param existing the objects that exist, name to uid
	 */
	ChangeWriter(KubernetesClient admin, String namespace, long seed, Map<String, String> existing) {
		this(admin, Payload.CONFIG_MAP, namespace, seed, existing, Mix.of(Op.CREATE, 3, Op.DELETE, 2, Op.UPDATE, 5),
				PERIOD, "w-");
	}

	/**
	 * Create a paused writer.
	 * @param admin the client, straight to the server
	 * @param payload the kind and what it changes
	 * @param namespace the namespace
	 * @param seed the seed of the mix
	 * @param existing the objects that exist, name to uid
	 * @param mix the weight of each operation
	 * @param period the time between two changes
	 * @param prefix the start of the names of the objects it creates
	 */
	ChangeWriter(KubernetesClient admin, Payload payload, String namespace, long seed, Map<String, String> existing,
			Mix mix, Duration period, String prefix) {
		this.objects = admin.genericKubernetesResources(payload.apiVersion, payload.kind).inNamespace(namespace);
		this.payload = payload;
		this.namespace = namespace;
		this.seed = seed;
		this.random = new Random(seed);
		this.mix = mix;
		this.prefix = prefix;
		this.names.addAll(existing.keySet());
		this.names.sort(null);
		this.uids.putAll(existing);
		this.timer.scheduleAtFixedRate(this::step, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
	}

	/**
	 * Create {@code count} valid objects before any writer runs.
	 * @param admin the client
	 * @param payload the kind
	 * @param namespace the namespace
	 * @param prefix the start of their names
	 * @param count how many
	 * @return name to uid
	 */
	static Map<String, String> createObjects(KubernetesClient admin, Payload payload, String namespace, String prefix,
			int count) {
		Map<String, String> uids = new LinkedHashMap<>();
		for (int i = 0; i < count; i++) {
			GenericKubernetesResource created = admin.genericKubernetesResources(payload.apiVersion, payload.kind)
				.inNamespace(namespace)
				.resource(payload.create(namespace, prefix + i, 0, false))
				.create();
			uids.put(created.getMetadata().getName(), created.getMetadata().getUid());
		}
		return uids;
	}

	long seed() {
		return this.seed;
	}

	synchronized void resume() {
		this.paused = false;
	}

	/**
	 * Stop changing; returns once the change in flight, if any, is done.
	 */
	synchronized void pause() {
		this.paused = true;
	}

	synchronized int count() {
		return this.changes.size();
	}

	synchronized int failures() {
		return this.failures;
	}

	synchronized List<Change> changes() {
		return List.copyOf(this.changes);
	}

	/**
	 * Return the uid of every object the writer knew, deleted ones too (the last one
	 * under each name).
	 * @return name to uid
	 */
	synchronized Map<String, String> uids() {
		return Map.copyOf(this.uids);
	}

	/**
	 * Return the objects of the namespace, as the server has them now, generic so that
	 * those this writer made impossible to decode are listed too.
	 * @return the objects
	 */
	List<GenericKubernetesResource> serverObjects() {
		return this.objects.list()
			.getItems()
			.stream()
			.filter((object) -> !object.getMetadata().getName().equals("kube-root-ca.crt"))
			.toList();
	}

	/**
	 * Return the keys ({@code namespace/name}) of the objects on the server that this
	 * writer made impossible to decode into the informer's class: it knows what it wrote
	 * there.
	 * @return the keys
	 */
	Set<String> notDeliverable() {
		Set<String> keys = new TreeSet<>();
		for (GenericKubernetesResource object : serverObjects()) {
			if (this.payload.isUndecodable(object)) {
				keys.add(this.namespace + "/" + object.getMetadata().getName());
			}
		}
		return keys;
	}

	private synchronized void step() {
		if (this.paused) {
			return;
		}
		Op op = this.names.isEmpty() ? Op.CREATE : this.mix.pick(this.random);
		String name = (op == Op.CREATE || op == Op.CREATE_UNDECODABLE) ? this.prefix + (this.sequence++)
				: this.names.get(this.random.nextInt(this.names.size()));
		int value = this.random.nextInt(1_000_000);
		try {
			switch (op) {
				case CREATE, CREATE_UNDECODABLE -> create(name, value, op == Op.CREATE_UNDECODABLE);
				case UPDATE, UNDECODABLE -> log(op, this.objects.withName(name).edit((object) -> {
					this.payload.write(object, value, op == Op.UNDECODABLE);
					return object;
				}));
				case LABEL -> log(op, this.objects.withName(name).edit((object) -> {
					object.getMetadata().setLabels(Map.of("label", "l" + (value % 4)));
					return object;
				}));
				case DELETE -> delete(name);
				case RECREATE -> {
					delete(name);
					create(name, value, false);
				}
			}
		}
		catch (KubernetesClientException ex) {
			// the server state is read back from the server; the log keeps what succeeded
			this.failures++;
			if (ex.getCode() == 404) {
				this.names.remove(name);
			}
			else if (ex.getCode() == 409 && !this.names.contains(name)) {
				this.names.add(name);
			}
		}
	}

	private void create(String name, int value, boolean undecodable) {
		GenericKubernetesResource created = this.objects
			.resource(this.payload.create(this.namespace, name, value, undecodable))
			.create();
		if (!this.names.contains(name)) {
			this.names.add(name);
		}
		this.uids.put(name, created.getMetadata().getUid());
		log(undecodable ? Op.CREATE_UNDECODABLE : Op.CREATE, created);
	}

	private void delete(String name) {
		if (this.objects.withName(name).delete().isEmpty()) {
			throw new KubernetesClientException("not found", 404, null);
		}
		this.names.remove(name);
		this.changes.add(new Change(Op.DELETE, name, this.uids.get(name), null, Instant.now()));
	}

	private void log(Op op, GenericKubernetesResource result) {
		this.changes.add(new Change(op, result.getMetadata().getName(), result.getMetadata().getUid(),
				result.getMetadata().getResourceVersion(), Instant.now()));
	}

	@Override
	public void close() {
		pause();
		this.timer.shutdownNow();
	}

	/**
	 * What a writer does.
	 */
	enum Op {

		/** Create an object. */
		CREATE,
		/** Change its payload (a ConfigMap's data, a Dial's level). */
		UPDATE,
		/** Change its labels only. */
		LABEL,
		/** Delete it. */
		DELETE,
		/** Delete it and create it again at once under the same name (a new uid). */
		RECREATE,
		/** Change its payload to a value its Java class cannot hold. */
		UNDECODABLE,
		/** Create an object whose payload its Java class cannot hold. */
		CREATE_UNDECODABLE

	}

	/**
	 * The weight of each operation.
	 *
	 * @param weights operation to weight
	 */
	record Mix(Map<Op, Integer> weights) {

		static Mix of(Object... opsAndWeights) {
			Map<Op, Integer> weights = new EnumMap<>(Op.class);
			for (int i = 0; i < opsAndWeights.length; i += 2) {
				weights.put((Op) opsAndWeights[i], (Integer) opsAndWeights[i + 1]);
			}
			return new Mix(weights);
		}

		Op pick(Random random) {
			int total = this.weights.values().stream().mapToInt(Integer::intValue).sum();
			int dice = random.nextInt(total);
			for (Map.Entry<Op, Integer> weight : this.weights.entrySet()) {
				dice -= weight.getValue();
				if (dice < 0) {
					return weight.getKey();
				}
			}
			throw new IllegalStateException();
		}

	}

	/**
	 * A kind, and the part of it a writer changes.
	 */
	enum Payload {

		/** A ConfigMap's {@code data.value}, a string. */
		CONFIG_MAP("v1", "ConfigMap", "data"),

		/**
		 * A {@link Dial}'s {@code spec.level}, an {@code int} in its Java class that the
		 * CRD's schema lets be anything: a string there cannot be decoded.
		 */
		DIAL("example.com/v1", "Dial", "spec");

		final String apiVersion;

		final String kind;

		private final String field;

		Payload(String apiVersion, String kind, String field) {
			this.apiVersion = apiVersion;
			this.kind = kind;
			this.field = field;
		}

		GenericKubernetesResource create(String namespace, String name, int value, boolean undecodable) {
			GenericKubernetesResource object = new GenericKubernetesResourceBuilder().withApiVersion(this.apiVersion)
				.withKind(this.kind)
				.withNewMetadata()
				.withNamespace(namespace)
				.withName(name)
				.withLabels(Map.of("label", "l0"))
				.endMetadata()
				.build();
			write(object, value, undecodable);
			return object;
		}

		void write(GenericKubernetesResource object, int value, boolean undecodable) {
			if (this == CONFIG_MAP) {
				object.setAdditionalProperty(this.field, Map.of("value", "v" + value));
			}
			else {
				object.setAdditionalProperty(this.field,
						Map.of("level", undecodable ? (Object) ("not-a-number-" + value) : (Object) value));
			}
		}

		boolean isUndecodable(GenericKubernetesResource object) {
			if (this == CONFIG_MAP) {
				return false;
			}
			Object spec = object.getAdditionalProperties().get(this.field);
			return !(spec instanceof Map<?, ?> map) || !(map.get("level") instanceof Number);
		}

	}

	/**
	 * One change the writer made.
	 *
	 * @param op what it did ({@link Op#RECREATE} is logged as a delete and a create)
	 * @param name the object
	 * @param uid its uid
	 * @param resourceVersion the resourceVersion the server gave it; {@code null} for a
	 * delete
	 * @param at when the server answered
	 */
	record Change(Op op, String name, String uid, @Nullable String resourceVersion, Instant at) {

	}

}
