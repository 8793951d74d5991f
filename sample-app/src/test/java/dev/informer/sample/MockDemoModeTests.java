package dev.informer.sample;

import org.junit.jupiter.api.BeforeAll;

/**
 * Demo mode on fabric8's mock API server, the fallback on a machine without binaries.
 */
class MockDemoModeTests extends DemoModeScenario {

	@BeforeAll
	static void startDemo() {
		start("mock");
	}

	@Override
	String serverKind() {
		return "fabric8's MOCK API server";
	}

}
