package dev.informer.runtime.changes;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import dev.informer.InformerDeclaration;
import dev.informer.ResourcePath;

/**
 * Decides which updates of one watch reach listeners, as {@code on-change} declares: an
 * update is delivered when a declared part differs from the state <em>last delivered</em>
 * for the object, and then carries that state as its old resource, so a run of held-back
 * updates followed by a relevant one reads as one change. Adds and deletes are always
 * delivered, and so is an update to an object of another uid (a name deleted and created
 * again).
 * <p>
 * Keeps one entry per object: a reference to the version last delivered. Deciding and
 * recording are apart: the caller records a state only once listeners were handed it
 * (after the replica gate let it through), so that what the filter remembers is exactly
 * what listeners saw, whatever a gate kept back, a replay handed over, or a relist finds.
 * While the object's updates are held back, that version stays in memory beside the
 * cached one; once a change is delivered they are the same instance again. Called in
 * order from the thread delivering the watch's events; entries outlive a relist, whose
 * updates are compared the same way.
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public final class ChangeFilter<T extends HasMetadata> {

	private final List<ResourcePath> paths;

	private final boolean generation;

	private final Map<String, T> lastDelivered = new ConcurrentHashMap<>();

	private ChangeFilter(List<ResourcePath> paths, boolean generation) {
		this.paths = paths;
		this.generation = generation;
	}

	/**
	 * Create the filter a declaration asks for.
	 * @param <T> the resource type
	 * @param declaration the declaration
	 * @return the filter, passing everything when {@code on-change} is not declared
	 */
	public static <T extends HasMetadata> ChangeFilter<T> of(InformerDeclaration declaration) {
		return new ChangeFilter<>(declaration.getChangePaths(), declaration.isOnGenerationChange());
	}

	/**
	 * Return whether updates are filtered at all.
	 * @return whether {@code on-change} declares parts
	 */
	public boolean isActive() {
		return !this.paths.isEmpty();
	}

	/**
	 * Record the state listeners were handed: an add (a replayed one too) or an update.
	 * @param key the cache key
	 * @param resource the state delivered
	 */
	public void delivered(String key, T resource) {
		if (isActive()) {
			this.lastDelivered.put(key, resource);
		}
	}

	/**
	 * Decide an update, without recording it (see {@link #delivered}).
	 * @param key the cache key
	 * @param oldResource the previous cached state, as fabric8 gives it
	 * @param newResource the new state
	 * @return the state to deliver as the old one (the last delivered), or {@code null}
	 * to hold the update back
	 */
	public @Nullable T compare(String key, T oldResource, T newResource) {
		if (!isActive()) {
			return oldResource;
		}
		T last = this.lastDelivered.getOrDefault(key, oldResource);
		return changed(last, newResource) ? last : null;
	}

	private boolean changed(T last, T next) {
		if (!Objects.equals(uid(last), uid(next))) {
			// another object under the same name: never held back
			return true;
		}
		if (this.generation && (next.getMetadata() == null || next.getMetadata().getGeneration() == null)) {
			// a kind that does not bump generation: never hold its updates back
			return true;
		}
		for (ResourcePath path : this.paths) {
			if (!Objects.equals(PathReader.read(last, path), PathReader.read(next, path))) {
				return true;
			}
		}
		return false;
	}

	private static @Nullable String uid(HasMetadata resource) {
		return (resource.getMetadata() != null) ? resource.getMetadata().getUid() : null;
	}

	/**
	 * Record a delete handed to listeners, or one another replica delivers.
	 * @param key the cache key
	 */
	public void deleted(String key) {
		this.lastDelivered.remove(key);
	}

	/**
	 * Forget everything, before a start whose list delivers every object as added.
	 */
	public void clear() {
		this.lastDelivered.clear();
	}

	/**
	 * Return the number of objects remembered.
	 * @return the size
	 */
	public int size() {
		return this.lastDelivered.size();
	}

	/**
	 * Return the declared paths outside {@code metadata} that select nothing in any of
	 * the given objects: for a kind without a model class, nothing checked them at
	 * startup, and a misspelt one would hold back every update that changes only other
	 * parts.
	 * @param listed the objects of a first list
	 * @return the paths, empty when there are no objects
	 */
	public List<ResourcePath> unmatched(Collection<? extends T> listed) {
		if (listed.isEmpty()) {
			return List.of();
		}
		return this.paths.stream()
			.filter((path) -> !path.isMetadata())
			.filter((path) -> listed.stream().allMatch((resource) -> PathReader.read(resource, path).isEmpty()))
			.toList();
	}

	/**
	 * Return whether a listed object shows that its kind does not bump
	 * {@code metadata.generation} although {@code on-change} compares it.
	 * @param resource an object of the first list
	 * @return whether its generation is absent
	 */
	public boolean lacksGeneration(T resource) {
		return this.generation && (resource.getMetadata() == null || resource.getMetadata().getGeneration() == null);
	}

}
