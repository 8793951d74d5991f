package dev.informer.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import org.jspecify.annotations.Nullable;

/**
 * The JDK's {@link HttpClient} on the API server of a kubeconfig, without fabric8's
 * client: what the floors and the stream's writer use. HTTP/2 over TLS, as fabric8's JDK
 * client negotiates it; HTTP/1.1 on a plain-HTTP server (the mock), where HTTP/2 would
 * need an upgrade the server may refuse. Client certificates or a bearer token, as the
 * kubeconfig says.
 */
final class KubeHttp {

	private final HttpClient client;

	private final URI base;

	private final @Nullable String token;

	private KubeHttp(HttpClient client, URI base, @Nullable String token) {
		this.client = client;
		this.base = base;
		this.token = token;
	}

	/**
	 * A client on the API server of the kubeconfig fabric8 finds ({@code -Dkubeconfig} or
	 * {@code KUBECONFIG}).
	 * @return the client
	 * @throws Exception when the kubeconfig's credentials cannot be read
	 */
	static KubeHttp fromKubeconfig() throws Exception {
		return of(Config.autoConfigure(null));
	}

	static KubeHttp of(Config config) throws Exception {
		String master = config.getMasterUrl();
		HttpClient.Builder builder = HttpClient.newBuilder();
		if (master.startsWith("https:")) {
			builder.sslContext(SSLUtils.sslContext(config));
		}
		else {
			builder.version(HttpClient.Version.HTTP_1_1);
		}
		String token = config.getAutoOAuthToken();
		return new KubeHttp(builder.build(), URI.create(master.endsWith("/") ? master : master + "/"),
				(token != null) ? token : config.getOauthToken());
	}

	HttpClient client() {
		return this.client;
	}

	/**
	 * A request to a path of the server, with the credentials.
	 * @param path the path, without a leading slash, with its query
	 * @return the request's builder
	 */
	HttpRequest.Builder request(String path) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(this.base.resolve(path))
			.header("Accept", "application/json");
		if (this.token != null) {
			builder.header("Authorization", "Bearer " + this.token);
		}
		return builder;
	}

}
