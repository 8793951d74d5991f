package dev.informer.runtime.listeners;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.watch.EventType;

/**
 * Folds a change of one object into the change of it that still waits for listeners: the
 * result says what listeners would know after both. An update keeps the old state of the
 * waiting change (the last state listeners were given), a delete keeps its own; a resync
 * adds nothing to a waiting change; an object that is added and deleted before listeners
 * saw it vanishes unless the add was a replay (listeners of another replica may know it).
 * A delete followed by an add is a new object: not folded.
 */
final class Coalescing {

	private Coalescing() {
	}

	/**
	 * Fold {@code next} into {@code waiting}.
	 * @param waiting the change that waits
	 * @param next the later change of the same object
	 * @param <T> the resource type
	 * @return the folded change, a fold without a change when nothing is left to deliver,
	 * {@code null} when the two cannot be folded
	 */
	static <T extends HasMetadata> @Nullable Folded<T> fold(Change<T> waiting, Change<T> next) {
		ResourceEvent<T> first = waiting.event();
		ResourceEvent<T> second = next.event();
		if (first instanceof ResourceDeletedEvent) {
			return null;
		}
		if (next.type() == EventType.RESYNC) {
			return new Folded<>(waiting, 0);
		}
		int coalesced = first.getCoalesced() + second.getCoalesced() + 1;
		if (first instanceof ResourceAddedEvent<T> added) {
			if (second instanceof ResourceUpdatedEvent) {
				return new Folded<>(new Change<>(EventType.ADDED, new ResourceAddedEvent<>(added.getInformerName(),
						added.getResourceType(), second.getResource(), added.isReplay(), coalesced)), 1);
			}
			if (second instanceof ResourceDeletedEvent<T> deleted && added.isReplay()) {
				return new Folded<>(new Change<>(EventType.DELETED, deleted(deleted, coalesced)), 1);
			}
			return (second instanceof ResourceDeletedEvent) ? Folded.vanished() : null;
		}
		if (first instanceof ResourceUpdatedEvent<T> updated) {
			if (second instanceof ResourceUpdatedEvent<T> latest) {
				ResourceUpdatedEvent<T> event = new ResourceUpdatedEvent<>(updated.getInformerName(),
						updated.getResourceType(), updated.getOldResource(), latest.getResource(), coalesced);
				return new Folded<>(new Change<>(event.isResync() ? EventType.RESYNC : EventType.UPDATED, event), 1);
			}
			if (second instanceof ResourceDeletedEvent<T> deleted) {
				return new Folded<>(new Change<>(EventType.DELETED, deleted(deleted, coalesced)), 1);
			}
		}
		return null;
	}

	private static <T extends HasMetadata> ResourceDeletedEvent<T> deleted(ResourceDeletedEvent<T> deleted,
			int coalesced) {
		return new ResourceDeletedEvent<>(deleted.getInformerName(), deleted.getResourceType(), deleted.getResource(),
				deleted.isFinalStateUnknown(), deleted.isLeftSelection(), coalesced, deleted.isReplay(),
				deleted.getObservedResourceVersion());
	}

	/**
	 * A change of one object as the queue holds it.
	 *
	 * @param <T> the resource type
	 * @param type the type, as counted
	 * @param event the event
	 */
	record Change<T extends HasMetadata>(EventType type, ResourceEvent<T> event) {

	}

	/**
	 * The result of a fold.
	 *
	 * @param <T> the resource type
	 * @param change what to deliver instead of the waiting change, {@code null} for
	 * nothing
	 * @param changesFolded how many changes were folded away: 0 for a resync, else 1
	 */
	record Folded<T extends HasMetadata>(@Nullable Change<T> change, int changesFolded) {

		static <T extends HasMetadata> Folded<T> vanished() {
			return new Folded<>(null, 1);
		}

	}

}
