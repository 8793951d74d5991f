package dev.informer.runtime.kinds;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.informer.watch.UndecodableObject;

/**
 * fabric8's serialization, as one informer's requests use it, with two savings on what
 * fabric8 decodes for every object:
 * <ul>
 * <li>A watch event's object is bound straight to the informer's resource class as it is
 * read. fabric8 reads each event into a tree first, to find the object's class by its
 * kind, binds the tree afterwards, and reads the event from a copy of the message's
 * bytes; the profile of a watch stream puts that at about half of the client's CPU per
 * event ({@code docs/benchmarks.md}). An event this cannot read the fast way (an object
 * before its type, a malformed message) is read by fabric8 as before, so that its errors
 * stay fabric8's.</li>
 * <li>With managed fields stripped ({@code strip-managed-fields}, the default), they are
 * skipped while decoding instead of being decoded into maps and dropped before caching:
 * they are about half of an object written with server-side apply.</li>
 * </ul>
 * An informer's own instance ({@link #reporting(UndecodableObjects)}) skips an object
 * that does not decode into the resource class, in a list and on the watch, and tells the
 * informer which one and where it fails, never its content: the rest of the list is
 * delivered and the watch goes on (an object that stopped decoding is handed on as
 * deleted, one that never decoded only advances the resourceVersion). A list is first
 * decoded whole, as fabric8 does; only a list that fails in one of its items is decoded
 * again item by item.
 * <p>
 * It also inflates the gzip-compressed lists the informer's client asks for
 * ({@code compress-lists}): fabric8 does not. Decoding uses fabric8's own configuration
 * of its mapper (modules, features); the application's client keeps its serialization for
 * everything else.
 *
 * @since 0.1.0
 */
public final class InformerSerialization extends KubernetesSerialization {

	/**
	 * One per resource class, kind and stripping: a mapper learns each class once, and
	 * every relist of an informer reuses what it learnt. Held by the class, so that the
	 * class is never kept from being unloaded.
	 */
	private static final ClassValue<Map<String, InformerSerialization>> shared = new ClassValue<>() {

		@Override
		protected Map<String, InformerSerialization> computeValue(Class<?> type) {
			return new ConcurrentHashMap<>();
		}

	};

	/** Set while the super constructor configures a mapper that is already configured. */
	private static final ThreadLocal<ObjectMapper> configured = new ThreadLocal<>();

	private final Class<?> resourceType;

	private final String kind;

	/** The instance whose mapper and readers this one uses: itself unless reporting. */
	private final InformerSerialization decoding;

	private final UndecodableObjects objects;

	// the objects skipped in the pages of the list being decoded; guarded by itself
	private final List<UndecodableObject> listSkipped = new ArrayList<>();

	// set while the super constructor configures the mapper: no initializer
	private @Nullable ObjectMapper mapper;

	private @Nullable ObjectReader resources;

	private @Nullable ObjectReader statuses;

	/**
	 * Return the serialization of the informers that decode one kind into one class.
	 * @param resourceType the class the informer's objects are decoded into
	 * @param kind the kind the API server sends them as
	 * @param skipManagedFields whether to skip {@code metadata.managedFields}
	 * @return the serialization
	 */
	public static InformerSerialization of(Class<?> resourceType, String kind, boolean skipManagedFields) {
		return shared.get(resourceType)
			.computeIfAbsent(kind + "/" + skipManagedFields,
					(key) -> new InformerSerialization(resourceType, kind, skipManagedFields));
	}

	/**
	 * Create the serialization of one informer.
	 * @param resourceType the class the informer's objects are decoded into
	 * @param kind the kind the API server sends them as
	 * @param skipManagedFields whether to skip {@code metadata.managedFields}
	 */
	public InformerSerialization(Class<?> resourceType, String kind, boolean skipManagedFields) {
		super(mapper(skipManagedFields), true);
		this.resourceType = resourceType;
		this.kind = kind;
		this.decoding = this;
		this.objects = UndecodableObjects.NONE;
	}

	private InformerSerialization(InformerSerialization shared, UndecodableObjects objects) {
		super(alreadyConfigured(shared.mapper), true);
		this.resourceType = shared.resourceType;
		this.kind = shared.kind;
		this.decoding = shared;
		this.objects = objects;
	}

