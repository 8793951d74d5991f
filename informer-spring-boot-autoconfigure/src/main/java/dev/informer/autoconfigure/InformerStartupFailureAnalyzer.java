package dev.informer.autoconfigure;

import dev.informer.InformerStartupException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains why informers could not start: an unreachable or refusing API server, missing
 * RBAC rules, or a sync timeout.
 */
class InformerStartupFailureAnalyzer extends AbstractFailureAnalyzer<InformerStartupException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InformerStartupException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
	}

}
