package dev.informer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.runtime.replicas.DeliveryOptions;
import dev.informer.test.ContractChecker;
import dev.informer.test.InvariantListener;
import dev.informer.test.ReceivedEvent;
import dev.informer.test.LeaseDelay;
import dev.informer.test.TestResources;
import dev.informer.watch.DeliverySnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fixture of the replica fault tests: one delivery group in a namespace of its own on
 * a real API server, replicas that are application contexts each with its own client
 * through its own {@link TcpProxy} (and a {@link LeaseDelay} on its Lease requests), each
 * with an {@link InvariantListener} on its ConfigMaps that records into the group's
 * {@link ContractChecker}, a {@link ChangeWriter} in the background, and the two checks
 * every fault ends with: nothing lost (the group's events, folded as the checker folds
 * them, equal the server's objects; in {@code all} mode each replica's alone) and, in a
 * steady state, every change published live exactly once, by its owner.
 */
final class ReplicaGroup implements AutoCloseable {

	/** The issue's Lease times: Lease 6 s, renew deadline 4 s, retry period 1 s. */
	static final Duration LEASE_DURATION = Duration.ofSeconds(6);

	static final Duration RENEW_DEADLINE = Duration.ofSeconds(4);

	static final Duration RETRY_PERIOD = Duration.ofSeconds(1);

	/** How long the group has to settle and catch up once a fault healed. */
	static final Duration SETTLE = Duration.ofSeconds(30);

	private static final AtomicInteger groups = new AtomicInteger();

	private final RealApiServer server;

	private final String namespace;

	private final DeliveryMode mode;

	private final KubernetesClient admin;

	private final ContractChecker checker;

	private Function<Replica, InvariantListener> listeners = (replica) -> new InvariantListener();

	private BiFunction<Replica, ApplicationContextRunner, ApplicationContextRunner> customizer = (replica,
			runner) -> runner;

	private final List<Replica> replicas = new ArrayList<>();

	private final List<Replica> running = new CopyOnWriteArrayList<>();

	private @Nullable ChangeWriter writer;

	/**
	 * Create the group's namespace and {@code objects} ConfigMaps in it, and a writer of
	 * ConfigMaps.
	 * @param server the server
	 * @param scenario a short name, part of the namespace
	 * @param mode {@code leader} or {@code sharded}
	 * @param objects how many objects exist before any replica starts
	 */
	ReplicaGroup(RealApiServer server, String scenario, DeliveryMode mode, int objects) {
		this(server, scenario, mode, ContractChecker.byResourceVersion());
		Map<String, String> uids = ChangeWriter.createObjects(this.admin, ChangeWriter.Payload.CONFIG_MAP,
				this.namespace, "obj-", objects);
		long seed = Long.getLong("informer.it.seed", new Random().nextLong());
		this.writer = new ChangeWriter(this.admin, this.namespace, seed, uids);
		System.out.println("ReplicaGroup " + this.namespace + ": writer seed " + seed
				+ " (rerun with -Dinformer.it.seed=" + seed + ")");
	}

	/**
	 * Create the group's namespace only; the test makes its writer ({@link #writer}).
	 * @param server the server
	 * @param scenario a short name, part of the namespace
	 * @param mode the delivery mode
	 * @param checker the checker of the replicas' ConfigMaps
	 */
	ReplicaGroup(RealApiServer server, String scenario, DeliveryMode mode, ContractChecker checker) {
		this.server = server;
		this.checker = checker;
		String name = DeliveryOptions.leaseName("f" + groups.incrementAndGet() + "-" + scenario);
		this.namespace = DeliveryOptions.leaseName(name.substring(0, Math.min(name.length(), 63)));
		this.mode = mode;
		this.admin = server.adminClient();
		TestResources.createNamespaces(this.admin, this.namespace);
	}

	/**
	 * Set the listener each replica gets for its ConfigMaps (before it is told its
	 * informer and checker).
	 * @param listeners the listener of each replica
	 * @return this group
	 */
	ReplicaGroup listeners(Function<Replica, InvariantListener> listeners) {
		this.listeners = listeners;
		return this;
	}

	/**
	 * Add to each replica's context (properties, beans, more listeners).
	 * @param customizer what to add to a replica's runner
	 * @return this group
	 */
	ReplicaGroup customize(BiFunction<Replica, ApplicationContextRunner, ApplicationContextRunner> customizer) {
		this.customizer = customizer;
		return this;
	}

	DeliveryMode mode() {
		return this.mode;
	}

	String namespace() {
		return this.namespace;
	}

	KubernetesClient admin() {
		return this.admin;
	}

	ChangeWriter writer() {
		return Objects.requireNonNull(this.writer);
	}

	/**
	 * Set the writer of ConfigMaps, which the group closes.
	 * @param writer the writer
	 */
	void writer(ChangeWriter writer) {
		this.writer = writer;
	}

	ContractChecker checker() {
		return this.checker;
	}

