package dev.informer;

import java.time.Duration;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Thrown when a value of an informer declaration cannot work: a missing or malformed
 * value, one the API server rejects, or a default that every declaration inherits. Names
 * the property, its value, what is wrong and the fix, in the words of
 * {@link DeclarationRules}.
 * <p>
 * An {@link InvalidConfigurationPropertyValueException} whose {@link #getName() name} is
 * the configuration property that sets the value,
 * {@code informer.resources.<name>.<property>} (also for a declaration built in code) or
 * {@code informer.<property>} for a default.
 *
 * @since 0.1.0
 */
public class InvalidInformerDeclarationException extends InvalidConfigurationPropertyValueException {

	private final @Nullable String informerName;

	private final String property;

	private final String problem;

	private final String action;

	private final @Nullable Throwable cause;

	/**
	 * Create a new exception.
	 * @param informerName the informer's name
	 * @param property the property of the declaration, in kebab case (for example
	 * {@code label-selector})
	 * @param value the bad value
	 * @param problem what is wrong
	 * @param action how to fix it
	 */
	public InvalidInformerDeclarationException(String informerName, String property, @Nullable Object value,
			String problem, String action) {
		this(informerName, property, value, problem, action, null);
	}

	/**
	 * Create a new exception with a cause.
	 * @param informerName the informer's name
	 * @param property the property of the declaration, in kebab case
	 * @param value the bad value
	 * @param problem what is wrong
	 * @param action how to fix it
	 * @param cause the cause
	 */
	public InvalidInformerDeclarationException(String informerName, String property, @Nullable Object value,
			String problem, String action, @Nullable Throwable cause) {
		this(property, value, problem, action, cause, informerName);
	}

	/**
	 * Create a new exception for an informer's value or, without an informer, a value of
	 * the {@code informer.*} properties.
	 * @param property the property of the declaration, in kebab case, or the property
	 * relative to {@code informer.} when {@code informerName} is {@code null}
	 * @param value the bad value
	 * @param problem what is wrong
	 * @param action how to fix it
	 * @param cause the cause
	 * @param informerName the informer's name, or {@code null}
	 */
	protected InvalidInformerDeclarationException(String property, @Nullable Object value, String problem,
			String action, @Nullable Throwable cause, @Nullable String informerName) {
		super(configurationProperty(informerName, property), display(value), reason(property, problem, action));
		this.informerName = informerName;
		this.property = property;
		this.problem = problem;
		this.action = action;
		this.cause = cause;
	}

	/**
	 * Create an exception for a default that every declaration inherits unless it sets
	 * its own, such as {@code informer.resync-period}.
	 * @param property the property of the declaration the default is for, in kebab case
	 * (for example {@code resync-period})
	 * @param value the bad value
	 * @param problem what is wrong
	 * @param action how to fix it
	 * @return the exception
	 */
	public static InvalidInformerDeclarationException ofDefault(String property, @Nullable Object value, String problem,
			String action) {
		return new InvalidInformerDeclarationException(property, value, problem, action, null, null);
	}

	/**
	 * Explain a request of an informer that the API server rejected as malformed (HTTP
	 * 400): the declared selector it most likely rejected, with the server's message.
	 * @param declaration the informer's declaration
	 * @param message the server's message
	 * @param cause the rejection
	 * @return the exception
	 */
	public static InvalidInformerDeclarationException rejectedByServer(InformerDeclaration declaration, String message,
			Throwable cause) {
		String problem = "was rejected by the API server (HTTP 400): " + message;
		String labels = declaration.getLabelSelector();
		String fields = declaration.getFieldSelector();
		boolean blameFields = fields != null && (labels == null || message.toLowerCase(Locale.ROOT).contains("field"));
		if (blameFields) {
			return new InvalidInformerDeclarationException(declaration.getName(), "field-selector", fields, problem,
					"Select by a field the API server supports for " + declaration.getKind()
							+ ": metadata.name and metadata.namespace for every kind, a few more for some "
							+ "(for example spec.nodeName and status.phase for Pods); check with kubectl get "
							+ declaration.getKind() + " --field-selector '" + fields + "'.",
					cause);
		}
		if (labels != null) {
			return new InvalidInformerDeclarationException(declaration.getName(), "label-selector", labels, problem,
					"Fix the selector; check it with kubectl get " + declaration.getKind() + " -l '" + labels + "'.",
					cause);
		}
		return new InvalidInformerDeclarationException(declaration.getName(), "kind", declaration.getKind(), problem,
				"The list carries no selector: check the declaration against the API server with kubectl get "
						+ declaration.getKind() + ".",
				cause);
	}

	/**
	 * A duration as a user writes it ({@code -5s}, {@code 1500ms}), not in ISO-8601
	 * ({@code PT-5S}); other values as they are.
	 */
	private static @Nullable Object display(@Nullable Object value) {
		if (value instanceof Duration duration) {
			long millis = duration.toMillis();
			if (millis % 1000 != 0) {
				return millis + "ms";
			}
			long seconds = duration.toSeconds();
			if (seconds == 0) {
				return "0s";
			}
			if (seconds % 3600 == 0) {
				return (seconds / 3600) + "h";
			}
			return (seconds % 60 == 0) ? (seconds / 60) + "m" : seconds + "s";
		}
		return value;
	}

	private static String configurationProperty(@Nullable String informerName, String property) {
		return (informerName != null) ? "informer.resources." + informerName + "." + property : "informer." + property;
	}

	private static String reason(String property, String problem, String action) {
		return property + " " + (problem.endsWith(".") ? problem : problem + ".") + " " + action;
	}

	/**
	 * Return the message: the informer (or the defaults), the property, its value and
	 * what is wrong with it.
	 * @return the message
	 */
	@Override
	public String getMessage() {
		String scope = (this.informerName != null) ? "Informer '" + this.informerName + "'" : "Informer defaults";
		return scope + ": " + this.property + " '" + getValue() + "' " + this.problem;
	}

	/**
	 * Return the cause: Spring Boot's exception takes none in its public constructor.
	 * @return the cause or {@code null}
	 */
	@Override
	public synchronized @Nullable Throwable getCause() {
		return this.cause;
	}

	/**
	 * Return the informer's name.
	 * @return the name, or {@code null} when the value is a default that every
	 * declaration inherits
	 */
	public @Nullable String getInformerName() {
		return this.informerName;
	}

	/**
	 * Return the offending property of the declaration, in kebab case and relative to the
	 * declaration (for example {@code label-selector}); {@link #getName()} is the
	 * configuration property.
	 * @return the property
	 */
	public String getProperty() {
		return this.property;
	}

	/**
	 * Return what is wrong with the value.
	 * @return the problem
	 */
	public String getProblem() {
		return this.problem;
	}

	/**
	 * Return how to fix the declaration.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
