package dev.informer.sample;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.informer.Informer;
import dev.informer.InformerRegistry;

/**
 * Once the application is ready, logs the URLs worth opening, with the actual port.
 */
@Component
class WhereToLook {

	private static final Log logger = LogFactory.getLog(WhereToLook.class);

	private final InformerRegistry informers;

	WhereToLook(InformerRegistry informers) {
		this.informers = informers;
	}

	@EventListener
	void on(ApplicationReadyEvent event) {
		if (!(event.getApplicationContext() instanceof WebServerApplicationContext web)) {
			return;
		}
		String base = "http://localhost:" + web.getWebServer().getPort();
		StringBuilder message = new StringBuilder();
		for (Informer<?> informer : this.informers.informers()) {
			Duration resync = informer.getDefinition().getDeclaration().getResyncPeriod();
			if (!resync.isZero()) {
				message.append("'")
					.append(informer.getName())
					.append("' resyncs every ")
					.append(resync.toSeconds())
					.append(" s.\n");
			}
		}
		message.append("Informers are synced. Look at:\n")
			.append("  ")
			.append(base)
			.append("/actuator/health             health, one component per informer\n")
			.append("  ")
			.append(base)
			.append("/actuator/health/readiness   what the readiness probe sees\n")
			.append("  ")
			.append(base)
			.append("/actuator/informers          watch state, counters, last list and resync\n")
			.append("  ")
			.append(base)
			.append("/actuator/prometheus         informer_* metrics\n")
			.append("  ")
			.append(base)
			.append("/widgets                     Widgets from the informer cache\n")
			.append("Stop with Ctrl-C.");
		logger.info(message);
	}

}
