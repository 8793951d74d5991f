package com.example.usage;

import org.springframework.stereotype.Service;

/**
 * A component without event listeners, which an informer test slice leaves out.
 */
@Service
public class GreetingService {

	public String greet(String name) {
		return "Hello " + name;
	}

}
