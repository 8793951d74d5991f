package dev.informer.it;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.client.dsl.base.ShardRange;

/**
 * The member of a sharded group that owns an object, computed here independently of the
 * starter: FNV-1a 64 of its uid, in the ranges fabric8 renders for the API server,
 * members sorted by identity.
 */
final class ShardOwner {

	private ShardOwner() {
	}

	/**
	 * Return the owner.
	 * @param uid the object's uid
	 * @param members the members
	 * @return the owner
	 */
	static String of(String uid, List<String> members) {
		long hash = 0xcbf29ce484222325L;
		for (byte b : uid.getBytes(StandardCharsets.UTF_8)) {
			hash ^= (b & 0xff);
			hash *= 0x100000001b3L;
		}
		BigInteger value = new BigInteger(Long.toUnsignedString(hash));
		List<String> sorted = new ArrayList<>(members);
		sorted.sort(null);
		for (int i = 0; i < sorted.size(); i++) {
			ShardRange range = ShardRange.ofShard(i, sorted.size());
			if (value.compareTo(range.getStart()) >= 0 && value.compareTo(range.getEnd()) < 0) {
				return sorted.get(i);
			}
		}
		throw new IllegalStateException("no owner for " + uid);
	}

}
