package dev.informer.watch;

/**
 * Why a list ran: the initial list, or the reason of a relist. Relists are counted per
 * reason in {@link WatchSnapshot.Lists#relists()} and tagged {@code reason} in metrics
 * with {@link #tagValue()}.
 *
 * @since 0.1.0
 */
public enum RelistReason {

	/**
	 * The first list of a watch: not a relist.
	 */
	INITIAL("initial"),

	/**
	 * A relist after the watch's resourceVersion expired (HTTP 410 Gone).
	 */
	GONE("410"),

	/**
	 * A relist after an error of the list or watch.
	 */
	ERROR("error"),

	/**
	 * A relist the application asked for ({@link dev.informer.Informer#relist()}).
	 */
	MANUAL("manual"),

	/**
	 * The relist of a replacement informer: fabric8 stopped the previous one.
	 */
	STOPPED("stopped"),

	/**
	 * The relist of a replacement informer: the previous one's watch kept failing (see
	 * {@link WatchSnapshot#isFlapping(double, java.time.Duration)}).
	 */
	FLAPPING("flapping"),

	/**
	 * The relist of a replacement informer: the previous one had not been watching for
	 * longer than {@code informer.reliability.replace-stalled-after}.
	 */
	STALLED("stalled"),

	/**
	 * This replica's shard range changed ({@code informer.replicas.mode=sharded}) and the
	 * API server filters by shard selector: the watch lists its new range.
	 */
	SHARD_RANGE("shard-range");

	private final String tagValue;

	RelistReason(String tagValue) {
		this.tagValue = tagValue;
	}

	/**
	 * Return the value used in metric tags, in the {@code informers} endpoint and in
	 * state change causes, for example {@code 410}.
	 * @return the tag value
	 */
	public String tagValue() {
		return this.tagValue;
	}

	/**
	 * Return whether fabric8 started this relist by itself (after 410 Gone or an error),
	 * rather than the application or a replacement.
	 * @return whether fabric8 relisted on its own
	 */
	public boolean isByFabric8() {
		return this == GONE || this == ERROR;
	}

	@Override
	public String toString() {
		return this.tagValue;
	}

}
