package dev.informer.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;

import dev.informer.Informer;
import dev.informer.InformerDefinition;
import dev.informer.InformerRegistry;
import dev.informer.RbacRules;
import dev.informer.RbacRules.Rule;
import dev.informer.watch.DeliverySnapshot;

/**
 * The RBAC of the user that an {@link InformerTest#restricted() restricted} test's client
 * impersonates: exactly the rules {@link RbacRules} computes for the declared informers,
 * granted with admin rights before the informers start and removed with the context.
 */
final class RestrictedAccess implements DisposableBean {

	private static final String RBAC_GROUP = "rbac.authorization.k8s.io";

	private final KubernetesClient admin;

	private final List<HasMetadata> granted;

	private RestrictedAccess(KubernetesClient admin, List<HasMetadata> granted) {
		this.admin = admin;
		this.granted = granted;
	}

	/**
	 * Grant a user the rules of the registry's informers, and wait until the server
	 * authorizes them.
	 * @param admin a client with admin rights
	 * @param restricted the client that impersonates the user
	 * @param registry the informers
	 * @param ungranted the names of informers whose rules are withheld
	 * @param delivery the delivery modes and Lease namespace, {@code null} for none
	 * @param timeout how long to wait for the server to authorize the rules
	 * @return the grants, removed by {@link #destroy()}
	 */
	static RestrictedAccess grant(KubernetesClient admin, KubernetesClient restricted, InformerRegistry registry,
			Set<String> ungranted, @Nullable DeliverySnapshot delivery, Duration timeout) {
		String user = restricted.getConfiguration().getImpersonateUsername();
		List<InformerDefinition<?>> definitions = new ArrayList<>();
		for (Informer<?> informer : registry.informers()) {
			if (!ungranted.contains(informer.getName())) {
				definitions.add(informer.getDefinition());
			}
		}
		RbacRules rules = RbacRules.of(definitions);
		if (delivery != null) {
			rules = rules.withDelivery(delivery.informerModes().values(), delivery.leaseNamespace());
		}
		Subject subject = new SubjectBuilder().withKind("User").withApiGroup(RBAC_GROUP).withName(user).build();
		List<HasMetadata> granted = new ArrayList<>();
		if (!rules.getClusterRole().isEmpty()) {
			granted.add(new ClusterRoleBuilder().withNewMetadata()
				.withName(user)
				.endMetadata()
				.withRules(policyRules(rules.getClusterRole()))
				.build());
			granted.add(new ClusterRoleBindingBuilder().withNewMetadata()
				.withName(user)
				.endMetadata()
				.withNewRoleRef(RBAC_GROUP, "ClusterRole", user)
				.withSubjects(subject)
				.build());
		}
		for (Map.Entry<String, List<Rule>> role : rules.getRoles().entrySet()) {
			String namespace = role.getKey();
			if (admin.namespaces().withName(namespace).get() == null) {
				admin.namespaces()
					.resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
					.createOr(NonDeletingOperation::update);
			}
			granted.add(new RoleBuilder().withNewMetadata()
				.withName(user)
				.withNamespace(namespace)
				.endMetadata()
				.withRules(policyRules(role.getValue()))
				.build());
			granted.add(new RoleBindingBuilder().withNewMetadata()
				.withName(user)
				.withNamespace(namespace)
				.endMetadata()
				.withNewRoleRef(RBAC_GROUP, "Role", user)
				.withSubjects(subject)
				.build());
		}
		for (HasMetadata grant : granted) {
			admin.resource(grant).createOr(NonDeletingOperation::update);
		}
		awaitAuthorized(restricted, user, rules, timeout);
		return new RestrictedAccess(admin, granted);
	}

	private static List<PolicyRule> policyRules(List<Rule> rules) {
		return rules.stream()
			.map((rule) -> new PolicyRuleBuilder().withApiGroups(rule.apiGroup())
				.withResources(rule.resources())
				.withVerbs(rule.verbs())
				.build())
			.toList();
	}

	/**
	 * The authorizer learns of new roles through its own informers: wait, so that the
	 * first list of an informer is not forbidden for a rule granted a moment ago.
	 */
	private static void awaitAuthorized(KubernetesClient restricted, String user, RbacRules rules, Duration timeout) {
		List<SelfSubjectAccessReview> reviews = new ArrayList<>();
		rules.getClusterRole().forEach((rule) -> reviews.addAll(reviews(rule, null)));
		rules.getRoles()
			.forEach((namespace, roleRules) -> roleRules.forEach((rule) -> reviews.addAll(reviews(rule, namespace))));
		try {
			Awaitility.await("RBAC of " + user + " authorized")
				.atMost(timeout)
				.pollInterval(Duration.ofMillis(50))
				.ignoreException(KubernetesClientException.class)
				.until(() -> reviews.stream().allMatch((review) -> allowed(restricted, review)));
		}
		catch (ConditionTimeoutException ex) {
			throw new IllegalStateException("The API server did not authorize " + user + " for " + rules + " within "
					+ timeout + " after the Roles and bindings were created", ex);
		}
	}

	private static List<SelfSubjectAccessReview> reviews(Rule rule, @Nullable String namespace) {
		List<SelfSubjectAccessReview> reviews = new ArrayList<>();
		for (String resource : rule.resources()) {
			for (String verb : rule.verbs()) {
				reviews.add(new SelfSubjectAccessReviewBuilder().withNewSpec()
					.withNewResourceAttributes()
					.withGroup(rule.apiGroup())
					.withResource(resource)
					.withVerb(verb)
					.withNamespace(namespace)
					.endResourceAttributes()
					.endSpec()
					.build());
			}
		}
		return reviews;
	}

	private static boolean allowed(KubernetesClient restricted, SelfSubjectAccessReview review) {
		SelfSubjectAccessReview answer = restricted.authorization().v1().selfSubjectAccessReview().create(review);
		return answer.getStatus() != null && Boolean.TRUE.equals(answer.getStatus().getAllowed());
	}

	/**
	 * Remove the grants. Contexts cached by the test framework close when the JVM exits,
	 * possibly after the shared server stopped: try once, briefly, instead of retrying.
	 */
	@Override
	public void destroy() {
		Config config = new ConfigBuilder(this.admin.getConfiguration()).withRequestRetryBackoffLimit(0)
			.withConnectionTimeout(1000)
			.withRequestTimeout(2000)
			.build();
		try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
			for (HasMetadata grant : this.granted) {
				client.resource(grant).delete();
			}
		}
		catch (KubernetesClientException ex) {
			// the server is gone, and the grants with it
		}
	}

}
