package dev.informer.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application that reacts to Kubernetes changes through the informer
 * starter. Runs against the current kubeconfig context, or, when no cluster answers,
 * against an embedded demo API server that it fills with changing objects (see
 * {@link DemoMode}).
 */
@SpringBootApplication
public class SampleApplication {

	public static void main(String[] args) {
		application(DemoMode.requested()).run(args);
	}

	static SpringApplication application(String demoMode) {
		SpringApplication application = new SpringApplication(SampleApplication.class);
		DemoMode.apply(application, demoMode);
		return application;
	}

}
