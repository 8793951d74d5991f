package dev.informer.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.benchmarks.ColdStartJvm.Archive;

/**
 * The subjects of the per-process benchmark and how to launch each in a process of its
 * own: the JVMs with the harness's JDK and class path ({@link ColdStartJvm}), the seed
 * with the Python client the run installs ({@link SeedPython}), client-go as the Go
 * program the run builds ({@link GoSubject}); every one gets the server's kubeconfig.
 * With {@code --profile=} the chosen JVM subjects record a flight recording of every
 * launch.
 */
final class ProcessSubjects {

	/** How a subject's heap per object is measured. */
	enum Heap {

		/** A class histogram of the JVM before the sync and after it. */
		HISTOGRAM,

		/** The subject measures its own cache on {@code heap}. */
		SELF,

		/** Not measured: the subject keeps nothing. */
		NONE

	}

	/** What a subject asks the server for its lists and watches. */
	enum Encoding {

		/**
		 * What the client does by default: identity, except client-go, which asks for
		 * gzip.
		 */
		DEFAULT,

		/** {@code Accept-Encoding: gzip}: the floors and client-go. */
		GZIP,

		/** No compression: client-go with {@code DisableCompression}. */
		IDENTITY

	}

	private static final Map<String, String> DESCRIPTIONS = descriptions();

	private final Path kubeConfig;

	private final String classPath;

	private final Path javaHome;

	private final SeedPython seed;

	private final GoSubject go;

	private final List<String> profiled;

	private final Path recordings;

	private final @Nullable Path settings;

	ProcessSubjects(Path kubeConfig, String classPath, SeedPython seed, GoSubject go, List<String> profiled,
			Path recordings) throws IOException {
		this.kubeConfig = kubeConfig;
		this.classPath = classPath;
		this.javaHome = Path.of(System.getProperty("java.home"));
		this.seed = seed;
		this.go = go;
		this.profiled = profiled;
		this.recordings = recordings;
		this.settings = profiled.isEmpty() ? null : profileSettings(this.javaHome, recordings);
	}

	private static Map<String, String> descriptions() {
		Map<String, String> descriptions = new LinkedHashMap<>();
		descriptions.put("floor-get", "the list by the JDK's HttpClient (HTTP/2, TLS), bytes counted, no decode; "
				+ "the watch's events found by their bytes");
		descriptions.put("floor-decode", "the list by the JDK's HttpClient, its stream decoded into fabric8's model "
				+ "(KubernetesSerialization, Jackson over the InputStream), no informer; each watch event decoded");
		descriptions.put("a", "raw fabric8 " + io.fabric8.kubernetes.client.Version.clientVersion()
				+ " SharedIndexInformer (JDK HttpClient), no-op handler");
		descriptions.put("b", "the starter: Spring Boot application, every auto-configuration of the class path "
				+ "(InformerAutoConfiguration, actuator, Micrometer with Prometheus), one no-op @EventListener");
		descriptions.put("b-c1", "(b) compiling with C1 only (" + StartBenchmark.C1_ONLY + ")");
		descriptions.put("s",
				"the seed: the Python client's SharedInformer (PyPI kubernetes " + SeedPython.PACKAGE_VERSION + ")");
		descriptions.put("g", "client-go v0.37.2 SharedInformerFactory with its defaults: protobuf, the initial "
				+ "state from a watch-list, gzip-encoded responses");
		descriptions.put("g-json", "as (g), asking for what (a), (b) and (s) ask for: JSON, a list and a watch "
				+ "(KUBE_FEATURE_WatchListClient=false), no compression");
		return descriptions;
	}

	static Map<String, String> legend() {
		return DESCRIPTIONS;
	}

	/**
	 * Whether this machine can run the subject.
	 * @param id the subject
	 * @return {@code null} if it can, else why not
	 */
	@Nullable String skipped(String id) {
		if (!DESCRIPTIONS.containsKey(id)) {
			throw new IllegalArgumentException(
					"No per-process subject '" + id + "'; there are " + DESCRIPTIONS.keySet());
		}
		if (id.equals("s") && !this.seed.available()) {
			return this.seed.status();
		}
		if (id.startsWith("g") && !this.go.available()) {
			return this.go.status();
		}
		return null;
	}

	Heap heap(String id) {
		return switch (id) {
			case "floor-get" -> Heap.NONE;
			case "s", "g", "g-json" -> Heap.SELF;
			default -> Heap.HISTOGRAM;
		};
	}

