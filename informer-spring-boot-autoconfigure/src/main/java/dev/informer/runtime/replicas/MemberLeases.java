package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.watch.KubernetesErrors;

/**
 * The member Leases of a sharded group: which members are live, judged by when this
 * replica observed each Lease's renew time change (never by comparing the renew time
 * written on another node with this node's clock), and the Leases of members that are
 * gone for good, which the first live member deletes.
 */
final class MemberLeases {

	/**
	 * A member Lease not renewed for this many lease durations belongs to a replica that
	 * is gone: its pod was deleted without stopping cleanly.
	 */
	static final int STALE_AFTER_DURATIONS = 3;

	private static final Log logger = LogFactory.getLog(MemberLeases.class);

	private final KubernetesClient client;

	private final DeliveryOptions options;

	private final Clock clock;

	private final Map<String, Observed> observed = new ConcurrentHashMap<>();

	MemberLeases(KubernetesClient client, DeliveryOptions options, Clock clock) {
		this.client = client;
		this.options = options;
		this.clock = clock;
	}

	/**
	 * List the group's member Leases: return the holders of the live ones, sorted, and
	 * delete the stale ones if this replica is the first live member.
	 * @param self this replica's identity, when it holds its own Lease
	 * @return the live members
	 * @throws KubernetesClientException if the Leases cannot be listed
	 */
	List<String> live(@Nullable String self) {
		Instant now = this.clock.instant();
		List<Lease> leases = this.client.leases()
			.inNamespace(this.options.leaseNamespace())
			.withLabel(DeliveryOptions.GROUP_LABEL, this.options.group())
			.list()
			.getItems();
		List<String> live = new ArrayList<>();
		List<Lease> stale = new ArrayList<>();
		Set<String> listed = new HashSet<>();
		for (Lease lease : leases) {
			String name = lease.getMetadata().getName();
			listed.add(name);
			LeaseSpec spec = lease.getSpec();
			if (spec == null || spec.getLeaseDurationSeconds() == null) {
				continue;
			}
			Observed seen = observe(name, spec, now);
			Duration duration = Duration.ofSeconds(spec.getLeaseDurationSeconds());
			String holder = spec.getHolderIdentity();
			boolean held = holder != null && !holder.isEmpty();
			if (held && now.isBefore(seen.at().plus(duration))) {
				if (!live.contains(holder)) {
					live.add(holder);
				}
			}
			else if (!now.isBefore(seen.at().plus(duration.multipliedBy(STALE_AFTER_DURATIONS)))
					&& !name.equals(this.options.memberLeaseName())) {
				stale.add(lease);
			}
		}
		this.observed.keySet().retainAll(listed);
		if (self != null && !live.contains(self)) {
			// this replica renewed its Lease: it is a member even if the list was older
			live.add(self);
		}
		live.sort(null);
		if (!live.isEmpty() && live.get(0).equals(self)) {
			stale.forEach(this::delete);
		}
		return live;
	}

	private Observed observe(String name, LeaseSpec spec, Instant now) {
		ZonedDateTime renewed = spec.getRenewTime();
		return this.observed.compute(name,
				(key, last) -> (last != null && Objects.equals(last.renewTime(), renewed)
						&& Objects.equals(last.holder(), spec.getHolderIdentity())) ? last
								: new Observed(spec.getHolderIdentity(), renewed, now));
	}

	private void delete(Lease lease) {
		try {
			// only as listed: a member that renewed meanwhile keeps its Lease
			this.client.leases()
				.inNamespace(lease.getMetadata().getNamespace())
				.withName(lease.getMetadata().getName())
				.lockResourceVersion(lease.getMetadata().getResourceVersion())
				.delete();
			this.observed.remove(lease.getMetadata().getName());
			logger.info(
					"Delivery group '" + this.options.group() + "': deleted the Lease " + lease.getMetadata().getName()
							+ " of a member gone for more than " + STALE_AFTER_DURATIONS + " lease durations");
		}
		catch (KubernetesClientException ex) {
			logger.debug("Delivery group '" + this.options.group() + "': could not delete the stale Lease "
					+ lease.getMetadata().getName() + " (" + KubernetesErrors.describe(ex) + ")");
		}
	}

	/**
	 * A member Lease as last listed, and when this replica first listed it so.
	 */
	private record Observed(@Nullable String holder, @Nullable ZonedDateTime renewTime, Instant at) {

	}

}
