package dev.informer.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jspecify.annotations.Nullable;

import dev.informer.InformerCustomizer;
import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.InformerSpec;
import dev.informer.runtime.changes.PathIndexes;
import dev.informer.runtime.changes.Pruning;

/**
 * The view the application's customizers get of one fabric8 informer before it starts:
 * they may add indexers, handlers and transforms, which run before the object is cached.
 *
 * @param <T> the resource type
 */
final class CustomizerView<T extends HasMetadata> implements InformerSpec<T> {

	private final WatchContext<T> context;

	private final SharedIndexInformer<T> informer;

	private final List<Consumer<? super T>> transforms;

	/**
	 * Prepare a fabric8 informer for its watch's declaration and let the application's
	 * customizers see it: the declared {@code prune} transform first (customizers'
	 * transforms see the object as it will be cached), the declared {@code indexes}, then
	 * each customizer.
	 * @param <T> the resource type
	 * @param context the watch
	 * @param informer the fabric8 informer, not started
	 * @param customizers the application's customizers
	 * @return the transforms to apply before each object is cached, in order
	 */
	static <T extends HasMetadata> List<Consumer<? super T>> customize(WatchContext<T> context,
			SharedIndexInformer<T> informer, List<InformerCustomizer> customizers) {
		List<Consumer<? super T>> transforms = new ArrayList<>();
		InformerDeclaration declaration = context.definition().getDeclaration();
		if (!declaration.getPrune().isEmpty()) {
			transforms.add(new Pruning<>(declaration.getPrune()));
		}
		if (!declaration.getIndexes().isEmpty()) {
			informer.addIndexers(PathIndexes.functions(declaration.getIndexes()));
		}
		CustomizerView<T> view = new CustomizerView<>(context, informer, transforms);
		for (InformerCustomizer customizer : customizers) {
			customizer.customize(view);
		}
		return transforms;
	}

	/**
	 * Create the view.
	 * @param context the watch
	 * @param informer the fabric8 informer, not started
	 * @param transforms where added transforms go, in order
	 */
	private CustomizerView(WatchContext<T> context, SharedIndexInformer<T> informer,
			List<Consumer<? super T>> transforms) {
		this.context = context;
		this.informer = informer;
		this.transforms = transforms;
	}

	@Override
	public InformerDefinition<T> getDefinition() {
		return this.context.definition();
	}

	@Override
	public @Nullable String getNamespace() {
		return this.context.namespace();
	}

	@Override
	public SharedIndexInformer<T> getInformer() {
		return this.informer;
	}

	@Override
	public void addTransform(Consumer<? super T> transform) {
		this.transforms.add(transform);
	}

}
