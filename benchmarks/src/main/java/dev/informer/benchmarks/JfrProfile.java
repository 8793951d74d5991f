package dev.informer.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a profiled subject's time and allocation went, from the flight recordings of the
 * per-process benchmark ({@code --profile=}) cut to the measured windows the harness
 * noted in {@code windows.tsv} (recording, subject, phase, size, repetition, objects or
 * events, from and to in epoch milliseconds). For each subject, phase and size, summed
 * over the repetitions: Java execution samples by component (each sample goes to the
 * component of the innermost frame that is not plain JDK code: {@code java.lang},
 * {@code java.util} outside {@code java.util.concurrent}, {@code java.io},
 * {@code java.nio} and the like are transparent, so {@code StringBuffer.append} called by
 * fabric8's watch counts for fabric8's watch), the hottest methods on top of the stack
 * and anywhere on it, by thread, and sampled allocation by class, component and site; GC
 * pauses and JIT compilation in the windows. Run alone:
 * {@code java -cp ... dev.informer.benchmarks.JfrProfile target/per-process/profile/windows.tsv}.
 */
final class JfrProfile {

	/** Package prefix to component, the first match wins. */
	private static final String[][] COMPONENTS = {
			{ "io.fabric8.kubernetes.client.utils.KubernetesSerialization", "fabric8 serialization" },
			{ "io.fabric8.kubernetes.api.model.", "fabric8 model" },
			{ "io.fabric8.kubernetes.model.", "fabric8 model" },
			{ "io.fabric8.kubernetes.client.informers.", "fabric8 informer (reflector, store, processor)" },
			{ "io.fabric8.kubernetes.client.dsl.", "fabric8 list/watch operations" },
			{ "io.fabric8.kubernetes.client.jdkhttp.", "fabric8 HTTP adapter" },
			{ "io.fabric8.kubernetes.client.http.", "fabric8 HTTP adapter" }, { "io.fabric8.", "fabric8 other" },
			{ "tools.jackson.", "Jackson" }, { "com.fasterxml.jackson.", "Jackson" },
			{ "jdk.internal.net.http.", "JDK HttpClient (HTTP/2, WebSocket)" },
			{ "java.net.http.", "JDK HttpClient (HTTP/2, WebSocket)" }, { "sun.security.", "TLS" },
			{ "javax.crypto.", "TLS" }, { "com.sun.crypto.", "TLS" },
			{ "java.util.concurrent.", "JDK concurrency (queues, locks, executors)" },
			{ "dev.informer.benchmarks.", "benchmark subject (counting)" },
			{ "dev.informer.runtime.CachingItemStore", "starter: store and delivery bookkeeping" },
			{ "dev.informer.runtime.DeliveryTracker", "starter: store and delivery bookkeeping" },
			{ "dev.informer.runtime.CombinedCache", "starter: store and delivery bookkeeping" },
			{ "dev.informer.runtime.Delivery", "starter: delivery queue, hand-off and publish" },
			{ "dev.informer.runtime.ListenerThreads", "starter: delivery queue, hand-off and publish" },
			{ "dev.informer.runtime.InformerEventPublisher", "starter: delivery queue, hand-off and publish" },
			{ "dev.informer.runtime.InformerListenerMethodAdapter", "starter: delivery queue, hand-off and publish" },
			{ "dev.informer.runtime.MdcListenerScope", "starter: delivery queue, hand-off and publish" },
			{ "dev.informer.runtime.changes.", "starter: change filter" },
			{ "dev.informer.metrics.", "starter: metrics and observation" },
			{ "dev.informer.observation.", "starter: metrics and observation" },
			{ "dev.informer.event.", "starter: events" }, { "dev.informer.runtime.", "starter: runtime, other" },
			{ "dev.informer.", "starter, other" }, { "org.springframework.context.event.", "Spring event multicast" },
			{ "org.springframework.", "Spring" }, { "io.micrometer.", "Micrometer" },
			{ "io.prometheus.", "Micrometer" }, { "org.slf4j.", "logging" }, { "ch.qos.logback.", "logging" },
			{ "org.apache.logging.", "logging" } };

