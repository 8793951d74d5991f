package dev.informer.benchmarks;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import io.fabric8.kubernetes.client.Config;

import dev.informer.benchmarks.ProcessSubjects.Encoding;
import dev.informer.benchmarks.SubjectProcess.Answer;

/**
 * {@code Accept-Encoding: gzip} against identity for the initial list, on loopback and
 * through a {@link RateLimitedProxy} at 1 Gbit/s and 100 Mbit/s ({@code --compression}).
 * Each variant syncs in a fresh process of its own, as in {@link PerProcessBenchmark}:
 * cold, then warm in the same process; its time and CPU as there, plus the bytes on the
 * wire (the floors) and the CPU the API server (kube-apiserver and etcd, on the same
 * cores) spent meanwhile. Variants: the floors with and without gzip, client-go asking
 * for a JSON list ({@code g-json}) with and without it, and raw fabric8, which never asks
 * for it. Also reports whether the server compresses a watch. Writes
 * {@code compression.md}.
 */
final class CompressionBenchmark {

	/** The paths, by name, with their bandwidth in bit/s (0: loopback, no proxy). */
	private static final Map<String, Long> PATHS = paths();

	/** Variant name to subject and encoding. */
	private static final Map<String, Object[]> VARIANTS = variants();

	private static final String MS = "ms";

	private static final String CPU = "cpu_ms";

	private static final String SERVER = "apiserver_cpu_ms";

	private static final String WIRE = "wire_bytes";

	private CompressionBenchmark() {
	}

	private static Map<String, Long> paths() {
		Map<String, Long> paths = new LinkedHashMap<>();
		paths.put("loopback", 0L);
		paths.put("1 Gbit/s", 1_000_000_000L);
		paths.put("100 Mbit/s", 100_000_000L);
		return paths;
	}

	private static Map<String, Object[]> variants() {
		Map<String, Object[]> variants = new LinkedHashMap<>();
		variants.put("floor-get identity", new Object[] { "floor-get", Encoding.IDENTITY });
		variants.put("floor-get gzip", new Object[] { "floor-get", Encoding.GZIP });
		variants.put("floor-decode identity", new Object[] { "floor-decode", Encoding.IDENTITY });
		variants.put("floor-decode gzip", new Object[] { "floor-decode", Encoding.GZIP });
		variants.put("g-json identity", new Object[] { "g-json", Encoding.IDENTITY });
		variants.put("g-json gzip", new Object[] { "g-json", Encoding.GZIP });
		variants.put("a identity", new Object[] { "a", Encoding.IDENTITY });
		return variants;
	}

	static String run(Options options) throws Exception {
		Path output = options.output().toAbsolutePath();
		Path directory = output.resolve("compression");
		Files.createDirectories(directory);
		try (ApiServer server = ApiServer.start(options.mock())) {
			String yaml = server.kubeConfigYaml();
			if (yaml == null) {
				String skipped = "SKIPPED: the compression benchmark needs the real API server (the mock server does "
						+ "not compress); this run has " + server.label() + "\n";
				Files.writeString(output.resolve("compression.md"), skipped);
				return skipped;
			}
			Workload workload = new Workload(server, 4);
			try {
				for (int size : options.sizes()) {
					workload.populate(size);
				}
			}
			finally {
				workload.close();
			}
			GoSubject go = GoSubject.build(options.perProcess().go(), output.resolve("go"));
			Config config = Config.fromKubeconfig(yaml);
			URI master = URI.create(config.getMasterUrl());
			String watchEncoding = watchEncoding(config, Workload.namespace(options.sizes().get(0)));
			List<Measurement> measurements = new ArrayList<>();
			List<String> variants = VARIANTS.keySet()
				.stream()
				.filter((variant) -> go.available() || !variant.startsWith("g"))
				.toList();
			String loadBefore = PerProcessBenchmark.loadAverage();
			for (Map.Entry<String, Long> path : PATHS.entrySet()) {
				RateLimitedProxy proxy = (path.getValue() > 0)
						? new RateLimitedProxy(master.getHost(), master.getPort(), path.getValue()) : null;
				try {
					String pathYaml = (proxy != null) ? yaml.replace(":" + master.getPort(), ":" + proxy.port()) : yaml;
					Path kubeConfig = directory.resolve("kubeconfig-" + path.getValue() + ".yaml");
					Files.writeString(kubeConfig, pathYaml);
					ProcessSubjects subjects = new ProcessSubjects(kubeConfig, System.getProperty("java.class.path"),
							SeedPython.install(output.resolve("seed-venv")), go, List.of(), directory);
					for (int size : options.sizes()) {
						for (int rep = -options.warmups(); rep < options.repetitions(); rep++) {
							List<String> order = new ArrayList<>(variants);
							Collections.rotate(order, Math.floorMod(rep, order.size()));
							for (String variant : order) {
								measure(subjects, variant, path.getKey(), size, rep, directory.resolve("logs"),
										measurements);
							}
						}
					}
				}
				finally {
					if (proxy != null) {
						proxy.close();
					}
				}
			}
			String markdown = markdown(new Summary(measurements, List.of()), options, variants, watchEncoding,
					server.label(), loadBefore, go.status());
			Files.writeString(output.resolve("compression.md"), markdown);
			return markdown;
		}
	}

