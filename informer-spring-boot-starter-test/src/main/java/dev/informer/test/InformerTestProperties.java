package dev.informer.test;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.informer.test.InformerTest.Server;

/**
 * Configuration of the Kubernetes API server that {@link InformerTest @InformerTest} and
 * {@link AutoConfigureInformerTest @AutoConfigureInformerTest} give a test. The
 * annotations' attributes set these properties; a test may set them directly too (for
 * example {@code informer.test.server=mock} in {@code src/test/resources}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("informer.test")
public class InformerTestProperties {

	/**
	 * Kubernetes API server the informers talk to: 'real' (kube-apiserver and etcd from
	 * the binaries scripts/envtest.sh installs), 'mock' (fabric8's mock server), or
	 * 'auto' (real when the binaries are installed, mock otherwise; the test log says
	 * which and why).
	 */
	private Server server = Server.AUTO;

	/**
	 * Namespace of the test's KubernetesClient, created before the informers start. A
	 * fresh name per application context by default.
	 */
	private @Nullable String namespace;

	/**
	 * Kubernetes manifests (Spring resource locations of YAML or JSON) whose objects are
	 * created before the informers start, in order.
	 */
	private List<String> manifests = new ArrayList<>();

	/**
	 * Whether the informers, and the application's KubernetesClient, run as a user that
	 * has only the RBAC rules the declared informers need. Needs a server that enforces
	 * RBAC.
	 */
	private boolean restricted;

	/**
	 * Informers whose rules the restricted user is not granted, to prove that the
	 * application fails clearly when its RBAC lags its declarations.
	 */
	private List<String> restrictedUngrantedInformers = new ArrayList<>();

	public Server getServer() {
		return this.server;
	}

	public void setServer(Server server) {
		this.server = server;
	}

	public @Nullable String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	public List<String> getManifests() {
		return this.manifests;
	}

	public void setManifests(List<String> manifests) {
		this.manifests = manifests;
	}

	public boolean isRestricted() {
		return this.restricted;
	}

	public void setRestricted(boolean restricted) {
		this.restricted = restricted;
	}

	public List<String> getRestrictedUngrantedInformers() {
		return this.restrictedUngrantedInformers;
	}

	public void setRestrictedUngrantedInformers(List<String> restrictedUngrantedInformers) {
		this.restrictedUngrantedInformers = restrictedUngrantedInformers;
	}

}
