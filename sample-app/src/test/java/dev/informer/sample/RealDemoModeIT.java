package dev.informer.sample;

import java.util.Optional;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.system.CapturedOutput;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Demo mode on a real kube-apiserver and etcd, what {@code demo=auto} picks once
 * {@code scripts/envtest.sh} has built the binaries. Skipped without them, unless
 * {@code INFORMER_REQUIRE_APISERVER=true}.
 */
class RealDemoModeIT extends DemoModeScenario {

	@BeforeAll
	static void startDemo() {
		requireBinaries(DemoApiServer.installedVersion(DemoApiServer.binaryRoot()));
		start("real");
	}

	/**
	 * Skip the calling test class without binaries, or fail it if
	 * {@code INFORMER_REQUIRE_APISERVER=true}.
	 * @param version the installed version, if any
	 */
	static void requireBinaries(Optional<String> version) {
		if (version.isEmpty()) {
			String message = "No kube-apiserver/etcd binaries under " + DemoApiServer.binaryRoot()
					+ "; build them with 'bash scripts/envtest.sh'";
			if (Boolean.parseBoolean(System.getenv("INFORMER_REQUIRE_APISERVER"))) {
				throw new IllegalStateException(message);
			}
			Assumptions.abort(message);
		}
	}

	@Override
	String serverKind() {
		return "a REAL kube-apiserver";
	}

	@Test
	@Order(6)
	void theLabelSelectorIsAppliedByTheServer(CapturedOutput output) {
		// seeded with app=batch, outside 'app in (web,api)'; fabric8's mock would send it
		assertThat(output.getOut()).contains("informer=configmaps type=added object=default/settings-1")
			.doesNotContain("object=default/unrelated");
	}

}