	/**
	 * The questions of issue 26, each a label and the frames (a substring of
	 * {@code package.Class.method}) whose presence anywhere on a stack puts the sample or
	 * the allocation in it; the shares overlap.
	 */
	private static final String[][] QUESTIONS = {
			{ "whole-body buffering: fabric8 copies the response's buffers, then into one array",
					"client.http.BufferUtil.", "ByteArrayBodyHandler.onBodyDone" },
			{ "everything after the last byte (decode and store under ByteArrayBodyHandler.onBodyDone)",
					"ByteArrayBodyHandler.onBodyDone" },
			{ "tree-then-bind: KubernetesDeserializer reads a JsonNode tree, then binds from it",
					"KubernetesDeserializer.fromObjectNode" },
			{ "  of which reading the tree", "DeserializationContext.readTree" },
			{ "  of which binding from the tree", "KubernetesDeserializer.readTreeAsValue" },
			{ "managedFields' fieldsV1 decoded as nested maps (UntypedObjectDeserializer)",
					"deser.jdk.UntypedObjectDeserializer" },
			{ "Jackson's any-setter call by MethodHandle (AnnotatedMethod.callOnWith)", "AnnotatedMethod.callOnWith" },
			{ "watch message to String and back (WebSocket text, fabric8's onMessage, unmarshal(String))", "websocket.",
					"JdkWebSocketImpl", "WatchHTTPManager", "AbstractWatchManager.onMessage",
					"java.lang.String.getBytes", "java.io.BufferedInputStream.<init>" },
			{ "fabric8 store and its indexes (CacheImpl, BasicItemStore)", "informers.cache.CacheImpl.",
					"informers.cache.BasicItemStore." },
			{ "fabric8 list bookkeeping (Reflector, ProcessorStore: key sets)", "ConcurrentSkipListMap.",
					"impl.cache.Reflector.lambda$processList", "ProcessorStore.lambda$syncList",
					"ProcessorStore.retainAll" },
			{ "fabric8 notifications to handlers (SharedProcessor, ProcessorListener)",
					"informers.impl.cache.SharedProcessor", "informers.impl.cache.ProcessorListener" },
			{ "starter: store, stripping managed fields, delivery tracking", "dev.informer.runtime.CachingItemStore",
					"dev.informer.runtime.DeliveryTracker" },
			{ "starter: delivery queue, publish, Spring multicast", "dev.informer.runtime.DeliveryQueue",
					"dev.informer.runtime.DeliveryCoordinator", "dev.informer.runtime.InformerEventPublisher",
					"org.springframework.context.event." },
			{ "meters (Micrometer)", "io.micrometer." }, { "TLS (sun.security.ssl)", "sun.security.ssl." },
			{ "HTTP/2 frames (Http2Connection)", "jdk.internal.net.http.Http2Connection" },
			{ "hand-off machinery (executors, queues, CompletableFuture)",
					"java.util.concurrent.ThreadPoolExecutor.execute", "java.util.concurrent.LinkedBlockingQueue.",
					"java.util.concurrent.CompletableFuture.postFire", "java.util.concurrent.locks.",
					"SerialExecutor.execute", "SerialExecutor.scheduleNext" } };

	private JfrProfile() {
	}

	/** Whether any Java frame of the stack matches one of the question's patterns. */
	private static boolean matches(RecordedStackTrace stack, String[] question) {
		if (stack == null) {
			return false;
		}
		for (RecordedFrame frame : stack.getFrames()) {
			if (frame.isJavaFrame()) {
				String name = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
				for (int i = 1; i < question.length; i++) {
					if (name.contains(question[i])) {
						return true;
					}
				}
			}
		}
		return false;
	}

	public static void main(String[] args) throws IOException {
		System.out.println(summarize(Path.of(args[0])));
	}

	/**
	 * Summarize every window of a {@code windows.tsv}.
	 * @param windowsFile the windows
	 * @return the markdown
	 * @throws IOException on failure to read a recording
	 */
	static String summarize(Path windowsFile) throws IOException {
		if (!Files.isRegularFile(windowsFile)) {
			return "No profiled windows (" + windowsFile + ")\n";
		}
		// recording -> its windows, and (subject, phase, size) -> one profile
		Map<Path, List<Window>> byRecording = new LinkedHashMap<>();
		Map<String, Profile> profiles = new TreeMap<>();
		for (String line : Files.readAllLines(windowsFile, StandardCharsets.UTF_8)) {
			String[] f = line.split("\t");
			if (f.length < 8) {
				continue;
			}
			String key = "(" + f[1] + ") " + f[2] + ", " + f[3] + " objects";
			Profile profile = profiles.computeIfAbsent(key, Profile::new);
			profile.windows++;
			profile.units += Long.parseLong(f[5]);
			byRecording.computeIfAbsent(Path.of(f[0]), (p) -> new ArrayList<>())
				.add(new Window(Instant.ofEpochMilli(Long.parseLong(f[6])), Instant.ofEpochMilli(Long.parseLong(f[7])),
						profile));
		}
		for (Map.Entry<Path, List<Window>> entry : byRecording.entrySet()) {
			if (!Files.isRegularFile(entry.getKey())) {
				continue;
			}
			try (RecordingFile recording = new RecordingFile(entry.getKey())) {
				while (recording.hasMoreEvents()) {
					RecordedEvent event = recording.readEvent();
					for (Window window : entry.getValue()) {
						if (!event.getStartTime().isBefore(window.from) && event.getStartTime().isBefore(window.to)) {
							window.profile.add(event);
						}
					}
				}
			}
		}
		StringBuilder md = new StringBuilder();
		profiles.values().forEach((profile) -> profile.markdown(md));
		return md.toString();
	}

