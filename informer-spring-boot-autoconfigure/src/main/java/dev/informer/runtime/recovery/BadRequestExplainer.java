package dev.informer.runtime.recovery;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.informer.InformerDeclaration;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.watch.KubernetesErrors;

/**
 * A {@link RetryPolicy} that says which declared property the API server most likely
 * rejected when it gives up on an HTTP 400: the log of the failed list names the informer
 * and the server's message, this names what to change.
 */
final class BadRequestExplainer implements RetryPolicy {

	private static final Log logger = LogFactory.getLog(BadRequestExplainer.class);

	private final RetryPolicy delegate;

	private final InformerDeclaration declaration;

	BadRequestExplainer(RetryPolicy delegate, InformerDeclaration declaration) {
		this.delegate = delegate;
		this.declaration = declaration;
	}

	@Override
	public boolean shouldRetry(boolean started, Throwable ex) {
		boolean retry = this.delegate.shouldRetry(started, ex);
		if (!retry && KubernetesErrors.httpCode(ex) == 400) {
			InvalidInformerDeclarationException explained = InvalidInformerDeclarationException
				.rejectedByServer(this.declaration, KubernetesErrors.serverMessage(ex), ex);
			logger.error("Informer '" + this.declaration.getName() + "': " + explained.getName() + " '"
					+ explained.getValue() + "' " + explained.getProblem() + ". " + explained.getAction());
		}
		return retry;
	}

}
