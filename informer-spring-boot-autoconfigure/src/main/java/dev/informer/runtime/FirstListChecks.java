package dev.informer.runtime;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.InvalidInformerDeclarationException;
import dev.informer.ResourcePath;
import dev.informer.runtime.changes.ChangeFilter;
import dev.informer.runtime.changes.ModelPathCheck;

/**
 * What only the objects of a first list can show about a declaration: an
 * {@code on-change} path that selects nothing in any object of a kind without a model
 * class (a warning), and a kind that does not bump {@code metadata.generation} although
 * {@code on-change} compares it (the start fails, naming the property).
 *
 * @param <T> the resource type
 */
final class FirstListChecks<T extends HasMetadata> {

	private static final Log logger = LogFactory.getLog(FirstListChecks.class);

	private final WatchContext<T> context;

	private final ChangeFilter<T> changes;

	private volatile @Nullable InvalidInformerDeclarationException generationFailure;

	FirstListChecks(WatchContext<T> context, ChangeFilter<T> changes) {
		this.context = context;
		this.changes = changes;
	}

	/**
	 * Check an object of the first list, as it is added.
	 * @param resource the object
	 */
	void added(T resource) {
		if (this.generationFailure == null && this.changes.lacksGeneration(resource)) {
			InvalidInformerDeclarationException ex = ModelPathCheck
				.generationNotBumped(this.context.definition().getDeclaration());
			this.generationFailure = ex;
			// its updates are delivered, never held back (when startup does not wait, the
			// watch carries on so)
			logger.error("Informer '" + this.context.name() + "'" + this.context.where() + ": "
					+ Cache.metaNamespaceKeyFunc(resource) + " has no metadata.generation; " + ex.getMessage()
					+ ". Its updates are delivered unfiltered. " + ex.getAction());
		}
	}

	/**
	 * Check the objects of the first list of a kind watched without a model class, which
	 * has no fields to check paths against at startup.
	 * @param store the listed objects
	 */
	void listed(Supplier<Stream<T>> store) {
		if (!this.context.definition().isGeneric() || !this.changes.isActive()) {
			return;
		}
		List<T> listed = store.get().toList();
		for (ResourcePath path : this.changes.unmatched(listed)) {
			logger.warn("Informer '" + this.context.name() + "'" + this.context.where() + ": on-change path '" + path
					+ "' selects nothing in any of the " + listed.size() + " listed objects; check its spelling "
					+ "against the custom resource's schema: updates that change only other parts are not delivered");
		}
	}

	/**
	 * Return why the declaration cannot work, as the first list showed.
	 * @return the failure, {@code null} when none
	 */
	@Nullable InvalidInformerDeclarationException failure() {
		return this.generationFailure;
	}

}
