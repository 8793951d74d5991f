package dev.informer;

import org.junit.jupiter.api.Test;

import dev.informer.ResourcePath.Segment;
import dev.informer.ResourcePath.SegmentType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The one path syntax of {@code on-change}, {@code prune} and {@code indexes}.
 */
class ResourcePathTests {

	@Test
	void fieldsKeysAndEveryElement() {
		assertThat(ResourcePath.parse("metadata.ownerReferences[*].uid").getSegments()).containsExactly(
				new Segment(SegmentType.FIELD, "metadata"), new Segment(SegmentType.FIELD, "ownerReferences"),
				new Segment(SegmentType.EACH, "*"), new Segment(SegmentType.FIELD, "uid"));
		assertThat(ResourcePath.parse("metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']")
			.getSegments()).last()
			.isEqualTo(new Segment(SegmentType.KEY, "kubectl.kubernetes.io/last-applied-configuration"));
		assertThat(ResourcePath.parse("data[\"application.yaml\"]").getSegments()).last()
			.isEqualTo(new Segment(SegmentType.KEY, "application.yaml"));
		assertThat(ResourcePath.parse("spec.replicas").getRoot()).isEqualTo("spec");
		assertThat(ResourcePath.parse("metadata.labels['app']").isMetadata()).isTrue();
	}

	@Test
	void startsWithComparesWholeSegments() {
		assertThat(ResourcePath.parse("metadata.labels['app']").startsWith(ResourcePath.parse("metadata.labels")))
			.isTrue();
		assertThat(ResourcePath.parse("metadata.labelsX").startsWith(ResourcePath.parse("metadata.labels"))).isFalse();
	}

	@Test
	void badPathsSayWhereAndWhatWasExpected() {
		assertThatIllegalArgumentException().isThrownBy(() -> ResourcePath.parse("metadata.labels[app]"))
			.withMessage("character 17: expected a quoted key such as ['app'] or [*] after '['");
		assertThatIllegalArgumentException().isThrownBy(() -> ResourcePath.parse("metadata.labels['app"))
			.withMessage("character 17: the key's quote is never closed");
		assertThatIllegalArgumentException().isThrownBy(() -> ResourcePath.parse("metadata..name"))
			.withMessageStartingWith("character 10: expected a field name");
		assertThatIllegalArgumentException().isThrownBy(() -> ResourcePath.parse(""))
			.withMessageContaining("found the end");
		assertThatIllegalArgumentException().isThrownBy(() -> ResourcePath.parse("spec.replicas[0]"))
			.withMessageContaining("expected a quoted key");
		assertThatIllegalArgumentException().isThrownBy(() -> ResourcePath.parse("metadata.labels['']"))
			.withMessageContaining("the key is empty");
		assertThatIllegalArgumentException().isThrownBy(() -> ResourcePath.parse("spec replicas"))
			.withMessageContaining("expected '.' or '['");
	}

}
