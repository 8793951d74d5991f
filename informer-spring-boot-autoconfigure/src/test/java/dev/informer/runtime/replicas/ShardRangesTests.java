package dev.informer.runtime.replicas;

import java.math.BigInteger;
import java.util.UUID;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.base.ShardRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hash and ranges that assign objects to the members of a sharded group: they must
 * agree with the API server's shard selectors (Go's {@code hash/fnv} New64a over the uid,
 * ranges as fabric8's {@link ShardRange#ofShard(int, int)} renders them).
 */
class ShardRangesTests {

	@Test
	void hashIsGoFnv1a64() {
		// reference values printed by Go's hash/fnv New64a, which kube-apiserver uses
		assertThat(Long.toUnsignedString(ShardRanges.hash(""), 16)).isEqualTo("cbf29ce484222325");
		assertThat(Long.toUnsignedString(ShardRanges.hash("a"), 16)).isEqualTo("af63dc4c8601ec8c");
		assertThat(Long.toUnsignedString(ShardRanges.hash("0b1f1c8e-6c4e-4a57-9d2b-6f1f3f0f9e11"), 16))
			.isEqualTo("d9db7033840907cb");
		assertThat(Long.toUnsignedString(ShardRanges.hash("ünï"), 16)).isEqualTo("8406649dfd5e4e56");
	}

	@Test
	void everyObjectHasExactlyOneOwnerForEveryGroupSize() {
		for (int members = 1; members <= 7; members++) {
			for (int i = 0; i < 2000; i++) {
				HasMetadata resource = object(UUID.randomUUID().toString());
				int owners = 0;
				for (int member = 0; member < members; member++) {
					if (ShardRanges.of(member, members).owns(resource)) {
						owners++;
					}
				}
				assertThat(owners).as("owners of %s among %d", resource.getMetadata().getUid(), members).isOne();
			}
		}
	}

	@Test
	void rangeBoundariesAreInclusiveStartExclusiveEnd() {
		ShardRange second = ShardRange.ofShard(1, 2);
		long start = second.getStart().longValue();
		assertThat(ShardRanges.of(1, 2).owns(start)).isTrue();
		assertThat(ShardRanges.of(0, 2).owns(start)).isFalse();
		assertThat(ShardRanges.of(0, 2).owns(start - 1)).isTrue();
		// the last range ends at 2^64: the largest hash is in it
		assertThat(second.getEnd()).isEqualTo(BigInteger.ONE.shiftLeft(64));
		assertThat(ShardRanges.of(1, 2).owns(-1L)).isTrue();
		assertThat(ShardRanges.of(0, 1).owns(0L)).isTrue();
	}

	@Test
	void aReplicaThatIsNoMemberOwnsNothingAndHasNoSelector() {
		assertThat(ShardRanges.NONE.owns(object("x"))).isFalse();
		assertThat(ShardRanges.NONE.selector()).isNull();
		assertThat(ShardRanges.of(3, 3)).isEqualTo(ShardRanges.NONE);
		assertThat(ShardRanges.of(0, 2).selector())
			.isEqualTo("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')");
	}

	@Test
	void anObjectWithoutUidIsOwnedByNobody() {
		assertThat(
				ShardRanges.of(0, 1).owns(new ConfigMapBuilder().withNewMetadata().withName("x").endMetadata().build()))
			.isFalse();
	}

	private static HasMetadata object(String uid) {
		return new ConfigMapBuilder().withNewMetadata().withName("x").withUid(uid).endMetadata().build();
	}

}