	/**
	 * Declare a replica; it starts with {@link #run}.
	 * @param identity its identity
	 * @param clock its {@code informerClock}, or {@code null} for the system's
	 * @return the replica
	 */
	Replica replica(String identity, @Nullable Clock clock) {
		try {
			TcpProxy proxy = this.server.newProxy();
			Replica replica = new Replica(identity, proxy, new LeaseDelay(), clock,
					this.server.adminConfigThrough(proxy));
			this.replicas.add(replica);
			return replica;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	Replica replica(String identity) {
		return replica(identity, null);
	}

	/**
	 * Start the replicas one after the other, run {@code body} while they run, then stop
	 * them.
	 */
	void run(List<Replica> replicas, Runnable body) {
		if (replicas.isEmpty()) {
			body.run();
			return;
		}
		Replica first = replicas.get(0);
		runner(first).run((context) -> {
			assertThat(context).as("replica %s", first.identity).hasNotFailed();
			first.context = context;
			this.running.add(first);
			try {
				run(replicas.subList(1, replicas.size()), body);
			}
			finally {
				this.running.remove(first);
			}
		});
	}

	/**
	 * Stop one running replica, as a pod that leaves the group.
	 */
	void stop(Replica replica) {
		this.running.remove(replica);
		Objects.requireNonNull(replica.context).close();
	}

	List<String> runningIdentities() {
		return this.running.stream().map((r) -> r.identity).sorted().toList();
	}

	/**
	 * Wait until the group agrees on its roles: one leader and standbys that know it, or
	 * every running replica a member of a group of exactly the running replicas.
	 */
	void awaitSettled(String when) {
		if (this.mode == DeliveryMode.ALL) {
			return;
		}
		await().atMost(SETTLE).untilAsserted(() -> assertThat(roles()).as("roles %s", when).isEqualTo(settledRoles()));
	}

	private Map<String, String> roles() {
		Map<String, String> roles = new LinkedHashMap<>();
		for (Replica replica : this.running) {
			DeliverySnapshot snapshot = replica.snapshot();
			roles.put(replica.identity,
					(this.mode == DeliveryMode.LEADER)
							? snapshot.leadership().role() + " holder=" + snapshot.leadership().leaseHolder()
							: snapshot.sharding().role() + " members=" + snapshot.sharding().members());
		}
		return roles;
	}

	private Map<String, String> settledRoles() {
		Map<String, String> roles = new LinkedHashMap<>();
		String leader = this.running.stream()
			.filter((r) -> r.snapshot().leadership() != null && r.snapshot().leadership().role() == DeliveryRole.LEADER)
			.map((r) -> r.identity)
			.findFirst()
			.orElse("(none)");
		for (Replica replica : this.running) {
			roles
				.put(replica.identity,
						(this.mode == DeliveryMode.LEADER)
								? (replica.identity.equals(leader) ? DeliveryRole.LEADER : DeliveryRole.STANDBY)
										+ " holder=" + leader
								: DeliveryRole.MEMBER + " members=" + runningIdentities());
		}
		return roles;
	}

	/**
	 * Wait until the group's folded view equals the server's objects (in {@code all}
	 * mode: each running replica's own view): nothing lost, live or replayed. The writer
	 * must be paused.
	 */
	void awaitNothingLost(String when) {
		awaitEqual(this.checker, () -> writer().serverObjects(), Set::of, ContractChecker.Patience.of(SETTLE, SETTLE),
				"nothing lost " + when + " (writer seed " + writer().seed() + ")");
	}

	/**
	 * Wait until the events of one informer, folded by its checker, equal the server's
	 * objects: the group's events in {@code leader} and {@code sharded} mode, each
	 * running replica's alone in {@code all} mode.
	 * @param checker the informer's checker
	 * @param objects the server's objects, read on each poll
	 * @param notDeliverable the keys of objects that cannot be decoded, from the writer
	 * @param patience how long to wait
	 * @param description what is checked, for the failure
	 */
	void awaitEqual(ContractChecker checker, Supplier<List<? extends HasMetadata>> objects,
			Supplier<Set<String>> notDeliverable, ContractChecker.Patience patience, String description) {
		Supplier<Map<String, ContractChecker.ServerObject>> server = () -> checker.serverState(objects.get());
		if (this.mode != DeliveryMode.ALL) {
			checker.awaitEqual(server, notDeliverable, (replica) -> true, patience, description);
			return;
		}
		for (Replica replica : this.running) {
			checker.awaitEqual(server, notDeliverable, replica.identity::equals, patience,
					description + ", replica " + replica.identity);
		}
	}

	/**
	 * A fault-free steady state: with the group settled, let the writer make
	 * {@code changes} changes, then check that each was published live exactly once, by
	 * its owner (the leader; the member whose range holds the object's uid hash).
	 */
	void assertSteadyState(String when, int changes) {
		ChangeWriter writer = writer();
		writer.pause();
		awaitSettled(when);
		List<String> members = runningIdentities();
		String leader = (this.mode == DeliveryMode.LEADER) ? leader().identity : null;
		int from = writer.count();
		writer.resume();
		await().atMost(Duration.ofSeconds(30)).until(() -> writer.count() >= from + changes);
		writer.pause();
		List<ChangeWriter.Change> window = writer.changes().subList(from, writer.count());
		awaitNothingLost(when);
		assertThat(roles()).as("roles after the steady state %s", when).isEqualTo(settledRoles());
		List<String> problems = new ArrayList<>();
		for (ChangeWriter.Change change : window) {
			String owner = (leader != null) ? leader : ShardOwner.of(change.uid(), members);
			List<ReceivedEvent> live = this.checker.liveEventsOf(change.name())
				.stream()
				.filter((d) -> (change.op() == ChangeWriter.Op.DELETE) ? d.label().equals("deleted")
						: !d.label().equals("deleted")
								&& Long.toString(d.resourceVersion()).equals(change.resourceVersion()))
				.toList();
			List<String> publishers = live.stream().map(ReceivedEvent::replica).toList();
			if (!publishers.equals(List.of(owner))) {
				problems.add(change.op() + " " + change.name() + "@" + change.resourceVersion() + " owned by " + owner
						+ " published live by " + publishers);
			}
		}
		assertThat(problems)
			.as("each change live exactly once by its owner %s (%d changes, writer seed %d)", when, window.size(),
					writer.seed())
			.isEmpty();
	}

	/**
	 * A network blip on one replica while changes flow: changes before, the replica's
	 * proxy frozen for {@code length} (with {@code during} run right after it froze), and
	 * changes after it thawed; then the writer is paused.
	 */
	void blip(Replica replica, Duration length, Runnable during) {
		ChangeWriter writer = writer();
		int before = writer.count();
		writer.resume();
		await().atMost(Duration.ofSeconds(30)).until(() -> writer.count() >= before + 5);
		long thawAt = System.nanoTime() + length.toNanos();
		int held = replica.proxy.getHeld();
		replica.proxy.freeze();
		try {
			during.run();
			holdUntil(thawAt);
		}
		finally {
			replica.proxy.thaw();
		}
		assertThat(replica.proxy.getHeld()).as("connections and chunks the blip on %s held", replica.identity)
			.isGreaterThan(held);
		int healed = writer.count();
		await().atMost(Duration.ofSeconds(30)).until(() -> writer.count() >= healed + 10);
		writer.pause();
	}

	/**
	 * Keep a fault until its end: the length of the fault, not synchronization.
	 */
	static void holdUntil(long nanoTime) {
		long left;
		while ((left = nanoTime - System.nanoTime()) > 0) {
			LockSupport.parkNanos(left);
		}
	}

	/**
	 * Return the running replica that leads.
	 * @return the leader
	 */
	Replica leader() {
		return this.running.stream()
			.filter((r) -> r.snapshot().leadership().role() == DeliveryRole.LEADER)
			.findFirst()
			.orElseThrow(() -> new AssertionError("no leader: " + roles()));
	}

	/**
	 * Return a line that sums up what the group published, for the test's output.
	 * @return the summary
	 */
	String summary() {
		return this.namespace + ": " + writer().count() + " changes (" + writer().failures() + " failed), published "
				+ this.checker.summary();
	}

	@Override
	public void close() {
		if (this.writer != null) {
			this.writer.close();
		}
		for (Replica replica : this.replicas) {
			replica.closeClient();
		}
		this.admin.close();
	}

	/**
	 * Return the runner of one replica's context: its client, its ConfigMaps' listener,
	 * the group's delivery properties, and what the test added ({@link #customize}).
	 */
	private ApplicationContextRunner runner(Replica replica) {
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, replica::client, (definition) -> definition.setDestroyMethodName(""))
			.withBean("contractListener", InvariantListener.class, () -> listener(replica))
			.withPropertyValues("informer.replicas.mode=" + this.mode.name().toLowerCase(),
					"informer.replicas.group=" + this.namespace, "informer.replicas.identity=" + replica.identity,
					"informer.replicas.lease-namespace=" + this.namespace,
					"informer.replicas.lease-duration=" + LEASE_DURATION.toMillis() + "ms",
					"informer.replicas.renew-deadline=" + RENEW_DEADLINE.toMillis() + "ms",
					"informer.replicas.retry-period=" + RETRY_PERIOD.toMillis() + "ms",
					"informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + this.namespace,
					"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt");
		Clock clock = replica.clock;
		if (clock != null) {
			runner = runner.withBean(InformerAutoConfiguration.CLOCK_BEAN_NAME, Clock.class, () -> clock);
		}
		return this.customizer.apply(replica, runner);
	}

	private InvariantListener listener(Replica replica) {
		InvariantListener listener = this.listeners.apply(replica)
			.forInformer("configmaps")
			.reportingTo(this.checker, replica.identity);
		return (this.mode != DeliveryMode.ALL) ? listener.withPeers() : listener;
	}

}