	Path javaHome() {
		return this.javaHome;
	}

	/**
	 * The flight recording of a launch, when the subject is profiled.
	 * @param id the subject
	 * @param tag what the launch measures, such as {@code sync-10000-r0}
	 * @return the recording's file, or {@code null}
	 */
	@Nullable Path recording(String id, String tag) {
		return this.profiled.contains(id) ? this.recordings.resolve(id + "-" + tag + ".jfr") : null;
	}

	/**
	 * Launch a subject.
	 * @param id the subject
	 * @param namespace the namespace it watches
	 * @param expected the objects in it
	 * @param tag what the launch measures, for its log and recording
	 * @param logs where its output goes
	 * @param encoding what it asks the server for (the floors and (g) only; fabric8 and
	 * the Python client never ask for gzip)
	 * @return the process
	 * @throws IOException when it cannot be launched
	 */
	SubjectProcess launch(String id, String namespace, int expected, String tag, Path logs, Encoding encoding)
			throws IOException {
		boolean gzip = encoding == Encoding.GZIP;
		Map<String, String> environment = new LinkedHashMap<>();
		environment.put("KUBECONFIG", this.kubeConfig.toString());
		List<String> command = switch (id) {
			case "floor-get", "floor-decode" -> java(id, FloorSubject.class,
					FloorSubject.arguments(id.equals("floor-decode"), namespace, expected, gzip), tag);
			case "a" -> java(id, Fabric8ProcessSubject.class, List.of(namespace, Integer.toString(expected)), tag);
			case "b" -> java(id, StarterProcessSubject.class, List.of(namespace, Integer.toString(expected)), tag);
			case "b-c1" -> java(id, StarterProcessSubject.class, List.of(namespace, Integer.toString(expected)), tag,
					StartBenchmark.C1_ONLY);
			case "s" -> this.seed.protocolCommand(namespace, expected);
			case "g" -> this.go.command(namespace, expected, false, encoding != Encoding.IDENTITY);
			case "g-json" -> this.go.command(namespace, expected, true, encoding == Encoding.GZIP);
			default -> throw new IllegalArgumentException(id);
		};
		if (id.equals("g-json")) {
			environment.put("KUBE_FEATURE_WatchListClient", "false");
		}
		return SubjectProcess.start(id, command, environment,
				logs.resolve(tag + "-" + id + ((encoding != Encoding.DEFAULT) ? "-" + encoding : "") + ".log"));
	}

	/**
	 * Launch the stream's writer.
	 * @param size the namespace's object count
	 * @param logs where its output goes
	 * @param tag what the launch measures, for its log
	 * @return the process
	 * @throws IOException when it cannot be launched
	 */
	SubjectProcess launchWriter(int size, Path logs, String tag) throws IOException {
		List<String> command = java("writer", WriterProcess.class, List.of(Integer.toString(size)), tag);
		return SubjectProcess.start("writer", command, Map.of(), logs.resolve(tag + "-writer.log"));
	}

	private List<String> java(String id, Class<?> main, List<String> arguments, String tag, String... jvmOptions) {
		List<String> options = new ArrayList<>(List.of(jvmOptions));
		options.add("-Dkubeconfig=" + this.kubeConfig);
		Path recording = recording(id, tag);
		if (recording != null) {
			options.add("-XX:StartFlightRecording=filename=" + recording + ",settings=" + this.settings);
		}
		return new ColdStartJvm(id, main, this.javaHome, Archive.NONE).command(options, this.classPath, arguments);
	}

	/**
	 * The JDK's {@code profile} settings with denser samples: Java execution every 2 ms
	 * instead of 10, allocation samples up to 1000/s instead of 300.
	 */
	private static Path profileSettings(Path javaHome, Path directory) throws IOException {
		String profile = Files.readString(javaHome.resolve("lib").resolve("jfr").resolve("profile.jfc"),
				StandardCharsets.UTF_8);
		String dense = profile
			.replace("control=\"method-sampling-java-interval\">10 ms<",
					"control=\"method-sampling-java-interval\">2 ms<")
			.replace("control=\"allocation-profiling\">300/s<", "control=\"allocation-profiling\">1000/s<");
		Files.createDirectories(directory);
		Path settings = directory.resolve("bench-profile.jfc");
		Files.writeString(settings, dense);
		return settings;
	}

}
