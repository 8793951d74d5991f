package dev.informer.benchmarks;

/**
 * One way of watching the benchmark's ConfigMaps: raw fabric8, the starter in some
 * configuration, or nothing (the writer alone, to subtract its CPU).
 */
interface Subject {

	/**
	 * Short identifier used in tables and files, for example {@code a}.
	 * @return the identifier
	 */
	String id();

	/**
	 * What this subject is, for the table's legend.
	 * @return the description
	 */
	String description();

	/**
	 * Start watching the namespace, delivering every add and update to the probe.
	 * @param server the API server
	 * @param namespace the namespace
	 * @param probe the probe the listener calls
	 * @return the running subject
	 * @throws Exception on failure
	 */
	Running start(ApiServer server, String namespace, Probe probe) throws Exception;

	/**
	 * A started subject.
	 */
	interface Running extends AutoCloseable {

		/**
		 * When its informer started (for the starter: the informer lifecycle phase, so
		 * that Spring's own context startup is not counted as sync time).
		 * @return {@link System#nanoTime()} at start
		 */
		long informerStartedAt();

		@Override
		void close();

	}

}
