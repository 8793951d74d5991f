package dev.informer.test;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link MockServerRuntime}.
 */
class MockServerRuntimeTests {

	@Test
	void vertxLinksAgainstTheNettyOfThisBuild() {
		assertThatNoException().isThrownBy(MockServerRuntime::check);
	}

	@Test
	void linkageFailureSaysWhatToAdd() {
		assertThatIllegalStateException()
			.isThrownBy(() -> MockServerRuntime.check(Unlinkable.class.getName(), getClass().getClassLoader()))
			.withMessageContaining("NoSuchFieldError: ACCEPT_QUERY")
			.withMessageContaining("<netty.version>4.2.18.Final</netty.version>");
	}

	/**
	 * Fails to initialize as Vert.x 5.2's HttpHeaders does on Netty 4.2.15.
	 */
	static final class Unlinkable {

		static final Object FIELD = fail();

		private static Object fail() {
			throw new NoSuchFieldError("ACCEPT_QUERY");
		}

	}

}
