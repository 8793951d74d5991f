package dev.informer.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The API server's memory when many informers start at once, with and without watch-list:
 * for each measurement a fresh kube-apiserver and etcd, one namespace of ConfigMaps, then
 * the given number of raw fabric8 informers on it started together. Prints the
 * kube-apiserver's peak resident memory ({@code VmHWM}, reset through
 * {@code /proc/<pid>/clear_refs} just before the informers start) and the time until the
 * last of them synced. Arguments: informers, objects, repetitions (each repetition
 * measures both, in alternating order).
 */
final class ServerMemoryProfile {

	private ServerMemoryProfile() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 3) {
			throw new IllegalArgumentException(
					"Usage: ServerMemoryProfile 20 10000 3 (informers, objects, repetitions)");
		}
		int informers = Integer.parseInt(args[0]);
		int size = Integer.parseInt(args[1]);
		int repetitions = Integer.parseInt(args[2]);
		for (int rep = 0; rep < repetitions; rep++) {
			boolean[] order = (rep % 2 == 0) ? new boolean[] { false, true } : new boolean[] { true, false };
			for (boolean watchList : order) {
				measure(informers, size, watchList, rep);
			}
		}
		System.exit(0);
	}

	private static void measure(int informers, int size, boolean watchList, int rep) throws Exception {
		try (ApiServer server = ApiServer.start(false)) {
			if (!server.isReal()) {
				throw new IllegalStateException("needs the real kube-apiserver (scripts/envtest.sh)");
			}
			Workload workload = new Workload(server, 4);
			try {
				workload.populate(size);
			}
			finally {
				workload.close();
			}
			Config config;
			try (KubernetesClient base = server.newClient()) {
				config = new Config(base.getConfiguration());
			}
			config.setWatchList(watchList);
			try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
				client.getKubernetesVersion();
				long pid = apiServerPid(client.getMasterUrl().getPort());
				Thread.sleep(2000);
				Files.writeString(Path.of("/proc/" + pid + "/clear_refs"), "5");
				long rssBefore = status(pid, "VmRSS:");
				long started = System.nanoTime();
				List<SharedIndexInformer<ConfigMap>> running = new ArrayList<>();
				List<CompletableFuture<Void>> synced = new ArrayList<>();
				for (int i = 0; i < informers; i++) {
					SharedIndexInformer<ConfigMap> informer = client.configMaps()
						.inNamespace(Workload.namespace(size))
						.runnableInformer(0);
					// fabric8 stops an informer whose first list fails;
					// 20 lists at once on a loaded machine sometimes
					// lose their HTTP/2 connection: list again
					informer.exceptionHandler((isStarted, ex) -> {
						System.out.println("  informer failed, retrying: " + ex);
						return true;
					});
					running.add(informer);
					synced.add(informer.start().toCompletableFuture());
				}
				CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
				double ms = (System.nanoTime() - started) / 1e6;
				for (SharedIndexInformer<ConfigMap> informer : running) {
					if (informer.getStore().list().size() != size) {
						throw new IllegalStateException("an informer synced " + informer.getStore().list().size());
					}
				}
				long peak = status(pid, "VmHWM:");
				System.out.printf(
						"rep %d watch-list %-5s informers %d objects %d: all synced in %.0f ms, "
								+ "kube-apiserver RSS before %d MiB, peak %d MiB (+%d MiB)%n",
						rep, watchList, informers, size, ms, rssBefore / 1024, peak / 1024, (peak - rssBefore) / 1024);
				running.forEach(SharedIndexInformer::stop);
			}
		}
	}

	private static long apiServerPid(int port) throws IOException {
		try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
			for (Path process : processes.filter((path) -> path.getFileName().toString().matches("\\d+")).toList()) {
				String cmdline;
				try {
					cmdline = Files.readString(process.resolve("cmdline")).replace('\0', ' ');
				}
				catch (IOException ex) {
					continue;
				}
				if (cmdline.contains("kube-apiserver") && cmdline.matches(".*--secure-port[= ]" + port + "( .*)?")) {
					return Long.parseLong(process.getFileName().toString());
				}
			}
		}
		throw new IllegalStateException("no kube-apiserver process serves port " + port);
	}

	private static long status(long pid, String field) throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
			if (line.startsWith(field)) {
				return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
			}
		}
		throw new IllegalStateException(field + " not in /proc/" + pid + "/status");
	}

}
