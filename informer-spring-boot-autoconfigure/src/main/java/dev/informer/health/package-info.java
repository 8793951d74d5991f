/**
 * Health of informers: {@link dev.informer.health.InformersHealthContributor} for Spring
 * Boot's health endpoint, and the rules and details behind it, which need no Spring Boot
 * health classes and are shared with the {@code informers} actuator endpoint.
 */
@NullMarked
package dev.informer.health;

import org.jspecify.annotations.NullMarked;
