package dev.informer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.assertj.core.api.SoftAssertions;
import org.awaitility.core.ConditionTimeoutException;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import dev.informer.DeliveryMode;
import dev.informer.test.ContractChecker;
import dev.informer.test.InvariantListener;

import static org.awaitility.Awaitility.await;

/**
 * One run of a {@link FaultSchedule} for {@link FaultScheduleIT}: its writers (ConfigMaps
 * and Dials), the listeners of each replica (slow, uneven, stalled when the schedule says
 * so, each recording into its informer's {@link ContractChecker}), what each replica's
 * context gets besides (the Dials' informer, {@code on-change}, a rejecting executor),
 * the faults it injects and heals, and the checks at quiescence.
 */
final class ScheduleRun {

	private final RealApiServer server;

	private final FaultSchedule schedule;

	private final ReplicaGroup group;

	private final ContractChecker configMaps;

	private final ContractChecker dials;

	private final ChangeWriter configMapWriter;

	final ChangeWriter dialWriter;

	private final Map<String, AtomicLong> stalls = new ConcurrentHashMap<>();

	/** One lock per channel of a replica (and the server's): see {@link #inject}. */
	private final Map<String, Object> channels = new ConcurrentHashMap<>();

	private final List<Map.Entry<String, InvariantListener>> listeners = new CopyOnWriteArrayList<>();

	ScheduleRun(RealApiServer server, FaultSchedule schedule, ReplicaGroup group, ContractChecker configMaps,
			ContractChecker dials, KubernetesClient writes) {
		this.server = server;
		this.schedule = schedule;
		this.group = group;
		this.configMaps = configMaps;
		this.dials = dials;
		String namespace = group.namespace();
		long seed = schedule.seed();
		this.configMapWriter = new ChangeWriter(writes, ChangeWriter.Payload.CONFIG_MAP, namespace, seed,
				ChangeWriter.createObjects(group.admin(), ChangeWriter.Payload.CONFIG_MAP, namespace, "obj-", 20),
				ChangeWriter.Mix.of(ChangeWriter.Op.CREATE, 3, ChangeWriter.Op.UPDATE, 4, ChangeWriter.Op.LABEL, 3,
						ChangeWriter.Op.DELETE, 2, ChangeWriter.Op.RECREATE, 2),
				Duration.ofMillis(150), "w-");
		group.writer(this.configMapWriter);
		boolean undecodable = schedule.setup().undecodable();
		this.dialWriter = new ChangeWriter(writes, ChangeWriter.Payload.DIAL, namespace, seed + 1,
				ChangeWriter.createObjects(group.admin(), ChangeWriter.Payload.DIAL, namespace, "dial-", 6),
				ChangeWriter.Mix.of(ChangeWriter.Op.CREATE, 2, ChangeWriter.Op.UPDATE, 4, ChangeWriter.Op.LABEL, 2,
						ChangeWriter.Op.DELETE, 1, ChangeWriter.Op.RECREATE, 1, ChangeWriter.Op.UNDECODABLE,
						undecodable ? 1 : 0, ChangeWriter.Op.CREATE_UNDECODABLE, undecodable ? 1 : 0),
				Duration.ofMillis(400), "d-");
	}

	/**
	 * The listener of one informer on one replica: slow and uneven, stalled while the
	 * schedule stalls its replica.
	 */
	InvariantListener listener(Replica replica, String informer, ContractChecker checker) {
		AtomicLong stall = this.stalls.computeIfAbsent(replica.identity, (id) -> new AtomicLong());
		InvariantListener listener = new InvariantListener(
				this.schedule.seed() + replica.identity.hashCode() + informer.hashCode(), Duration.ZERO,
				this.schedule.setup().listenerWork())
			.forInformer(informer)
			.reportingTo(checker, replica.identity)
			.withWork(() -> ReplicaGroup.holdUntil(stall.get()));
		if (this.group.mode() != DeliveryMode.ALL) {
			listener.withPeers();
		}
		if (this.schedule.onChange()) {
			listener.filtering();
		}
		this.listeners.add(Map.entry(informer + " of " + replica.identity, listener));
		return listener;
	}

	ApplicationContextRunner customize(Replica replica, ApplicationContextRunner runner) {
		String namespace = this.group.namespace();
		FaultSchedule.Setup setup = this.schedule.setup();
		runner = runner.withBean("dialListener", InvariantListener.class, () -> listener(replica, "dials", this.dials))
			.withPropertyValues("informer.resources.dials.api-version=example.com/v1",
					"informer.resources.dials.kind=Dial", "informer.resources.dials.type=" + Dial.class.getName(),
					"informer.resources.dials.namespaces=" + namespace, "informer.reliability.replace-stalled-after="
							+ FaultScheduleIT.REPLACE_STALLED_AFTER.toSeconds() + "s",
					"informer.startup.timeout=30s");
		if (this.schedule.onChange()) {
			runner = runner.withPropertyValues("informer.resources.configmaps.on-change=" + setup.configMapsOnChange(),
					"informer.resources.dials.on-change=spec");
		}
		if (setup.rejectingExecutor()) {
			runner = runner.withBean("listenerExecutor", ThreadPoolTaskExecutor.class, () -> {
				// one thread and no queue: busy means rejected
				ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
				executor.setCorePoolSize(1);
				executor.setMaxPoolSize(1);
				executor.setQueueCapacity(0);
				executor.setThreadNamePrefix("listeners-" + replica.identity + "-");
				return executor;
			}).withPropertyValues("informer.listeners.executor=listenerExecutor");
		}
		return runner;
	}

