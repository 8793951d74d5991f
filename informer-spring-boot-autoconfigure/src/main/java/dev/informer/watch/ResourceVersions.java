package dev.informer.watch;

import java.math.BigInteger;

import org.jspecify.annotations.Nullable;

/**
 * Compares resourceVersions as Kubernetes 1.35 made them comparable (KEP-5504): two
 * resourceVersions that are both decimal integers without leading zeros are ordered as
 * numbers; any other resourceVersion is opaque and only equal to itself. An API server
 * backed by etcd gives such integers; an aggregated API server or another storage may
 * not.
 *
 * @since 0.1.0
 */
public final class ResourceVersions {

	private ResourceVersions() {
	}

	/**
	 * Return whether a resourceVersion can be ordered: a decimal integer without leading
	 * zeros.
	 * @param resourceVersion the resourceVersion
	 * @return whether it is comparable
	 */
	public static boolean isComparable(@Nullable String resourceVersion) {
		if (resourceVersion == null || resourceVersion.isEmpty()
				|| (resourceVersion.length() > 1 && resourceVersion.charAt(0) == '0')) {
			return false;
		}
		for (int i = 0; i < resourceVersion.length(); i++) {
			char c = resourceVersion.charAt(i);
			if (c < '0' || c > '9') {
				return false;
			}
		}
		return true;
	}

	/**
	 * Return whether {@code resourceVersion} is at {@code target} or later: as numbers
	 * when both are comparable, else only when they are equal.
	 * @param resourceVersion the resourceVersion reached, {@code null} for none yet
	 * @param target the resourceVersion to reach
	 * @return whether it is reached
	 */
	public static boolean isAtLeast(@Nullable String resourceVersion, String target) {
		if (resourceVersion == null) {
			return false;
		}
		if (isComparable(resourceVersion) && isComparable(target)) {
			return compareComparable(resourceVersion, target) >= 0;
		}
		return resourceVersion.equals(target);
	}

	/**
	 * Return how far {@code resourceVersion} is behind {@code target}, in
	 * resourceVersions (for etcd, revisions): zero when it is at {@code target} or later.
	 * @param resourceVersion the resourceVersion reached
	 * @param target the resourceVersion to reach
	 * @return the difference, or {@code null} when either is not comparable
	 */
	public static @Nullable Long behind(@Nullable String resourceVersion, @Nullable String target) {
		if (!isComparable(resourceVersion) || !isComparable(target)) {
			return null;
		}
		BigInteger difference = new BigInteger(target).subtract(new BigInteger(resourceVersion));
		if (difference.signum() <= 0) {
			return 0L;
		}
		return (difference.bitLength() < Long.SIZE) ? difference.longValue() : Long.MAX_VALUE;
	}

	// decimal integers without leading zeros: the longer is the larger
	private static int compareComparable(String left, String right) {
		if (left.length() != right.length()) {
			return Integer.compare(left.length(), right.length());
		}
		return left.compareTo(right);
	}

}
