package com.example.usage;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application that reacts to ConfigMaps, as a user would write it.
 */
@SpringBootApplication
public class UsageApplication {

	public static void main(String[] args) {
		SpringApplication.run(UsageApplication.class, args);
	}

}
