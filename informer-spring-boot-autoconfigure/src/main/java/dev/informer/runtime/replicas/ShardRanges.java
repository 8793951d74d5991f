package dev.informer.runtime.replicas;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.dsl.base.ShardRange;
import io.fabric8.kubernetes.client.dsl.base.ShardSelector;
import org.jspecify.annotations.Nullable;

/**
 * The hash ranges a member of a sharded group owns, and the hash that places objects in
 * them: FNV-1a 64 of the object's uid, the function and field the API server's shard
 * selectors use (KEP-5866), so that filtering here and on the server agree on every
 * object. The uid never changes, so an object's owner changes only with the membership.
 * <p>
 * Asked for every event: the bounds are computed once, as unsigned 64 bit values.
 *
 * @since 0.1.0
 */
public final class ShardRanges {

	private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

	private static final long FNV_OFFSET = 0xcbf29ce484222325L;

	private static final long FNV_PRIME = 0x100000001b3L;

	/** Owns nothing: not a live member. */
	static final ShardRanges NONE = new ShardRanges(0, 0);

	private final int member;

	private final int members;

	/** Inclusive, unsigned. */
	private final long start;

	/** Exclusive, unsigned; unused when the range ends at 2^64. */
	private final long end;

	private final boolean toTheEnd;

	private ShardRanges(int member, int members) {
		this.member = member;
		this.members = members;
		ShardRange range = (members > 0) ? ShardRange.ofShard(member, members) : null;
		this.start = (range != null) ? range.getStart().longValue() : 0;
		this.toTheEnd = range != null && range.getEnd().equals(TWO_TO_64);
		this.end = (range != null && !this.toTheEnd) ? range.getEnd().longValue() : 0;
	}

	/**
	 * Return the FNV-1a 64 hash of a value's UTF-8 bytes, without copying them for the
	 * ASCII uids it is asked about before each listener.
	 * @param value the value
	 * @return the hash, an unsigned 64 bit value
	 */
	static long hash(String value) {
		long hash = FNV_OFFSET;
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c >= 0x80) {
				// not ASCII (never a uid the API server sends): hash its UTF-8 bytes
				return hashBytes(value);
			}
			hash ^= c;
			hash *= FNV_PRIME;
		}
		return hash;
	}

	private static long hashBytes(String value) {
		long hash = FNV_OFFSET;
		for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
			hash ^= (b & 0xff);
			hash *= FNV_PRIME;
		}
		return hash;
	}

	/**
	 * Return the range of one member among {@code members}, equal in size.
	 * @param member the member's index
	 * @param members the number of members
	 * @return the ranges
	 */
	public static ShardRanges of(int member, int members) {
		if (members <= 0 || member < 0 || member >= members) {
			return NONE;
		}
		return new ShardRanges(member, members);
	}

	boolean isEmpty() {
		return this.members == 0;
	}

	/**
	 * Return whether an object falls in these ranges. An object without a uid (never one
	 * the API server sent) is owned by nobody.
	 * @param resource the object
	 * @return whether owned
	 */
	boolean owns(HasMetadata resource) {
		ObjectMeta metadata = resource.getMetadata();
		String uid = (metadata != null) ? metadata.getUid() : null;
		return uid != null && owns(hash(uid));
	}

	boolean owns(long hash) {
		if (isEmpty() || Long.compareUnsigned(hash, this.start) < 0) {
			return false;
		}
		return this.toTheEnd || Long.compareUnsigned(hash, this.end) < 0;
	}

	/**
	 * Return the shard selector for the API server, {@code null} when owning nothing.
	 * @return the selector expression
	 */
	public @Nullable String selector() {
		return isEmpty() ? null : ShardSelector.ofShard(this.member, this.members).toExpression();
	}

	/**
	 * Return the ranges as shard selector expressions.
	 * @return the expressions, empty when owning nothing
	 */
	List<String> describe() {
		String selector = selector();
		return (selector != null) ? List.of(selector) : List.of();
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof ShardRanges ranges && ranges.member == this.member && ranges.members == this.members;
	}

	@Override
	public int hashCode() {
		return 31 * this.member + this.members;
	}

	@Override
	public String toString() {
		return isEmpty() ? "none" : (this.member + 1) + " of " + this.members;
	}

}
