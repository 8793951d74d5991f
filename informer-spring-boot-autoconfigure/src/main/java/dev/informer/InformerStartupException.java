package dev.informer;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when informers cannot start: the API server is unreachable, denies access, or an
 * informer did not sync in time. Carries a description and the action that fixes it,
 * which Spring Boot's failure analysis prints at startup.
 *
 * @since 0.1.0
 */
public class InformerStartupException extends RuntimeException {

	private final String action;

	/**
	 * Create a new exception.
	 * @param description what went wrong
	 * @param action how to fix it
	 * @param cause the cause, if any
	 */
	public InformerStartupException(String description, String action, @Nullable Throwable cause) {
		super(description, cause);
		this.action = action;
	}

	/**
	 * Return how to fix the problem.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
