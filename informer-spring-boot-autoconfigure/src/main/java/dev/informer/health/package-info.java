/**
 * Spring Boot health adapter: {@link dev.informer.health.InformersHealthContributor}, one
 * {@link dev.informer.health.InformerHealthIndicator} per watch, judged by the
 * {@link dev.informer.watch.WatchHealthPolicy} and described by
 * {@link dev.informer.watch.WatchDetails} of the read model.
 */
@NullMarked
package dev.informer.health;

import org.jspecify.annotations.NullMarked;
