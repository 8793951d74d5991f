package dev.informer.test;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A typed custom resource for tests.
 */
@Group("example.com")
@Version("v1")
public class Gadget extends CustomResource<Gadget.Spec, Void> implements Namespaced {

	public static class Spec {

		private String size;

		public String getSize() {
			return this.size;
		}

		public void setSize(String size) {
			this.size = size;
		}

	}

}
