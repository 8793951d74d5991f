package dev.informer.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;
import org.springframework.boot.test.context.PropertyMapping.Skip;
import org.springframework.test.context.ContextCustomizerFactories;

import dev.informer.test.InformerTest.Server;

/**
 * Annotation for a test class that wants what {@link InformerTest @InformerTest} gives (a
 * Kubernetes API server chosen as {@link Server#MOCK}, {@link Server#REAL} or
 * {@link Server#AUTO}, a fresh namespace per application context, manifests created
 * before the informers start, an {@link AdminClient @AdminClient} and
 * {@link InformerEvents}) in a full application context, typically a
 * {@link org.springframework.boot.test.context.SpringBootTest @SpringBootTest}; as
 * {@code @AutoConfigureMockMvc} gives a {@code @SpringBootTest} what {@code @WebMvcTest}
 * has.
 * <p>
 * It imports {@link InformerTestAutoConfiguration}, which is ordered before the starter's
 * auto-configuration so that the informers use the test server's client. It backs off
 * where the application defines its own {@code KubernetesClient} bean (then nothing
 * points the informers at the test server) or its own
 * {@link dev.informer.autoconfigure.KubernetesConnectionDetails} (such as a K3s
 * {@code @ServiceConnection}, which then is the server).
 *
 * @see InformerTest
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@ContextCustomizerFactories(TestNamespaceContextCustomizerFactory.class)
public @interface AutoConfigureInformerTest {

	/**
	 * The Kubernetes API server the informers talk to; at {@link Server#AUTO}, the
	 * {@code informer.test.server} property decides, and without it the real server when
	 * its binaries are installed.
	 * @return the server
	 */
	@PropertyMapping(value = "informer.test.server", skip = Skip.ON_DEFAULT_VALUE)
	Server server() default Server.AUTO;

	/**
	 * Kubernetes manifests created before the informers start, as
	 * {@link InformerTest#manifests()}.
	 * @return the manifest locations
	 */
	@PropertyMapping(value = "informer.test.manifests", skip = Skip.ON_DEFAULT_VALUE)
	String[] manifests() default {};

	/**
	 * Whether the informers run with only the RBAC rules they need, as
	 * {@link InformerTest#restricted()}.
	 * @return whether the informers run with restricted credentials
	 */
	@PropertyMapping(value = "informer.test.restricted", skip = Skip.ON_DEFAULT_VALUE)
	boolean restricted() default false;

}
