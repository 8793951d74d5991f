package dev.informer.benchmarks;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.jspecify.annotations.Nullable;

/**
 * The floors of the per-process benchmark, each a JVM of its own: the same list the
 * informers fetch ({@code resourceVersion=0}), fetched by the JDK's {@link HttpClient}
 * (HTTP/2 over TLS, as fabric8's JDK client) with the kubeconfig's credentials;
 * {@code get} counts the bytes and decodes nothing, {@code decode} decodes the response
 * stream into fabric8's model with {@link KubernetesSerialization} (Jackson reading the
 * {@link InputStream} as it arrives) and keeps the list, so that its heap is the model's.
 * After the sync each watches the namespace from the list's resource version: {@code get}
 * finds the sequence number in each event's bytes, {@code decode} decodes each event into
 * a {@link WatchEvent}. No informer, no cache, no hand-off to another thread.
 * <p>
 * Arguments: {@code get|decode NAMESPACE EXPECTED [--gzip]}, the kubeconfig from
 * {@code -Dkubeconfig}. With {@code --gzip} the requests ask for
 * {@code Accept-Encoding: gzip} and a gzip response is inflated as it arrives.
 */
final class FloorSubject implements SubjectProtocol.Driver {

	private static final byte[] SEQ = ("\"" + Probe.SEQ + "\":\"").getBytes(StandardCharsets.US_ASCII);

	private static final byte[] RESOURCE_VERSION = "\"resourceVersion\":\"".getBytes(StandardCharsets.US_ASCII);

	private final boolean decode;

	private final String namespace;

	private final int expected;

	private final boolean gzip;

	private final SubjectProtocol.Tally tally;

	private final KubernetesSerialization serialization = new KubernetesSerialization();

	private @Nullable KubeHttp http;

	/** The decoded list, held so that the heap histogram counts it. */
	private @Nullable ConfigMapList list;

	private long wireBytes;

	private long bodyBytes;

	private @Nullable String encoding;

	private @Nullable Thread watch;

	private FloorSubject(boolean decode, String namespace, int expected, boolean gzip, SubjectProtocol.Tally tally) {
		this.decode = decode;
		this.namespace = namespace;
		this.expected = expected;
		this.gzip = gzip;
		this.tally = tally;
	}

	public static void main(String[] args) {
		int expected = Integer.parseInt(args[2]);
		SubjectProtocol.Tally tally = new SubjectProtocol.Tally(expected);
		boolean gzip = Arrays.asList(args).contains("--gzip");
		SubjectProtocol.serve(new FloorSubject(args[0].equals("decode"), args[1], expected, gzip, tally), tally);
	}

	@Override
	public void prepare() throws Exception {
		this.list = null;
		if (this.http != null) {
			return;
		}
		this.http = KubeHttp.fromKubeconfig();
		// the first request opens the connection before the sync, as every subject does
		HttpResponse<String> version = this.http.client()
			.send(request("version").build(), HttpResponse.BodyHandlers.ofString());
		if (version.statusCode() != 200) {
			throw new IllegalStateException("GET /version: " + version.statusCode() + " " + version.body());
		}
	}

	@Override
	public void sync() throws Exception {
		HttpResponse<InputStream> response = this.http.client()
			.send(request(collection() + "?resourceVersion=0").build(), HttpResponse.BodyHandlers.ofInputStream());
		if (response.statusCode() != 200) {
			throw new IllegalStateException("list: HTTP " + response.statusCode());
		}
		this.encoding = response.headers().firstValue("content-encoding").orElse("identity");
		CountingInputStream wire = new CountingInputStream(response.body());
		try (CountingInputStream body = new CountingInputStream(
				"gzip".equals(this.encoding) ? new GZIPInputStream(wire, 65536) : wire)) {
			if (this.decode) {
				this.list = this.serialization.unmarshal(body, ConfigMapList.class);
				if (this.list.getItems().size() != this.expected) {
					throw new IllegalStateException(
							"decoded " + this.list.getItems().size() + " of " + this.expected + " objects");
				}
			}
			else {
				byte[] buffer = new byte[65536];
				while (body.read(buffer) >= 0) {
					// counted by the stream
				}
			}
			this.bodyBytes = body.count;
		}
		this.wireBytes = wire.count;
	}

	@Override
	public Map<String, Object> synced() {
		Map<String, Object> pairs = new LinkedHashMap<>();
		pairs.put("items", (this.list != null) ? this.list.getItems().size() : -1);
		pairs.put("bytes", this.wireBytes);
		pairs.put("body_bytes", this.bodyBytes);
		pairs.put("encoding", this.encoding);
		if (this.watch == null) {
			String resourceVersion = (this.list != null) ? this.list.getMetadata().getResourceVersion()
					: currentResourceVersion();
			this.watch = new Thread(() -> watch(resourceVersion), "floor-watch");
			this.watch.setDaemon(true);
			this.watch.start();
		}
		return pairs;
	}

	private String collection() {
		return "api/v1/namespaces/" + this.namespace + "/configmaps";
	}

	private HttpRequest.Builder request(String path) {
		HttpRequest.Builder builder = this.http.request(path);
		if (this.gzip) {
			builder.header("Accept-Encoding", "gzip");
		}
		return builder;
	}

