package dev.informer.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application that reacts to Kubernetes changes through the informer
 * starter. Runs against the current kubeconfig context (or the in-cluster service
 * account); the cluster must serve the Widget custom resource ({@link WidgetCrd}). Its
 * demo mode, on an embedded API server, is a test application
 * ({@code ./mvnw -f sample-app spring-boot:test-run}), so the production jar carries no
 * test server.
 */
@SpringBootApplication
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
