package dev.informer.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Qualifier for the {@code KubernetesClient} of an {@link InformerTest @InformerTest}
 * that has the server's admin rights, whatever the application's client may do:
 * <pre class="code">
 * &#064;Autowired
 * &#064;AdminClient
 * KubernetesClient admin;
 * </pre> It created the test's namespace and the {@link InformerTest#manifests()
 * manifests}' objects; with {@link InformerTest#restricted() restricted} credentials, it
 * is the client that can create the objects a test wants the informers to see. It is not
 * a default candidate: an injection point without this qualifier gets the application's
 * client.
 *
 * @since 0.1.0
 */
@Target({ ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface AdminClient {

}