	private static ObjectMapper alreadyConfigured(@Nullable ObjectMapper mapper) {
		if (mapper == null) {
			throw new IllegalStateException("Serialization not configured");
		}
		configured.set(mapper);
		return mapper;
	}

	/**
	 * Return this serialization for one informer, which skips objects that do not decode
	 * and tells the informer about them. It shares this one's mapper.
	 * @param objects what to tell
	 * @return the informer's serialization
	 */
	public InformerSerialization reporting(UndecodableObjects objects) {
		return (objects != UndecodableObjects.NONE) ? new InformerSerialization(this.decoding, objects) : this.decoding;
	}

	private static ObjectMapper mapper(boolean skipManagedFields) {
		JsonMapper.Builder builder = JsonMapper.builder();
		if (skipManagedFields) {
			builder.addMixIn(ObjectMeta.class, WithoutManagedFields.class);
		}
		return builder.build();
	}

	@Override
	protected ObjectMapper configureMapper(ObjectMapper mapper) {
		if (configured.get() == mapper) {
			// an informer's instance: the shared mapper, with everything it learnt
			configured.remove();
			this.mapper = mapper;
			return mapper;
		}
		ObjectMapper result = super.configureMapper(mapper);
		this.mapper = result;
		return result;
	}

	/**
	 * Read a response body, inflating it first when the API server compressed it (the
	 * informer's client asks for gzip-compressed lists, see
	 * {@code informer.compress-lists}).
	 */
	@Override
	public <T> T unmarshal(InputStream is, TypeReference<T> type) {
		// fabric8 reads a response's body into memory before decoding it
		boolean skipping = this.objects != UndecodableObjects.NONE && is instanceof ByteArrayInputStream;
		if (!skipping) {
			return super.unmarshal(inflated(is), type);
		}
		is.mark(0);
		T result;
		try {
			result = super.unmarshal(inflated(is), type);
		}
		catch (RuntimeException ex) {
			if (!failedInAnItem(ex)) {
				throw ex;
			}
			result = listSkipping(is, type);
		}
		pageDecoded(result);
		return result;
	}

	/**
	 * Whether a list failed to bind one of its items, not to parse: only then can the
	 * others be delivered.
	 */
	private static boolean failedInAnItem(Throwable ex) {
		for (Throwable current = ex; current != null; current = current.getCause()) {
			if (current instanceof DatabindException databind) {
				List<JacksonException.Reference> path = databind.getPath();
				return path.size() > 2 && "items".equals(path.get(0).getPropertyName());
			}
			if (current.getCause() == current) {
				break;
			}
		}
		return false;
	}

	/**
	 * Decode a list item by item, skipping those that do not bind. Items are bound from
	 * the stream as fabric8 binds a list's items; after one that does not bind, the rest
	 * of its tokens are skipped. Only when some did not bind is the list read once more,
	 * to name them: their trees alone, the other items' tokens skipped.
	 */
	@SuppressWarnings("unchecked")
	private <T> T listSkipping(InputStream body, TypeReference<T> type) {
		ObjectMapper mapper = this.decoding.mapper;
		if (mapper == null) {
			throw new IllegalStateException("Serialization not configured");
		}
		ObjectReader resources = this.decoding.resources(mapper);
		ObjectReader trees = nested(mapper, JsonNode.class);
		List<HasMetadata> items = new ArrayList<>();
		Map<Integer, DatabindException> failed = new LinkedHashMap<>();
		ObjectNode withoutItems = mapper.createObjectNode();
		try (JsonParser parser = mapper.createParser(reread(body))) {
			expectObject(parser);
			String field;
			while ((field = parser.nextName()) != null) {
				JsonToken value = parser.nextToken();
				if ("items".equals(field) && value == JsonToken.START_ARRAY) {
					int depth = parser.streamReadContext().getNestingDepth();
					for (int index = 0; parser.nextToken() != JsonToken.END_ARRAY; index++) {
						try {
							items.add((HasMetadata) resources.readValue(parser));
						}
						catch (DatabindException ex) {
							failed.put(index, ex);
							// the rest of the item: back to the array's depth
							while (parser.streamReadContext().getNestingDepth() > depth) {
								parser.nextToken();
							}
						}
					}
					withoutItems.putArray("items");
				}
				else {
					withoutItems.set(field, trees.<JsonNode>readValue(parser));
				}
			}
		}
		if (!failed.isEmpty()) {
			named(mapper, trees, reread(body), failed);
		}
		T list = mapper.readerFor(mapper.getTypeFactory().constructType(type)).readValue(withoutItems);
		((KubernetesResourceList<HasMetadata>) list).getItems().addAll(items);
		return list;
	}

