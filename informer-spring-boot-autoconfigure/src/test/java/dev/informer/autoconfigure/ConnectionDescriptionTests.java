package dev.informer.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The startup line that names the API server, context and user, and never a credential.
 */
class ConnectionDescriptionTests {

	private static final String TOKEN = "eyJhbGciOi.token-value-that-must-not-be-logged";

	private static final String PASSWORD = "password-that-must-not-be-logged";

	@Test
	void aKubeconfigNamesItsFileContextAndUserButNotTheToken(@TempDir Path directory) throws IOException {
		Path kubeconfig = directory.resolve("config");
		Files.writeString(kubeconfig, """
				apiVersion: v1
				kind: Config
				clusters:
				- name: staging
				  cluster: { server: "https://staging.example.com:6443" }
				users:
				- name: alice
				  user: { token: "%s" }
				contexts:
				- name: staging-alice
				  context: { cluster: staging, user: alice, namespace: orders }
				current-context: staging-alice
				""".formatted(TOKEN));
		String line = describe(Config.fromKubeconfig(kubeconfig.toFile()), null);
		assertThat(line).isEqualTo("Informers use the API server https://staging.example.com:6443/ as user alice "
				+ "(kubeconfig " + kubeconfig + ", context staging-alice, default namespace orders)");
		assertThat(line).doesNotContain(TOKEN);
	}

	@Test
	void basicAuthNamesTheUserButNotThePasswordNorATokenOrKey() {
		Config config = new ConfigBuilder().withMasterUrl("https://10.0.0.1:6443")
			.withUsername("bob")
			.withPassword(PASSWORD)
			.withOauthToken(TOKEN)
			.withClientKeyData("a2V5LWRhdGE=")
			.withImpersonateUsername("system:serviceaccount:ops:deployer")
			.build();
		String line = describe(config, null);
		assertThat(line)
			.startsWith("Informers use the API server https://10.0.0.1:6443/ as user bob, impersonating "
					+ "system:serviceaccount:ops:deployer (")
			.doesNotContain(PASSWORD, TOKEN, "a2V5LWRhdGE=");
	}

	@Test
	void aClientOfTheApplicationSaysSo() {
		Config config = new ConfigBuilder().withMasterUrl("https://10.0.0.1:6443").withOauthToken(TOKEN).build();
		assertThat(describe(config, "the application's KubernetesClient bean"))
			.isEqualTo("Informers use the API server https://10.0.0.1:6443/ (the application's KubernetesClient bean)");
	}

	private static String describe(Config config, String origin) {
		try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
			return ConnectionDescription.of(client, origin);
		}
	}

}
