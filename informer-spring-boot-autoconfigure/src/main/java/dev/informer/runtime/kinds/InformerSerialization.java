package dev.informer.runtime.kinds;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.HasMetadata;
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
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

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

	private final Class<?> resourceType;

	private final String kind;

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
		ObjectMapper configured = super.configureMapper(mapper);
		this.mapper = configured;
		return configured;
	}

	/**
	 * Read a response body, inflating it first when the API server compressed it (the
	 * informer's client asks for gzip-compressed lists, see
	 * {@code informer.compress-lists}).
	 */
	@Override
	public <T> T unmarshal(InputStream is, TypeReference<T> type) {
		return super.unmarshal(inflated(is), type);
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
		ObjectMapper mapper = this.mapper;
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
					object = "ERROR".equals(type) ? statuses(mapper).readValue(parser)
							: resources(mapper).readValue(parser);
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