	private static void measure(ProcessSubjects subjects, String variant, String path, int size, int rep, Path logs,
			List<Measurement> measurements) throws Exception {
		String id = (String) VARIANTS.get(variant)[0];
		Encoding encoding = (Encoding) VARIANTS.get(variant)[1];
		String subject = variant + " @ " + path;
		String tag = "compression-" + path.replaceAll("[^0-9a-zA-Z]", "") + "-" + size + "-r" + rep;
		try (SubjectProcess process = subjects.launch(id, Workload.namespace(size), size, tag, logs, encoding)) {
			process.await("READY", Duration.ofMinutes(5));
			for (String phase : new String[] { "cold", "warm" }) {
				if (phase.equals("warm")) {
					process.ask("prepare", "READY", Duration.ofMinutes(5));
				}
				LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
				ProcStat.Sample before = process.stat();
				long serverBefore = ProcStat.apiServerCpuNanos();
				Answer synced = process.ask("sync", "SYNCED", Duration.ofMinutes(10));
				long serverAfter = ProcStat.apiServerCpuNanos();
				if (rep >= 0) {
					measurements.add(new Measurement(size, subject, rep, phase + "_" + MS, synced.number("ms")));
					measurements.add(new Measurement(size, subject, rep, phase + "_" + CPU,
							(synced.stat().cpuNanos() - before.cpuNanos()) / 1e6));
					measurements.add(new Measurement(size, subject, rep, phase + "_" + SERVER,
							(serverAfter - serverBefore) / 1e6));
					if (synced.values().containsKey("bytes")) {
						measurements.add(new Measurement(size, subject, rep, WIRE, synced.number("bytes")));
					}
				}
				Harness.log("compression %d r%d %s %s: %s ms, %s", size, rep, subject, phase, synced.values().get("ms"),
						synced.values().getOrDefault("encoding", ""));
			}
		}
	}

	/** Ask for a watch with gzip and see what the server answers. */
	private static String watchEncoding(Config config, String namespace) {
		try {
			KubeHttp http = KubeHttp.of(config);
			HttpResponse<InputStream> response = http.client()
				.send(http.request("api/v1/namespaces/" + namespace + "/configmaps?watch=true&timeoutSeconds=1")
					.header("Accept-Encoding", "gzip")
					.build(), HttpResponse.BodyHandlers.ofInputStream());
			try (InputStream body = response.body()) {
				body.readAllBytes();
			}
			return response.headers().firstValue("content-encoding").orElse("identity (no Content-Encoding)");
		}
		catch (Exception ex) {
			return "unknown (" + ex + ")";
		}
	}

	private static String markdown(Summary summary, Options options, List<String> variants, String watchEncoding,
			String server, String loadBefore, String go) {
		StringBuilder md = new StringBuilder();
		md.append(String.format(Locale.ROOT,
				"Compression on %s: each variant in a fresh process per repetition (%d discarded + %d measured, order "
						+ "rotated), a cold and a warm list-to-synced as in the per-process benchmark; the paths other "
						+ "than loopback go through a TCP proxy limiting each direction to the bandwidth. Client CPU: "
						+ "the subject's utime + stime; server CPU: kube-apiserver + etcd over the same sync. "
						+ "Median [min–max]. Load average before: %s; after: %s.%n"
						+ "A watch asked for with `Accept-Encoding: gzip` is answered with Content-Encoding: %s.%n"
						+ "fabric8 8.0.0 neither asks for gzip nor inflates a gzip body, so (a) is measured with identity "
						+ "only. client-go: %s.%n%n",
				server, options.warmups(), options.repetitions(), loadBefore, PerProcessBenchmark.loadAverage(),
				watchEncoding, go));
		md.append("| size | path | variant | cold ms | warm ms | warm client CPU ms | warm server CPU ms "
				+ "| bytes on the wire |\n|---:|---|---|---:|---:|---:|---:|---:|\n");
		for (int size : options.sizes()) {
			for (String path : PATHS.keySet()) {
				for (String variant : variants) {
					String subject = variant + " @ " + path;
					md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s | %s |%n", size, path,
							variant, Summary.format(summary.get(size, subject, "cold_" + MS)),
							Summary.format(summary.get(size, subject, "warm_" + MS)),
							Summary.format(summary.get(size, subject, "warm_" + CPU)),
							Summary.format(summary.get(size, subject, "warm_" + SERVER)),
							Summary.format(summary.get(size, subject, WIRE))));
				}
			}
		}
		return md.toString();
	}

}
