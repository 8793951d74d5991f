package dev.informer.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import dev.informer.DeliveryMode;
import dev.informer.runtime.replicas.DeliveryOptions;

/**
 * Resolves {@code informer.replicas.*} with its defaults: the group from
 * {@code spring.application.name}, the identity from the pod name, the Lease namespace
 * from the pod's namespace.
 */
final class DeliveryOptionsFactory {

	private static final String GROUP = InformerProperties.REPLICAS + "group";

	private static final String IDENTITY = InformerProperties.REPLICAS + "identity";

	static final Path POD_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

	private DeliveryOptionsFactory() {
	}

	static DeliveryOptions create(InformerProperties properties, Environment environment, Set<String> informers) {
		return create(properties, environment, informers, POD_NAMESPACE);
	}

	static DeliveryOptions create(InformerProperties properties, Environment environment, Set<String> informers,
			Path podNamespace) {
		InformerProperties.Replicas replicas = properties.getReplicas();
		Map<String, DeliveryMode> modes = new LinkedHashMap<>();
		properties.getResources().forEach((name, resource) -> {
			DeliveryMode mode = resource.getReplicas().getMode();
			if (mode != null && informers.contains(name)) {
				modes.put(name, mode);
			}
		});
		boolean shared = replicas.getMode() != DeliveryMode.ALL
				|| modes.values().stream().anyMatch((mode) -> mode != DeliveryMode.ALL);
		String group = group(replicas, properties.nameOf(GROUP), environment, shared);
		DeliveryOptions options = new DeliveryOptions(replicas.getMode(), modes, group, identity(replicas, environment),
				leaseNamespace(replicas, podNamespace), replicas.getLeaseDuration(), replicas.getRenewDeadline(),
				replicas.getRetryPeriod(), replicas.isServerSharding(), properties.getHealth().getStaleAfter(),
				replicas.getStepDownStaleAfter());
		boolean sharded = replicas.getMode() == DeliveryMode.SHARDED || modes.containsValue(DeliveryMode.SHARDED);
		if (sharded) {
			validateMemberLeaseName(options, properties.nameOf(IDENTITY));
		}
		return options;
	}

	/**
	 * A sharded member's Lease is named after the group and the identity; an identity
	 * that leaves no valid name would be refused by the API server at every attempt.
	 */
	private static void validateMemberLeaseName(DeliveryOptions options, String property) {
		String name = options.memberLeaseName();
		if (!InformerProperties.LEASE_NAME.matcher(name).matches()) {
			throw new InvalidConfigurationPropertyValueException(property, options.identity(),
					"gives '" + name + "' as the name of this replica's Lease, which is not a valid Lease name "
							+ "(lower case letters, digits, '-' and '.', no two of '.' and '-' in a row); set "
							+ property + " to a valid name, for example the pod name");
		}
	}

	private static String group(InformerProperties.Replicas replicas, String property, Environment environment,
			boolean required) {
		if (replicas.getGroup() != null) {
			// checked when bound
			return replicas.getGroup();
		}
		String application = environment.getProperty("spring.application.name");
		if (!StringUtils.hasText(application)) {
			if (required) {
				throw new InvalidConfigurationPropertyValueException(property, null,
						"is not set, nor is spring.application.name, and an informer's replicas.mode is 'leader' or "
								+ "'sharded': the replicas of one application share a group, the name of their Leases; "
								+ "set " + property + " (for example 'orders-service') or spring.application.name");
			}
			return "informers";
		}
		String group = DeliveryOptions.leaseName(application);
		if (group.isEmpty() || !InformerProperties.LEASE_NAME.matcher(group).matches()) {
			if (required) {
				throw new InvalidConfigurationPropertyValueException(property, null,
						"spring.application.name '" + application + "' gives no valid Lease name ('" + group
								+ "'); set " + property + ", for example 'orders-service'");
			}
			return "informers";
		}
		if (group.length() > InformerProperties.MAX_GROUP_LENGTH) {
			if (required) {
				throw new InvalidConfigurationPropertyValueException(property, null,
						"spring.application.name '" + application + "' gives a group of " + group.length()
								+ " characters; a group must be at most " + InformerProperties.MAX_GROUP_LENGTH
								+ " characters (it is the value of the label " + DeliveryOptions.GROUP_LABEL
								+ " on the Leases of a sharded group's members); set " + property
								+ ", for example 'orders-service'");
			}
			return "informers";
		}
		return group;
	}

	private static String identity(InformerProperties.Replicas replicas, Environment environment) {
		if (StringUtils.hasText(replicas.getIdentity())) {
			return replicas.getIdentity();
		}
		// in a pod, HOSTNAME is the pod name: unique among live pods and shown by kubectl
		String hostname = environment.getProperty("HOSTNAME");
		if (StringUtils.hasText(hostname)) {
			return hostname;
		}
		return localHost() + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	private static String localHost() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "replica";
		}
	}

	private static String leaseNamespace(InformerProperties.Replicas replicas, Path podNamespace) {
		if (StringUtils.hasText(replicas.getLeaseNamespace())) {
			return replicas.getLeaseNamespace();
		}
		String namespace = read(podNamespace);
		return (namespace != null) ? namespace : "default";
	}

	private static @Nullable String read(Path file) {
		try {
			if (Files.isReadable(file)) {
				String namespace = Files.readString(file, StandardCharsets.UTF_8).trim();
				return namespace.isEmpty() ? null : namespace;
			}
		}
		catch (IOException ex) {
			// not in a pod, or no service account mounted
		}
		return null;
	}

}
