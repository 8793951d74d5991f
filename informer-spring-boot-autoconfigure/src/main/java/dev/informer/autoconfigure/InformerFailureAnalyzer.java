package dev.informer.autoconfigure;

import dev.informer.InvalidInformerDeclarationException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an invalid informer declaration: the property, its value, what is wrong and
 * how to fix it.
 */
class InformerFailureAnalyzer extends AbstractFailureAnalyzer<InvalidInformerDeclarationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidInformerDeclarationException cause) {
		String property = "informer.resources." + cause.getInformerName() + "." + cause.getProperty();
		String description = "Informer '" + cause.getInformerName() + "' is declared with a value that cannot work:"
				+ "\n\n    Property: " + property + "\n    Value:    " + cause.getValue() + "\n    Reason:   "
				+ cause.getProblem();
		return new FailureAnalysis(description, cause.getAction(), cause);
	}

}
