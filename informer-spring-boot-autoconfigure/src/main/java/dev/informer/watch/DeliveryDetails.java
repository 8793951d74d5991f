package dev.informer.watch;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;

/**
 * Describes this replica's part in delivery across replicas for health details and the
 * {@code informers} actuator endpoint, with times as ISO-8601 strings.
 *
 * @since 0.1.0
 */
public final class DeliveryDetails {

	private DeliveryDetails() {
	}

	/**
	 * Return whether any informer is delivered by some replicas only ({@code leader} or
	 * {@code sharded}): only then is there anything to report.
	 * @param snapshot the snapshot
	 * @return whether delivery is shared among replicas
	 */
	public static boolean isShared(DeliverySnapshot snapshot) {
		return snapshot.leadership() != null || snapshot.sharding() != null;
	}

	/**
	 * Return whether this replica publishes anything now: it leads, or it is a member
	 * owning a range.
	 * @param snapshot the snapshot
	 * @return whether it publishes
	 */
	public static boolean isPublishing(DeliverySnapshot snapshot) {
		DeliverySnapshot.Leadership leadership = snapshot.leadership();
		DeliverySnapshot.Sharding sharding = snapshot.sharding();
		return (leadership != null && leadership.role() == DeliveryRole.LEADER)
				|| (sharding != null && sharding.role() == DeliveryRole.MEMBER && !sharding.ownedRanges().isEmpty());
	}

	/**
	 * Describe a snapshot.
	 * @param snapshot the snapshot
	 * @return the details, in a stable order
	 */
	public static Map<String, Object> of(DeliverySnapshot snapshot) {
		Map<String, Object> details = new LinkedHashMap<>();
		Map<String, Object> modes = new LinkedHashMap<>();
		snapshot.informerModes().forEach((informer, mode) -> modes.put(informer, tagValue(mode)));
		details.put("modes", modes);
		details.put("group", snapshot.group());
		details.put("identity", snapshot.identity());
		details.put("leaseNamespace", snapshot.leaseNamespace());
		details.put("publishing", isPublishing(snapshot));
		DeliverySnapshot.Leadership leadership = snapshot.leadership();
		if (leadership != null) {
			Map<String, Object> leader = new LinkedHashMap<>();
			leader.put("role", leadership.role().name());
			leader.put("lease", leadership.leaseName());
			putIfPresent(leader, "holder", leadership.leaseHolder());
			putIfPresent(leader, "lastRenewal", format(leadership.lastRenewal()));
			putIfPresent(leader, "lastContact", format(leadership.lastContact()));
			leader.put("handovers", leadership.handovers());
			putIfPresent(leader, "refusal", refusal(leadership.refusal()));
			details.put("leadership", leader);
		}
		DeliverySnapshot.Sharding sharding = snapshot.sharding();
		if (sharding != null) {
			Map<String, Object> member = new LinkedHashMap<>();
			member.put("role", sharding.role().name());
			member.put("lease", sharding.leaseName());
			member.put("members", sharding.members());
			member.put("ownedRanges", sharding.ownedRanges());
			member.put("serverSharding", sharding.serverSharding());
			putIfPresent(member, "lastRenewal", format(sharding.lastRenewal()));
			member.put("rangeChanges", sharding.rangeChanges());
			putIfPresent(member, "refusal", refusal(sharding.refusal()));
			details.put("sharding", member);
		}
		DeliverySnapshot.Staleness staleness = snapshot.staleness();
		if (!staleness.equals(DeliverySnapshot.Staleness.NONE)) {
			Map<String, Object> stale = new LinkedHashMap<>();
			stale.put("steppedDown", staleness.steppedDown());
			stale.put("staleWatches", staleness.staleWatches());
			putIfPresent(stale, "steppedDownAt", format(staleness.steppedDownAt()));
			stale.put("stepDowns", staleness.stepDowns());
			details.put("staleness", stale);
		}
		return details;
	}

	/**
	 * Return a mode as written in properties, tags and details.
	 * @param mode the mode
	 * @return {@code all}, {@code leader} or {@code sharded}
	 */
	public static String tagValue(DeliveryMode mode) {
		return mode.name().toLowerCase(Locale.ROOT);
	}

	private static void putIfPresent(Map<String, Object> details, String key, @Nullable Object value) {
		if (value != null) {
			details.put(key, value);
		}
	}

	private static @Nullable Map<String, Object> refusal(@Nullable WatchError refusal) {
		if (refusal == null) {
			return null;
		}
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("at", format(refusal.at()));
		details.put("httpCode", refusal.httpCode());
		details.put("reason", refusal.reason());
		details.put("message", refusal.message());
		return details;
	}

	private static @Nullable String format(@Nullable Instant instant) {
		return (instant != null) ? instant.toString() : null;
	}

}
