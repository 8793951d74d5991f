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
 * Resolves {@code informer.delivery.*} with its defaults: the group from
 * {@code spring.application.name}, the identity from the pod name, the Lease namespace
 * from the pod's namespace.
 */
final class DeliveryOptionsFactory {

	static final Path POD_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

	private DeliveryOptionsFactory() {
	}

	static DeliveryOptions create(InformerProperties properties, Environment environment, Set<String> informers) {
		return create(properties, environment, informers, POD_NAMESPACE);
	}

	static DeliveryOptions create(InformerProperties properties, Environment environment, Set<String> informers,
			Path podNamespace) {
		InformerProperties.Delivery delivery = properties.getDelivery();
		Map<String, DeliveryMode> modes = new LinkedHashMap<>();
		properties.getResources().forEach((name, resource) -> {
			if (resource.getDeliveryMode() != null && informers.contains(name)) {
				modes.put(name, resource.getDeliveryMode());
			}
		});
		boolean shared = delivery.getMode() != DeliveryMode.ALL
				|| modes.values().stream().anyMatch((mode) -> mode != DeliveryMode.ALL);
		String group = group(delivery, environment, shared);
		DeliveryOptions options = new DeliveryOptions(delivery.getMode(), modes, group, identity(delivery, environment),
				leaseNamespace(delivery, podNamespace), delivery.getLeaseDuration(), delivery.getRenewDeadline(),
				delivery.getRetryPeriod(), delivery.isServerSharding());
		boolean sharded = delivery.getMode() == DeliveryMode.SHARDED || modes.containsValue(DeliveryMode.SHARDED);
		if (sharded) {
			validateMemberLeaseName(options);
		}
		return options;
	}

	/**
	 * A sharded member's Lease is named after the group and the identity; an identity
	 * that leaves no valid name would be refused by the API server at every attempt.
	 */
	private static void validateMemberLeaseName(DeliveryOptions options) {
		String name = options.memberLeaseName();
		if (!InformerProperties.LEASE_NAME.matcher(name).matches()) {
			throw new InvalidConfigurationPropertyValueException("informer.delivery.identity", options.identity(),
					"gives '" + name + "' as the name of this replica's Lease, which is not a valid Lease name "
							+ "(lower case letters, digits, '-' and '.', no two of '.' and '-' in a row); set "
							+ "informer.delivery.identity to a valid name, for example the pod name");
		}
	}

	private static String group(InformerProperties.Delivery delivery, Environment environment, boolean required) {
		if (delivery.getGroup() != null) {
			// checked when bound
			return delivery.getGroup();
		}
		String application = environment.getProperty("spring.application.name");
		if (!StringUtils.hasText(application)) {
			if (required) {
				throw new InvalidConfigurationPropertyValueException("informer.delivery.group", null,
						"is not set, nor is spring.application.name, and an informer's delivery mode is 'leader' or "
								+ "'sharded': the replicas of one application share a group, the name of their Leases; "
								+ "set informer.delivery.group (for example 'orders-service') or "
								+ "spring.application.name");
			}
			return "informers";
		}
		String group = DeliveryOptions.leaseName(application);
		if (group.isEmpty() || !InformerProperties.LEASE_NAME.matcher(group).matches()) {
			if (required) {
				throw new InvalidConfigurationPropertyValueException("informer.delivery.group", null,
						"spring.application.name '" + application + "' gives no valid Lease name ('" + group
								+ "'); set informer.delivery.group, for example 'orders-service'");
			}
			return "informers";
		}
		if (group.length() > InformerProperties.MAX_GROUP_LENGTH) {
			if (required) {
				throw new InvalidConfigurationPropertyValueException("informer.delivery.group", null,
						"spring.application.name '" + application + "' gives a group of " + group.length()
								+ " characters; a group must be at most " + InformerProperties.MAX_GROUP_LENGTH
								+ " characters (it is the value of the label " + DeliveryOptions.GROUP_LABEL
								+ " on the Leases of a sharded group's members); set informer.delivery.group, for "
								+ "example 'orders-service'");
			}
			return "informers";
		}
		return group;
	}

	private static String identity(InformerProperties.Delivery delivery, Environment environment) {
		if (StringUtils.hasText(delivery.getIdentity())) {
			return delivery.getIdentity();
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

	private static String leaseNamespace(InformerProperties.Delivery delivery, Path podNamespace) {
		if (StringUtils.hasText(delivery.getLeaseNamespace())) {
			return delivery.getLeaseNamespace();
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
