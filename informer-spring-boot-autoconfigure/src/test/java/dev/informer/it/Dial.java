package dev.informer.it;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A typed custom resource whose Java class is stricter than its CRD: {@code spec.level}
 * is an {@code int} here, while the CRD's schema preserves any value (a schema that
 * drifted ahead of the class), so an object with a string there cannot be decoded.
 */
@Group("example.com")
@Version("v1")
public class Dial extends CustomResource<Dial.Spec, Void> implements Namespaced {

	/**
	 * The spec.
	 */
	public static class Spec {

		private int level;

		public int getLevel() {
			return this.level;
		}

		public void setLevel(int level) {
			this.level = level;
		}

	}

}
