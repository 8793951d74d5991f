package dev.informer.runtime.kinds;

import java.util.Collection;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import dev.informer.watch.UndecodableObject;

/**
 * What one informer's {@link InformerSerialization} tells its watch about objects that do
 * not decode, and asks it: an object is skipped, not cached and not delivered, while the
 * rest of the list or watch goes on.
 *
 * @since 0.1.0
 */
public interface UndecodableObjects {

	/**
	 * Nothing to tell: objects that do not decode fail their list or watch, as fabric8
	 * does.
	 */
	UndecodableObjects NONE = new UndecodableObjects() {

		@Override
		public void skipped(UndecodableObject object) {
		}

		@Override
		public void deleted(String key) {
		}

		@Override
		public void listed(Collection<UndecodableObject> skipped) {
		}

		@Override
		public @Nullable HasMetadata cached(String key) {
			return null;
		}

		@Override
		public void stoppedDecoding(HasMetadata handedOn, HasMetadata lastDecoded) {
		}

	};

	/**
	 * A watch event's object does not decode: it was skipped.
	 * @param object the object
	 */
	void skipped(UndecodableObject object);

	/**
	 * A watch event deleted an object that did not decode.
	 * @param key its cache key
	 */
	void deleted(String key);

	/**
	 * A list (its last page) was decoded: the objects it skipped are all that do not
	 * decode now.
	 * @param skipped the objects skipped in all its pages
	 */
	void listed(Collection<UndecodableObject> skipped);

	/**
	 * Return the object cached under a key.
	 * @param key the key
	 * @return the object, or {@code null}
	 */
	@Nullable HasMetadata cached(String key);

	/**
	 * A cached object stopped decoding: its last decoded state is handed on as deleted
	 * (final state unknown). fabric8 is handed a copy at the event's resourceVersion, so
	 * that the watch goes on from there; listeners get the last decoded state itself, as
	 * they saw it, observed deleted at that resourceVersion.
	 * @param handedOn the instance handed to fabric8 as deleted
	 * @param lastDecoded the cached object it stands for
	 */
	void stoppedDecoding(HasMetadata handedOn, HasMetadata lastDecoded);

}