	static String component(String className) {
		for (String[] component : COMPONENTS) {
			if (className.startsWith(component[0])) {
				return component[1];
			}
		}
		return null;
	}

	/** The innermost frame outside plain JDK code, or the innermost frame. */
	private static RecordedFrame owner(RecordedStackTrace stack) {
		for (RecordedFrame frame : stack.getFrames()) {
			if (frame.isJavaFrame() && component(frame.getMethod().getType().getName()) != null) {
				return frame;
			}
		}
		return stack.getFrames().isEmpty() ? null : stack.getFrames().get(0);
	}

	private static String method(RecordedFrame frame) {
		String type = frame.getMethod().getType().getName();
		return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
	}

	/**
	 * The innermost frame, then the first frame of each further component outwards: who
	 * called into what, such as {@code ConcurrentHashMap.get ← [Jackson]
	 * DeserializerCache.x ← [fabric8 serialization] KubernetesSerialization.unmarshal}.
	 */
	private static String excerpt(RecordedStackTrace stack, int components) {
		if (stack == null || stack.getFrames().isEmpty()) {
			return "no stack";
		}
		StringBuilder excerpt = new StringBuilder(method(stack.getFrames().get(0)));
		String current = null;
		int seen = 0;
		for (RecordedFrame frame : stack.getFrames()) {
			if (!frame.isJavaFrame()) {
				continue;
			}
			String component = component(frame.getMethod().getType().getName());
			if (component != null && !component.equals(current)) {
				current = component;
				if (++seen > components) {
					break;
				}
				excerpt.append(" ← [").append(component).append("] ").append(method(frame));
			}
		}
		return excerpt.toString();
	}

	private static String ownerComponent(RecordedStackTrace stack) {
		RecordedFrame owner = (stack != null) ? owner(stack) : null;
		if (owner == null) {
			return "no stack";
		}
		String type = owner.getMethod().getType().getName();
		String component = component(type);
		return (component != null) ? component : "JDK (" + type.substring(0, Math.max(0, type.lastIndexOf('.'))) + ")";
	}

	private record Window(Instant from, Instant to, Profile profile) {
	}

	private static final class Profile {

		private final String name;

		int windows;

		long units;

		long samples;

		double allocated;

		long gcPauses;

		long gcPauseNanos;

		long compileNanos;

		final Map<String, Long> components = new LinkedHashMap<>();

		final Map<String, Long> self = new LinkedHashMap<>();

		final Map<String, Long> inclusive = new LinkedHashMap<>();

		final Map<String, Long> threads = new LinkedHashMap<>();

		final Map<String, Double> allocatedClasses = new LinkedHashMap<>();

		final Map<String, Double> allocatedComponents = new LinkedHashMap<>();

		final Map<String, Double> allocationSites = new LinkedHashMap<>();

		final Map<String, Long> excerpts = new LinkedHashMap<>();

		final long[] questionSamples = new long[QUESTIONS.length];

		final double[] questionBytes = new double[QUESTIONS.length];

		final Map<String, Double> allocationExcerpts = new LinkedHashMap<>();

		Profile(String name) {
			this.name = name;
		}

		void add(RecordedEvent event) {
			switch (event.getEventType().getName()) {
				case "jdk.ExecutionSample" -> sample(event);
				case "jdk.ObjectAllocationSample" -> allocation(event);
				case "jdk.GarbageCollection" -> {
					this.gcPauses++;
					this.gcPauseNanos += event.getDuration("sumOfPauses").toNanos();
				}
				case "jdk.Compilation" -> this.compileNanos += event.getDuration().toNanos();
				default -> {
				}
			}
		}

		private void sample(RecordedEvent event) {
			RecordedStackTrace stack = event.getStackTrace();
			this.samples++;
			this.components.merge(ownerComponent(stack), 1L, Long::sum);
			RecordedThread thread = event.getThread("sampledThread");
			String threadName = (thread != null && thread.getJavaName() != null)
					? thread.getJavaName().replaceAll("\\d+", "N") : "?";
			this.threads.merge(threadName, 1L, Long::sum);
			if (stack == null || stack.getFrames().isEmpty()) {
				return;
			}
			this.self.merge(method(stack.getFrames().get(0)), 1L, Long::sum);
			this.excerpts.merge(excerpt(stack, 3), 1L, Long::sum);
			for (int i = 0; i < QUESTIONS.length; i++) {
				if (matches(stack, QUESTIONS[i])) {
					this.questionSamples[i]++;
				}
			}
			Set<String> seen = new HashSet<>();
			for (RecordedFrame frame : stack.getFrames()) {
				if (frame.isJavaFrame()) {
					String method = method(frame);
					if (seen.add(method)) {
						this.inclusive.merge(method, 1L, Long::sum);
					}
				}
			}
		}

