package dev.informer.metrics;

import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.watch.DeliveryDetails;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.DeliveryStatusSource;

/**
 * Micrometer meters of this replica's part in delivery across replicas
 * ({@code informer.delivery.*}), tagged with {@code group} and, where they belong to one
 * mode, {@code mode}. Registered only when an informer is in {@code leader} or
 * {@code sharded} mode; every meter reads a fresh snapshot.
 * <table>
 * <caption>Meters</caption>
 * <tr>
 * <th>Name</th>
 * <th>Type</th>
 * <th>Tags</th>
 * </tr>
 * <tr>
 * <td>{@code informer.delivery.leader}</td>
 * <td>gauge, 1 leader, 0 standby</td>
 * <td>{@code group}, {@code mode=leader}</td>
 * </tr>
 * <tr>
 * <td>{@code informer.delivery.handovers}</td>
 * <td>function counter</td>
 * <td>{@code group}, {@code mode=leader}</td>
 * </tr>
 * <tr>
 * <td>{@code informer.delivery.members}</td>
 * <td>gauge</td>
 * <td>{@code group}, {@code mode=sharded}</td>
 * </tr>
 * <tr>
 * <td>{@code informer.delivery.range.changes}</td>
 * <td>function counter</td>
 * <td>{@code group}, {@code mode=sharded}</td>
 * </tr>
 * <tr>
 * <td>{@code informer.delivery.owned.objects}</td>
 * <td>gauge</td>
 * <td>{@code group}</td>
 * </tr>
 * </table>
 */
public class DeliveryMetrics implements MeterBinder {

	private final DeliveryStatusSource source;

	/**
	 * Create the meters' binder.
	 * @param source the delivery state
	 */
	public DeliveryMetrics(DeliveryStatusSource source) {
		this.source = source;
	}

	@Override
	public void bindTo(MeterRegistry meters) {
		DeliverySnapshot snapshot = this.source.snapshot();
		if (!DeliveryDetails.isShared(snapshot)) {
			return;
		}
		Tags group = Tags.of("group", snapshot.group());
		if (snapshot.leadership() != null) {
			Tags tags = group.and("mode", DeliveryDetails.tagValue(DeliveryMode.LEADER));
			Gauge
				.builder("informer.delivery.leader", this,
						leadership((leadership) -> leadership.role() == DeliveryRole.LEADER ? 1 : 0))
				.description("Whether this replica publishes as the group's leader (1) or stands by (0)")
				.tags(tags)
				.register(meters);
			FunctionCounter
				.builder("informer.delivery.handovers", this, leadership(DeliverySnapshot.Leadership::handovers))
				.description("Times this replica became leader or stopped being it")
				.tags(tags)
				.register(meters);
		}
		if (snapshot.sharding() != null) {
			Tags tags = group.and("mode", DeliveryDetails.tagValue(DeliveryMode.SHARDED));
			Gauge.builder("informer.delivery.members", this, sharding((sharding) -> sharding.members().size()))
				.description("Live members of the sharded group, as this replica sees them")
				.tags(tags)
				.register(meters);
			FunctionCounter
				.builder("informer.delivery.range.changes", this, sharding(DeliverySnapshot.Sharding::rangeChanges))
				.description("Times this replica's owned hash range changed")
				.tags(tags)
				.register(meters);
		}
		Gauge
			.builder("informer.delivery.stepped.down", this.source,
					(source) -> source.snapshot().staleness().steppedDown() ? 1 : 0)
			.description("Whether this replica stands aside (1) because its watches are stale beyond "
					+ "informer.replicas.step-down-stale-after")
			.tags(group)
			.register(meters);
		FunctionCounter
			.builder("informer.delivery.step.downs", this.source, (source) -> source.snapshot().staleness().stepDowns())
			.description("Times this replica gave up its part in delivery because its watches were stale")
			.tags(group)
			.register(meters);
		Gauge.builder("informer.delivery.owned.objects", this.source, DeliveryStatusSource::ownedObjects)
			.description("Cached objects this replica publishes")
			.baseUnit("objects")
			.tags(group)
			.register(meters);
		Gauge.builder("informer.delivery.tombstones", this.source, DeliveryStatusSource::tombstones)
			.description("Deletes the replica gates dropped and keep, to deliver them should this replica take "
					+ "their objects over")
			.baseUnit("objects")
			.tags(group)
			.register(meters);
		FunctionCounter
			.builder("informer.delivery.tombstones.dropped", this.source, DeliveryStatusSource::tombstonesDropped)
			.description("Tombstones dropped by their retention or count bound before this replica took their "
					+ "objects over")
			.tags(group)
			.register(meters);
		Gauge.builder("informer.delivery.missed.changes", this.source, DeliveryStatusSource::missedChanges)
			.description("Objects whose last-seen state the replica gates keep through a Lease lapse")
			.baseUnit("objects")
			.tags(group)
			.register(meters);
		FunctionCounter
			.builder("informer.delivery.missed.overflows", this.source, DeliveryStatusSource::missedOverflows)
			.description("Times a watch's record of a lapse hit its bound and fell back to replaying every object")
			.tags(group)
			.register(meters);
	}

	private ToDoubleFunction<DeliveryMetrics> leadership(ToDoubleFunction<DeliverySnapshot.Leadership> value) {
		return (metrics) -> {
			DeliverySnapshot.Leadership leadership = this.source.snapshot().leadership();
			return (leadership != null) ? value.applyAsDouble(leadership) : Double.NaN;
		};
	}

	private ToDoubleFunction<DeliveryMetrics> sharding(ToDoubleFunction<DeliverySnapshot.Sharding> value) {
		return (metrics) -> {
			DeliverySnapshot.Sharding sharding = this.source.snapshot().sharding();
			return (sharding != null) ? value.applyAsDouble(sharding) : Double.NaN;
		};
	}

}