	/**
	 * Write while the faults happen, heal, then check.
	 */
	void inject(List<Replica> replicas, String replay) {
		long started = System.nanoTime();
		this.group.awaitSettled("at startup");
		this.configMapWriter.resume();
		this.dialWriter.resume();
		long t0 = System.nanoTime();
		ScheduledExecutorService faults = Executors.newScheduledThreadPool(this.schedule.steps().size() + 1);
		List<Future<?>> injected = new ArrayList<>();
		for (FaultSchedule.Step step : this.schedule.steps()) {
			injected.add(faults.schedule(() -> inject(step, replicas.get(step.replica()), t0), step.at().toMillis(),
					TimeUnit.MILLISECONDS));
		}
		ReplicaGroup.holdUntil(t0 + FaultSchedule.WRITING.toNanos());
		this.configMapWriter.pause();
		this.dialWriter.pause();
		SoftAssertions softly = new SoftAssertions();
		for (int i = 0; i < injected.size(); i++) {
			FaultSchedule.Step step = this.schedule.steps().get(i);
			Future<?> fault = injected.get(i);
			softly.check(() -> {
				try {
					fault.get(3, TimeUnit.MINUTES);
				}
				catch (Exception ex) {
					throw new AssertionError("injecting " + step + " failed: " + ex, ex);
				}
			});
		}
		faults.shutdownNow();
		long healed = System.nanoTime();
		ContractChecker.Patience patience = ContractChecker.Patience.of(FaultScheduleIT.QUIESCENCE,
				FaultScheduleIT.IDLE);
		String seed = "seed " + this.schedule.seed() + ", " + this.schedule.mode().name().toLowerCase() + ", on-change "
				+ this.schedule.onChange() + " (" + replay + ")";
		check(softly, () -> this.group.awaitEqual(this.configMaps, this.configMapWriter::serverObjects, Set::of,
				patience, "ConfigMaps, " + seed));
		check(softly, () -> this.group.awaitEqual(this.dials, this.dialWriter::serverObjects,
				this.dialWriter::notDeliverable, patience, "Dials, " + seed));
		long equal = System.nanoTime();
		for (Map.Entry<String, InvariantListener> listener : this.listeners) {
			softly.assertThat(listener.getValue().firstViolations())
				.as("the %s: events it should not have received (%s)", listener.getKey(), seed)
				.isEmpty();
		}
		System.out.printf(
				"FaultScheduleIT seed %d: settled %.1f s after the start, wrote for %.1f s, faults healed %.1f s "
						+ "later, listeners equal to the server (or given up) %.1f s after that%n",
				this.schedule.seed(), (t0 - started) / 1e9, FaultSchedule.WRITING.toMillis() / 1e3,
				(healed - t0 - FaultSchedule.WRITING.toNanos()) / 1e9, (equal - healed) / 1e9);
		softly.assertAll();
	}

	// an Awaitility timeout is not an AssertionError; collect it as one
	private static void check(SoftAssertions softly, Runnable check) {
		softly.check(() -> {
			try {
				check.run();
			}
			catch (ConditionTimeoutException ex) {
				throw new AssertionError(ex.getMessage(), ex);
			}
		});
	}

	/**
	 * Inject one fault, keep it for its length, and heal it, once the fault before it on
	 * the same channel healed: the schedule keeps them apart by their lengths, but a heal
	 * may take longer (a compaction to wait for), and a path cut again before it was
	 * restored would be restored twice (seed -7966229702793444152: the second restore
	 * failed to bind the proxy's port, open again).
	 */
	private void inject(FaultSchedule.Step step, Replica replica, long t0) {
		String channel = (step.fault().channel == FaultSchedule.Channel.SERVER) ? "server"
				: replica.identity + "/" + step.fault().channel;
		synchronized (this.channels.computeIfAbsent(channel, (name) -> new Object())) {
			injectNow(step, replica, t0);
		}
	}

	private void injectNow(FaultSchedule.Step step, Replica replica, long t0) {
		long end = t0 + step.at().plus(step.length()).toNanos();
		switch (step.fault()) {
			case FREEZE -> during(end, replica.proxy::freeze, replica.proxy::thaw);
			case CUT -> during(end, replica.proxy::cut, replica.proxy::restore);
			// the reset is the stand-in for detecting a dead connection (issue 33)
			case BLACK_HOLE -> during(end, replica.proxy::blackHole, replica.proxy::resetBlackHoled);
			case COMPACTION -> during(end, replica.proxy::cut, () -> {
				try {
					awaitCompaction();
				}
				finally {
					replica.proxy.restore();
				}
			});
			case RESTART -> during(end, this.server::killApiServer, this.server::restartApiServer);
			case LEASE_REFUSED -> during(end, replica.leases::refuse, replica.leases::accept);
			case LEASE_SLOW -> during(end, replica.leases::hold, replica.leases::release);
			case LISTENER_STALL -> during(end,
					() -> this.stalls.computeIfAbsent(replica.identity, (id) -> new AtomicLong()).set(end), () -> {
					});
		}
	}

	/**
	 * Wait until etcd compacted past the revision it has now, so that a watch cut before
	 * resumes into 410 Gone; the server may be restarting meanwhile.
	 */
	private void awaitCompaction() {
		KubernetesClient admin = this.group.admin();
		String now = await().atMost(Duration.ofSeconds(60))
			.ignoreExceptions()
			.until(() -> admin.configMaps()
				.inNamespace(this.group.namespace())
				.list()
				.getMetadata()
				.getResourceVersion(), (version) -> version != null);
		await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> RealApiServer.isCompacted(admin, now));
	}

	private static void during(long end, Action inject, Action heal) {
		try {
			inject.run();
			try {
				ReplicaGroup.holdUntil(end);
			}
			finally {
				heal.run();
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Injects or heals a fault.
	 */
	@FunctionalInterface
	private interface Action {

		void run() throws IOException;

	}

}