	/**
	 * Name the items of a list that did not bind, from their trees.
	 */
	private void named(ObjectMapper mapper, ObjectReader trees, InputStream in,
			Map<Integer, DatabindException> failed) {
		try (JsonParser parser = mapper.createParser(in)) {
			expectObject(parser);
			String field;
			while ((field = parser.nextName()) != null) {
				JsonToken value = parser.nextToken();
				if (!"items".equals(field) || value != JsonToken.START_ARRAY) {
					parser.skipChildren();
					continue;
				}
				for (int index = 0; parser.nextToken() != JsonToken.END_ARRAY; index++) {
					DatabindException ex = failed.get(index);
					if (ex == null) {
						parser.skipChildren();
						continue;
					}
					UndecodableObject skipped = undecodable(trees.readValue(parser), ex);
					synchronized (this.listSkipped) {
						this.listSkipped.add(skipped);
					}
				}
			}
		}
	}

	private static void expectObject(JsonParser parser) {
		if (parser.nextToken() != JsonToken.START_OBJECT) {
			throw new IllegalStateException("Not a list");
		}
	}

	/**
	 * The body from its start again (fabric8 hands it over in memory).
	 */
	private static InputStream reread(InputStream body) {
		try {
			body.reset();
		}
		catch (IOException ex) {
			throw KubernetesClientException.launderThrowable(ex);
		}
		return inflated(body);
	}

	/**
	 * Once the last page of a list is decoded, tell the informer which objects do not
	 * decode now.
	 */
	private void pageDecoded(Object result) {
		if (!(result instanceof KubernetesResourceList<?> list)) {
			return;
		}
		ListMeta metadata = list.getMetadata();
		if (metadata != null && metadata.getContinue() != null && !metadata.getContinue().isEmpty()) {
			return;
		}
		List<UndecodableObject> skipped;
		synchronized (this.listSkipped) {
			skipped = List.copyOf(this.listSkipped);
			this.listSkipped.clear();
		}
		this.objects.listed(skipped);
	}