		private void allocation(RecordedEvent event) {
			double weight = event.getLong("weight");
			this.allocated += weight;
			this.allocatedClasses.merge(event.getClass("objectClass").getName(), weight, Double::sum);
			RecordedStackTrace stack = event.getStackTrace();
			this.allocatedComponents.merge(ownerComponent(stack), weight, Double::sum);
			RecordedFrame owner = (stack != null) ? owner(stack) : null;
			if (owner != null) {
				this.allocationSites.merge(method(owner), weight, Double::sum);
			}
			for (int i = 0; i < QUESTIONS.length; i++) {
				if (matches(stack, QUESTIONS[i])) {
					this.questionBytes[i] += weight;
				}
			}
			String type = event.getClass("objectClass").getName();
			this.allocationExcerpts.merge(type.substring(type.lastIndexOf('.') + 1) + " in " + excerpt(stack, 3),
					weight, Double::sum);
		}

		void markdown(StringBuilder md) {
			String unit = this.name.contains("stream") ? "event" : "object";
			md.append(String.format(Locale.ROOT,
					"#### %s: %d windows, %,d execution samples, %.1f MB allocated (%,.0f B per %s), GC pauses %d "
							+ "(%.0f ms), JIT compilation %.0f ms%n%n",
					this.name, this.windows, this.samples, this.allocated / 1e6,
					this.allocated / Math.max(1, this.units), unit, this.gcPauses, this.gcPauseNanos / 1e6,
					this.compileNanos / 1e6));
			md.append("| component | CPU samples | allocation |\n|---|---:|---:|\n");
			Set<String> names = new java.util.LinkedHashSet<>();
			top(this.components, 30).forEach((entry) -> names.add(entry.getKey()));
			top(this.allocatedComponents, 30).forEach((entry) -> names.add(entry.getKey()));
			for (String component : names) {
				md.append(String.format(Locale.ROOT, "| %s | %.1f %% | %.1f %% |%n", component,
						percent(this.components.getOrDefault(component, 0L), this.samples),
						percent(this.allocatedComponents.getOrDefault(component, 0.0), this.allocated)));
			}
			md.append("\n| question (any frame on the stack) | CPU samples | allocation |\n|---|---:|---:|\n");
			for (int i = 0; i < QUESTIONS.length; i++) {
				md.append(String.format(Locale.ROOT, "| %s | %.1f %% | %.1f %% |%n", QUESTIONS[i][0],
						percent(this.questionSamples[i], this.samples),
						percent(this.questionBytes[i], this.allocated)));
			}
			table(md, "top of stack (self)", this.self, this.samples, 15);
			table(md, "anywhere on the stack (inclusive)", this.inclusive, this.samples, 30);
			table(md, "hottest stacks: the innermost frame ← the first frame of each component outwards", this.excerpts,
					this.samples, 20);
			table(md, "thread", this.threads, this.samples, 12);
			tableBytes(md, "allocated class", this.allocatedClasses, 15);
			tableBytes(md, "allocation site (innermost frame outside plain JDK code)", this.allocationSites, 15);
			tableBytes(md, "allocation stacks: class in the innermost frame ← each component outwards",
					this.allocationExcerpts, 20);
			md.append('\n');
		}

		private void table(StringBuilder md, String title, Map<String, Long> counts, long total, int limit) {
			md.append("\n| ").append(title).append(" | samples |\n|---|---:|\n");
			top(counts, limit).forEach((entry) -> md.append(String.format(Locale.ROOT, "| %s | %.1f %% |%n",
					entry.getKey(), percent(entry.getValue(), total))));
		}

		private void tableBytes(StringBuilder md, String title, Map<String, Double> bytes, int limit) {
			md.append("\n| ")
				.append(title)
				.append(" | allocation | B per ")
				.append(this.name.contains("stream") ? "event" : "object")
				.append(" |\n|---|---:|---:|\n");
			top(bytes, limit).forEach((entry) -> md.append(String.format(Locale.ROOT, "| %s | %.1f %% | %,.0f |%n",
					entry.getKey(), percent(entry.getValue(), this.allocated),
					entry.getValue().doubleValue() / Math.max(1, this.units))));
		}

		private static double percent(Number part, double total) {
			return (total > 0) ? 100.0 * part.doubleValue() / total : 0;
		}

		private static <N extends Number> List<Map.Entry<String, N>> top(Map<String, N> counts, int limit) {
			return counts.entrySet()
				.stream()
				.sorted((x, y) -> Double.compare(y.getValue().doubleValue(), x.getValue().doubleValue()))
				.limit(limit)
				.toList();
		}

	}

}
