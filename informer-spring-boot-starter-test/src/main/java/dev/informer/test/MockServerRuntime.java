package dev.informer.test;

import java.util.Map;

import io.netty.util.Version;

/**
 * Checks, before the mock server starts, that its Vert.x links against the Netty on the
 * class path. A mismatch otherwise shows only as {@code NoSuchFieldError} on a Vert.x
 * event loop thread and a client that cannot reach the server.
 */
final class MockServerRuntime {

	private static final String VERTX_HTTP_HEADERS = "io.vertx.core.http.HttpHeaders";

	private MockServerRuntime() {
	}

	/**
	 * Fail with instructions if Vert.x cannot link against Netty.
	 * @throws IllegalStateException if it cannot
	 */
	static void check() {
		check(VERTX_HTTP_HEADERS, MockServerRuntime.class.getClassLoader());
	}

	static void check(String vertxClass, ClassLoader classLoader) {
		try {
			Class.forName(vertxClass, true, classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			throw new IllegalStateException("fabric8's mock server cannot start: its Vert.x does not work with Netty "
					+ nettyVersion() + " (" + ex + "). informer-spring-boot-starter-test declares the Vert.x version "
					+ "that works with Spring Boot's Netty; if your build changed the Vert.x version, set the Netty "
					+ "version that Vert.x needs instead, for example <netty.version>4.2.18.Final</netty.version> in "
					+ "the <properties> of a pom whose parent is spring-boot-starter-parent. Or test against the real "
					+ "server: @InformerTest(server = Server.REAL).", ex);
		}
	}

	private static String nettyVersion() {
		Map<String, Version> versions = Version.identify(MockServerRuntime.class.getClassLoader());
		Version common = versions.get("netty-common");
		return (common != null) ? common.artifactVersion() : "(unknown version)";
	}

}
