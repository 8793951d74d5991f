package dev.informer;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when an informer declaration cannot work: a missing or malformed value, or one
 * the API server rejects. Names the informer, the offending property, its value and the
 * fix.
 */
public class InvalidInformerDeclarationException extends RuntimeException {

	private final String informerName;

	private final String property;

	private final @Nullable Object value;

	private final String problem;

	private final String action;

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
		super("Informer '" + informerName + "': " + property + " '" + value + "' " + problem, cause);
		this.informerName = informerName;
		this.property = property;
		this.value = value;
		this.problem = problem;
		this.action = action;
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
		boolean blameFields = fields != null && (labels == null || message.toLowerCase().contains("field"));
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
	 * Return the informer's name.
	 * @return the name
	 */
	public String getInformerName() {
		return this.informerName;
	}

	/**
	 * Return the offending property of the declaration, in kebab case.
	 * @return the property
	 */
	public String getProperty() {
		return this.property;
	}

	/**
	 * Return the offending value.
	 * @return the value
	 */
	public @Nullable Object getValue() {
		return this.value;
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
