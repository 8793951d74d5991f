package dev.informer.watch;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ResourceVersions}: KEP-5504's comparison.
 */
class ResourceVersionsTests {

	@Test
	void decimalIntegersAreOrderedAsNumbersWhateverTheirLength() {
		assertThat(ResourceVersions.isAtLeast("10", "9")).isTrue();
		assertThat(ResourceVersions.isAtLeast("9", "10")).isFalse();
		assertThat(ResourceVersions.isAtLeast("123456789012345678901234567890", "123456789012345678901234567889"))
			.isTrue();
		assertThat(ResourceVersions.isAtLeast("42", "42")).isTrue();
	}

	@Test
	void anythingElseIsOpaqueAndOnlyEqualToItself() {
		assertThat(ResourceVersions.isComparable("007")).isFalse();
		assertThat(ResourceVersions.isComparable("abc")).isFalse();
		assertThat(ResourceVersions.isComparable("")).isFalse();
		assertThat(ResourceVersions.isComparable("-1")).isFalse();
		assertThat(ResourceVersions.isComparable("0")).isTrue();
		assertThat(ResourceVersions.isAtLeast("b", "a")).isFalse();
		assertThat(ResourceVersions.isAtLeast("a", "a")).isTrue();
		assertThat(ResourceVersions.isAtLeast("10", "09")).isFalse();
		assertThat(ResourceVersions.isAtLeast(null, "1")).isFalse();
	}

	@Test
	void behindCountsVersionsOnlyWhenBothAreComparable() {
		assertThat(ResourceVersions.behind("90", "100")).isEqualTo(10L);
		assertThat(ResourceVersions.behind("100", "90")).isZero();
		assertThat(ResourceVersions.behind("a", "100")).isNull();
		assertThat(ResourceVersions.behind(null, "100")).isNull();
		assertThat(ResourceVersions.behind("1", "100000000000000000000000000")).isEqualTo(Long.MAX_VALUE);
	}

}
