package dev.informer.test;

import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A {@link K3sContainer} that never starts a container: its kubeconfig is the one of the
 * real kube-apiserver of the JVM, so service connection tests run where Docker does not.
 */
public class RealServerK3sContainer extends K3sContainer {

	private static final String IMAGE = "rancher/k3s:v1.33.4-k3s1";

	public RealServerK3sContainer() {
		super(DockerImageName.parse(IMAGE));
	}

	@Override
	public String getDockerImageName() {
		// Spring Boot matches service connections by image; the default pulls it
		return IMAGE;
	}

	@Override
	public String getHost() {
		// K3sContainer's constructor asks; the default asks Docker
		return "127.0.0.1";
	}

	@Override
	public void start() {
	}

	@Override
	public void stop() {
	}

	@Override
	public String getKubeConfigYaml() {
		return RealApiServer.get().getKubeConfigYaml();
	}

}
