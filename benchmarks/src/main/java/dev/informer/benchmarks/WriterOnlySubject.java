package dev.informer.benchmarks;

/**
 * (0) Nothing watches: measures what the writer alone costs, subtracted from every
 * subject's CPU per event.
 */
final class WriterOnlySubject implements Subject {

	@Override
	public String id() {
		return "0";
	}

	@Override
	public String description() {
		return "no watcher: the writer alone (CPU baseline)";
	}

	@Override
	public Running start(ApiServer server, String namespace, Probe probe) {
		long started = System.nanoTime();
		return new Running() {

			@Override
			public long informerStartedAt() {
				return started;
			}

			@Override
			public void close() {
			}

		};
	}

}