	/** The namespace's resource version now, from a list of at most one object. */
	private String currentResourceVersion() {
		try {
			HttpResponse<InputStream> response = this.http.client()
				.send(request(collection() + "?limit=1").build(), HttpResponse.BodyHandlers.ofInputStream());
			InputStream body = response.body();
			if ("gzip".equals(response.headers().firstValue("content-encoding").orElse(""))) {
				body = new GZIPInputStream(body);
			}
			return this.serialization.unmarshal(body, ConfigMapList.class).getMetadata().getResourceVersion();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Watch from a resource version until the process ends, resuming where a watch the
	 * server closed left off.
	 */
	private void watch(String from) {
		String resourceVersion = from;
		while (true) {
			try {
				HttpResponse<InputStream> response = this.http.client()
					.send(request(collection() + "?watch=true&allowWatchBookmarks=true&timeoutSeconds=3600"
							+ "&resourceVersion=" + resourceVersion)
						.build(), HttpResponse.BodyHandlers.ofInputStream());
				InputStream body = response.body();
				if ("gzip".equals(response.headers().firstValue("content-encoding").orElse(""))) {
					body = new GZIPInputStream(body, 65536);
				}
				try (InputStream events = body) {
					String last = this.decode ? decodeEvents(events) : scanEvents(events);
					resourceVersion = (last != null) ? last : currentResourceVersion();
				}
				System.err.println("floor: the server ended the watch; resuming from " + resourceVersion);
			}
			catch (IOException | RuntimeException ex) {
				System.err.println("floor: watch failed (" + ex + "); resuming");
				resourceVersion = currentResourceVersion();
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	/**
	 * Count the events of a watch without decoding them: the first {@code "seq":"N"} of
	 * each line is its sequence number, the first {@code "resourceVersion":"N"} its
	 * object's resource version (in the server's field order, metadata's comes first;
	 * bookmarks carry one too).
	 * @return the last resource version seen, or {@code null}
	 */
	private @Nullable String scanEvents(InputStream events) throws IOException {
		byte[] buffer = new byte[65536];
		Scan seq = new Scan(SEQ);
		Scan version = new Scan(RESOURCE_VERSION);
		long lastVersion = -1;
		for (int n = events.read(buffer); n >= 0; n = events.read(buffer)) {
			for (int i = 0; i < n; i++) {
				byte b = buffer[i];
				if (b == '\n') {
					seq.reset();
					version.reset();
					continue;
				}
				long value = seq.next(b);
				if (value >= 0) {
					this.tally.updated(value);
				}
				value = version.next(b);
				if (value >= 0) {
					lastVersion = value;
				}
			}
		}
		return (lastVersion >= 0) ? Long.toString(lastVersion) : null;
	}

	/**
	 * Finds the number after the first occurrence of a pattern in a line, one byte at a
	 * time.
	 */
	private static final class Scan {

		private final byte[] pattern;

		private int matched;

		private boolean digits;

		private boolean done;

		private long value;

		Scan(byte[] pattern) {
			this.pattern = pattern;
		}

		void reset() {
			this.matched = 0;
			this.digits = false;
			this.done = false;
		}

		/**
		 * Take the next byte of the line.
		 * @return the number, when this byte ends it, else -1
		 */
		long next(byte b) {
			if (this.done) {
				return -1;
			}
			if (this.digits) {
				if (b >= '0' && b <= '9') {
					this.value = this.value * 10 + (b - '0');
					return -1;
				}
				this.done = true;
				return this.value;
			}
			if (b == this.pattern[this.matched]) {
				if (++this.matched == this.pattern.length) {
					this.digits = true;
					this.value = 0;
				}
			}
			else {
				this.matched = (b == this.pattern[0]) ? 1 : 0;
			}
			return -1;
		}

	}

	/**
	 * Decode each line of a watch into a {@link WatchEvent}.
	 * @return the resource version of the last event, or {@code null}
	 */
	private @Nullable String decodeEvents(InputStream events) throws IOException {
		byte[] buffer = new byte[65536];
		byte[] line = new byte[8192];
		int length = 0;
		String resourceVersion = null;
		for (int n = events.read(buffer); n >= 0; n = events.read(buffer)) {
			int start = 0;
			for (int i = 0; i < n; i++) {
				if (buffer[i] == '\n') {
					line = append(line, length, buffer, start, i - start);
					length += i - start;
					String version = decodeEvent(line, length);
					resourceVersion = (version != null) ? version : resourceVersion;
					length = 0;
					start = i + 1;
				}
			}
			line = append(line, length, buffer, start, n - start);
			length += n - start;
		}
		return resourceVersion;
	}

	private @Nullable String decodeEvent(byte[] line, int length) {
		WatchEvent event = this.serialization.unmarshal(new java.io.ByteArrayInputStream(line, 0, length),
				WatchEvent.class);
		if (event.getObject() instanceof ConfigMap configMap) {
			if ("MODIFIED".equals(event.getType())) {
				this.tally.updated((configMap.getData() != null) ? configMap.getData().get(Probe.SEQ) : null);
			}
			return configMap.getMetadata().getResourceVersion();
		}
		return null;
	}

	private static byte[] append(byte[] line, int length, byte[] from, int offset, int count) {
		byte[] target = (length + count > line.length) ? Arrays.copyOf(line, Math.max(line.length * 2, length + count))
				: line;
		System.arraycopy(from, offset, target, length, count);
		return target;
	}

	/** Counts what is read through it. */
	static final class CountingInputStream extends FilterInputStream {

		long count;

		CountingInputStream(InputStream in) {
			super(in);
		}

		@Override
		public int read() throws IOException {
			int b = super.read();
			if (b >= 0) {
				this.count++;
			}
			return b;
		}

		@Override
		public int read(byte[] b, int off, int len) throws IOException {
			int n = super.read(b, off, len);
			if (n > 0) {
				this.count += n;
			}
			return n;
		}

	}

	static List<String> arguments(boolean decode, String namespace, int expected, boolean gzip) {
		List<String> arguments = new java.util.ArrayList<>(
				List.of(decode ? "decode" : "get", namespace, Integer.toString(expected)));
		if (gzip) {
			arguments.add("--gzip");
		}
		return arguments;
	}

}
