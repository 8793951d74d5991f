package dev.informer.watch;

import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.MismatchedInputException;

import org.springframework.util.StringUtils;

/**
 * Reads HTTP status, reason and message out of fabric8 exceptions, as {@link WatchError}
 * and the logs show them. What to do about an error is explained by the runtime.
 *
 * @since 0.1.0
 */
public final class KubernetesErrors {

	private KubernetesErrors() {
	}

	/**
	 * Strip completion and execution wrappers.
	 * @param ex the exception
	 * @return the first cause that is not a wrapper
	 */
	public static Throwable unwrap(Throwable ex) {
		Throwable current = ex;
		while ((current instanceof CompletionException || current instanceof ExecutionException)
				&& current.getCause() != null) {
			current = current.getCause();
		}
		return current;
	}

	/**
	 * Return the HTTP status code behind an exception, or 0 if there is none (for example
	 * a connection failure).
	 * @param ex the exception
	 * @return the HTTP status code or 0
	 */
	public static int httpCode(@Nullable Throwable ex) {
		for (Throwable current = ex; current != null; current = current.getCause()) {
			if (current instanceof WatcherException watcherException && watcherException.isHttpGone()) {
				return 410;
			}
			if (current instanceof KubernetesClientException kce && kce.getCode() > 0) {
				return kce.getCode();
			}
			if (current.getCause() == current) {
				break;
			}
		}
		return 0;
	}

	/**
	 * Return the API server's reason for an error ({@code Forbidden},
	 * {@code Expired}...), or a short classification when there is none.
	 * @param ex the exception
	 * @return the reason
	 */
	public static String reason(Throwable ex) {
		for (Throwable current = ex; current != null; current = current.getCause()) {
			if (current instanceof KubernetesClientException kce) {
				Status status = kce.getStatus();
				if (status != null && StringUtils.hasText(status.getReason())) {
					return status.getReason();
				}
			}
			if (current.getCause() == current) {
				break;
			}
		}
		int code = httpCode(ex);
		if (code == 403) {
			return "Forbidden";
		}
		if (code == 410) {
			return "Gone";
		}
		if (code == 401) {
			return "Unauthorized";
		}
		if (code >= 500) {
			return "ServerError";
		}
		if (isConnectionFailure(ex)) {
			return "Unreachable";
		}
		return unwrap(ex).getClass().getSimpleName();
	}

	/**
	 * Return whether the exception means the API server could not be reached.
	 * @param ex the exception
	 * @return whether the server is unreachable
	 */
	public static boolean isConnectionFailure(Throwable ex) {
		if (httpCode(ex) != 0) {
			return false;
		}
		for (Throwable current = ex; current != null; current = current.getCause()) {
			if (current instanceof IOException) {
				return true;
			}
			if (current.getCause() == current) {
				break;
			}
		}
		return false;
	}

	/**
	 * Return a one-line message for an exception, without stack, safe to log and to show
	 * in health: never the content of a watch event. fabric8 quotes the raw event in the
	 * message of the {@link WatcherException} it closes a watch with when it cannot read
	 * an event, and Jackson quotes the value it could not read; either may be Secret
	 * data. Such failures are described by exception type, JSON path and expected type
	 * only.
	 * @param ex the exception
	 * @return the message
	 */
	public static String message(Throwable ex) {
		for (Throwable current = ex; current != null; current = current.getCause()) {
			if (current instanceof JacksonException jackson) {
				return "cannot deserialize: " + describeJackson(jackson);
			}
			if (current.getCause() == current) {
				break;
			}
		}
		for (Throwable current = ex; current != null; current = current.getCause()) {
			if (current instanceof WatcherException watcherException
					&& watcherException.getRawWatchMessage().isPresent()) {
				return withoutEvent(watcherException, watcherException.getRawWatchMessage().get());
			}
			if (current.getCause() == current) {
				break;
			}
		}
		Throwable root = unwrap(ex);
		String message = root.getMessage();
		return (message != null) ? message : root.getClass().getName();
	}

	private static String describeJackson(JacksonException jackson) {
		StringBuilder description = new StringBuilder(jackson.getClass().getSimpleName());
		if (jackson instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
			description.append(", expected ").append(mismatch.getTargetType().getName());
		}
		return description.append(" at ").append(jackson.getPathReference()).toString();
	}

	/**
	 * fabric8's message for an event it could not process ({@code "Invalid object
	 * received: <event>"}), up to the event, and the type of its cause.
	 */
	private static String withoutEvent(WatcherException ex, String rawEvent) {
		String message = (ex.getMessage() != null) ? ex.getMessage() : "";
		int event = message.indexOf(rawEvent);
		if (event < 0) {
			// not quoted as sent: cut at whatever looks like JSON
			event = message.indexOf('{');
		}
		if (event >= 0) {
			message = message.substring(0, event).strip() + " (event omitted)";
		}
		if (!StringUtils.hasText(message)) {
			message = "cannot process a watch event (event omitted)";
		}
		Throwable cause = ex.getCause();
		return (cause != null) ? message + ", caused by " + cause.getClass().getName() : message;
	}

	/**
	 * Return one line for logs and health: the HTTP code when there is one, the reason
	 * and the {@link #message(Throwable) message}, safe as that message is.
	 * @param ex the exception
	 * @return the description
	 */
	public static String describe(Throwable ex) {
		int code = httpCode(ex);
		return ((code != 0) ? "HTTP " + code + " " : "") + reason(ex) + ": " + message(ex);
	}

	/**
	 * Describe an error as {@link #describe(Throwable)} does, with the API server's own
	 * message ({@link #serverMessage(Throwable)}) instead of the client's.
	 * @param ex the exception
	 * @return the description
	 */
	public static String describeAnswer(Throwable ex) {
		int code = httpCode(ex);
		return ((code != 0) ? "HTTP " + code + " " : "") + reason(ex) + ": " + serverMessage(ex);
	}

	/**
	 * Return the API server's own message for an error (the {@code message} of the Status
	 * it answered), or {@link #message(Throwable)} when it sent none.
	 * @param ex the exception
	 * @return the message
	 */
	public static String serverMessage(Throwable ex) {
		for (Throwable current = ex; current != null; current = current.getCause()) {
			if (current instanceof KubernetesClientException kce && kce.getStatus() != null
					&& StringUtils.hasText(kce.getStatus().getMessage())) {
				return kce.getStatus().getMessage();
			}
			if (current.getCause() == current) {
				break;
			}
		}
		return message(ex);
	}

}
