package dev.informer.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

import dev.informer.InvalidInformerDeclarationException;

/**
 * Explains an invalid informer declaration, an invalid default of every declaration, or a
 * key under {@code informer.} that binds to nothing: the property, its value, what is
 * wrong and how to fix it.
 * <p>
 * Ordered before Spring Boot's analyzer of
 * {@code InvalidConfigurationPropertyValueException} (the exception's superclass), which
 * would show the fix as part of the reason and ask the user to review the value.
 */
class InformerFailureAnalyzer extends AbstractFailureAnalyzer<InvalidInformerDeclarationException> implements Ordered {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidInformerDeclarationException cause) {
		String declared = (cause instanceof UnknownInformerPropertyException) ? unknown(cause)
				: (cause.getInformerName() != null)
						? "Informer '" + cause.getInformerName() + "' is declared with a value that cannot work:"
						: "A default that every informer declaration inherits has a value that cannot work:";
		String description = declared + "\n\n    Property: " + cause.getName() + "\n    Value:    " + cause.getValue()
				+ "\n    Reason:   " + cause.getProblem();
		return new FailureAnalysis(description, cause.getAction(), cause);
	}

	private static String unknown(InvalidInformerDeclarationException cause) {
		return (cause.getInformerName() != null)
				? "Informer '" + cause.getInformerName() + "' is declared with a key the starter does not know:"
				: "A key under 'informer.' is not a property of the starter:";
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE - 100;
	}

}