	private static InputStream inflated(InputStream body) {
		InputStream in = body.markSupported() ? body : new BufferedInputStream(body);
		try {
			in.mark(2);
			int first = in.read();
			int second = in.read();
			in.reset();
			return (first == 0x1f && second == 0x8b) ? new GZIPInputStream(in, 65536) : in;
		}
		catch (IOException ex) {
			throw KubernetesClientException.launderThrowable(ex);
		}
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T> T unmarshal(String str, Class<T> type) {
		if (type == WatchEvent.class) {
			WatchEvent event = readWatchEvent(str);
			if (event != null) {
				return (T) event;
			}
		}
		return super.unmarshal(str, type);
	}

	/**
	 * Read a watch event whose type comes before its object, as the API server writes
	 * them, binding the object as it is read.
	 * @return the event, or {@code null} to let fabric8 read it
	 */
	private @Nullable WatchEvent readWatchEvent(String message) {
		ObjectMapper mapper = this.decoding.mapper;
		if (mapper == null) {
			return null;
		}
		try (JsonParser parser = mapper.createParser(message.getBytes(StandardCharsets.UTF_8))) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				return null;
			}
			String type = null;
			Object object = null;
			String field;
			while ((field = parser.nextName()) != null) {
				JsonToken value = parser.nextToken();
				if ("type".equals(field) && value == JsonToken.VALUE_STRING) {
					type = parser.getString();
				}
				else if ("object".equals(field) && type != null && value == JsonToken.START_OBJECT) {
					try {
						object = "ERROR".equals(type) ? this.decoding.statuses(mapper).readValue(parser)
								: this.decoding.resources(mapper).readValue(parser);
					}
					catch (DatabindException ex) {
						return skipped(mapper, message, type, ex);
					}
				}
				else if ("object".equals(field)) {
					// an object before its type, or not an object: fabric8's way
					return null;
				}
				else {
					parser.skipChildren();
				}
			}
			if (type == null || object == null
					|| (object instanceof HasMetadata resource && !this.kind.equals(resource.getKind()))) {
				// not what this informer watches (fabric8 decides what that is)
				return null;
			}
			return new WatchEvent(object, type);
		}
		catch (JacksonException | IllegalArgumentException ex) {
			return null;
		}
	}

	/**
	 * Read an event whose object does not decode into what the watch hands on in its
	 * place: a delete of the object's last decoded state if it is cached, else a bookmark
	 * of its resourceVersion, so that the watch goes on past it.
	 * @return the event, or {@code null} to let fabric8 read it (and fail)
	 */
	private @Nullable WatchEvent skipped(ObjectMapper mapper, String message, String type, DatabindException ex) {
		boolean deleted = "DELETED".equals(type);
		if (this.objects == UndecodableObjects.NONE || !(deleted || "ADDED".equals(type) || "MODIFIED".equals(type))) {
			return null;
		}
		JsonNode object = mapper.readTree(message).path("object");
		UndecodableObject undecodable = undecodable(object, ex);
		String resourceVersion = undecodable.resourceVersion();
		if (!this.kind.equals(undecodable.kind()) || resourceVersion == null) {
			return null;
		}
		if (deleted) {
			this.objects.deleted(undecodable.key());
		}
		else {
			this.objects.skipped(undecodable);
		}
		HasMetadata cached = this.objects.cached(undecodable.key());
		if (cached != null) {
			// its last decoded state, at the event's version: the watch's version never
			// goes back
			HasMetadata handedOn = clone(cached);
			handedOn.getMetadata().setResourceVersion(resourceVersion);
			this.objects.stoppedDecoding(handedOn, cached);
			return new WatchEvent(handedOn, "DELETED");
		}
		ObjectNode versionOnly = mapper.createObjectNode();
		versionOnly.putObject("metadata").put("resourceVersion", resourceVersion);
		return new WatchEvent(mapper.treeToValue(versionOnly, this.resourceType), "BOOKMARK");
	}

	/**
	 * Name an object that does not decode, and where, without its content.
	 */
	private UndecodableObject undecodable(JsonNode object, DatabindException ex) {
		JsonNode metadata = object.path("metadata");
		StringBuilder path = new StringBuilder();
		for (JacksonException.Reference reference : ex.getPath()) {
			if (reference.getPropertyName() != null) {
				path.append((path.length() > 0) ? "." : "").append(reference.getPropertyName());
			}
			else if (reference.getIndex() >= 0) {
				path.append('[').append(reference.getIndex()).append(']');
			}
		}
		StringBuilder problem = new StringBuilder(ex.getClass().getSimpleName());
		if (ex instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
			problem.append(", expected ").append(mismatch.getTargetType().getName());
		}
		return new UndecodableObject(text(object.path("kind"), this.kind), text(metadata.path("namespace"), null),
				String.valueOf(text(metadata.path("name"), "")), text(metadata.path("uid"), null),
				text(metadata.path("resourceVersion"), null), path.toString(), problem.toString());
	}

	private static @Nullable String text(JsonNode node, @Nullable String otherwise) {
		return node.isString() ? node.stringValue() : otherwise;
	}

	private ObjectReader resources(ObjectMapper mapper) {
		ObjectReader reader = this.resources;
		if (reader == null) {
			reader = nested(mapper, this.resourceType);
			this.resources = reader;
		}
		return reader;
	}

	private ObjectReader statuses(ObjectMapper mapper) {
		ObjectReader reader = this.statuses;
		if (reader == null) {
			reader = nested(mapper, Status.class);
			this.statuses = reader;
		}
		return reader;
	}

	/**
	 * A reader of the value inside an event: the rest of the event follows it.
	 */
	private static ObjectReader nested(ObjectMapper mapper, Class<?> type) {
		return mapper.readerFor(type).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
	}

	/**
	 * Skips {@code managedFields} when decoding {@link ObjectMeta}.
	 */
	@JsonIgnoreProperties({ "managedFields" })
	private abstract static class WithoutManagedFields {

		abstract @Nullable List<?> getManagedFields();

	}

}
