package dev.informer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Label and field selectors as the API server parses them (k8s.io/apimachinery
 * {@code labels.Parse} and {@code fields.ParseSelector}), checked through
 * {@link InformerDeclaration}, and the field selector the starter sends.
 */
class SelectorsTests {

	@ParameterizedTest
	@ValueSource(strings = { "app in ()", "app notin ( )", "tier=web,app in ()" })
	void anEmptySetIsRejectedBecauseTheServerWouldReadItAsTheEmptyValue(String selector) {
		assertThatExceptionOfType(InvalidInformerDeclarationException.class)
			.isThrownBy(() -> declaration().labelSelector(selector).build())
			.satisfies((ex) -> {
				assertThat(ex.getProperty()).isEqualTo("label-selector");
				assertThat(ex.getProblem()).contains("empty set").contains("in (\"\")");
				assertThat(ex.getAction()).contains("'!app'");
			});
	}

	@ParameterizedTest
	@ValueSource(strings = { "x>1", "x<1", "replicas > 0", "example.com/priority<10,tier=web", "x>007",
			"x>9223372036854775807" })
	void greaterAndLessThanWithAnIntegerAreAccepted(String selector) {
		assertThatNoException().isThrownBy(() -> declaration().labelSelector(selector).build());
	}

	@ParameterizedTest
	@ValueSource(strings = { "x>-1", "x>a", "x>1.5", "x>=1", "x>", "x>9223372036854775808", ">1" })
	void greaterAndLessThanWithoutANonNegativeIntegerAreRejected(String selector) {
		assertThatExceptionOfType(InvalidInformerDeclarationException.class)
			.isThrownBy(() -> declaration().labelSelector(selector).build())
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("label-selector"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "metadata.name=a\\,b", "metadata.name!=a\\=b", "spec.nodeName==a\\\\b",
			"metadata.name!=,metadata.name!=x" })
	void escapedFieldValuesAreAcceptedAndSentEscaped(String selector) {
		InformerDeclaration declaration = declaration().fieldSelector(selector).build();
		assertThat(Selectors.fieldSelectorQuery(declaration.getFieldSelector())).isEqualTo(selector);
	}

	@Test
	void escapesAreUnderstood() {
		assertThat(Selectors.parseFieldSelector("metadata.name=a\\,b\\=c\\\\d,spec.nodeName!=n"))
			.extracting(Selectors.FieldRequirement::value)
			.containsExactly("a,b=c\\d", "n");
	}

	@ParameterizedTest
	@ValueSource(strings = { "metadata.name=a\\b", "metadata.name=a\\", "metadata.name=a=b", "metadata.name", "=a" })
	void badEscapesAndUnescapedSpecialCharactersAreRejected(String selector) {
		assertThatExceptionOfType(InvalidInformerDeclarationException.class)
			.isThrownBy(() -> declaration().fieldSelector(selector).build())
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("field-selector"));
	}

	@Test
	void everyRequirementOnARepeatedFieldIsSent() {
		InformerDeclaration declaration = declaration()
			.fieldSelector("metadata.name != a, metadata.name!=b,metadata.name=c,metadata.name==c")
			.build();
		assertThat(Selectors.fieldSelectorQuery(declaration.getFieldSelector()))
			.isEqualTo("metadata.name!=a,metadata.name!=b,metadata.name=c,metadata.name==c");
	}

	@Test
	void aFieldRequiredToEqualTwoValuesIsRejectedBecauseItMatchesNothing() {
		assertThatExceptionOfType(InvalidInformerDeclarationException.class)
			.isThrownBy(() -> declaration().fieldSelector("metadata.name=a,spec.x=1,metadata.name==b").build())
			.satisfies((ex) -> {
				assertThat(ex.getProperty()).isEqualTo("field-selector");
				assertThat(ex.getProblem()).contains("metadata.name").contains("'a'").contains("'b'");
				assertThat(ex.getAction()).contains("one informer per value");
			});
	}

	private static InformerDeclarationBuilder declaration() {
		return InformerDeclaration.builder("selected").apiVersion("v1").kind("ConfigMap");
	}

}
