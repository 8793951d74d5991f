/**
 * Which replica delivers ({@code informer.replicas.mode}): the gate asked before each
 * listener, the changes a replica owed while its Lease lapsed, and the leader and sharded
 * modes on Kubernetes Leases. Knows informers only as
 * {@link dev.informer.runtime.replicas.ReplicatedInformer}; depends on the API, the read
 * model, events and the listeners' publisher.
 */
@NullMarked
package dev.informer.runtime.replicas;

import org.jspecify.annotations.NullMarked;
