package dev.informer.runtime.status;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

import org.jspecify.annotations.Nullable;

import dev.informer.watch.ResourceVersions;
import dev.informer.watch.WatchSnapshot;

/**
 * How far a watch's cache is behind the API server: the server's resourceVersion read now
 * and then by a consistent list ({@code limit=1}), against the resourceVersion the cache
 * has reached (by events and bookmarks). A cache is stale while it has not reached a
 * version the server had when it was read: for as long as the oldest such version was
 * read ago. Compared as {@link ResourceVersions} compares; when the server's versions are
 * not comparable nothing is judged (the arrival times of events and bookmarks are what
 * tells then).
 */
final class StoreLag {

	private static final int MAX_UNREACHED = 16;

	// guarded by this
	private @Nullable String serverVersion;

	private @Nullable Instant checkedAt;

	// the server versions read that the cache had not reached when last looked at,
	// oldest first; a cache that never catches up keeps the oldest and the newest
	private final Deque<Read> unreached = new ArrayDeque<>();

	private long checks;

	private long failures;

	private @Nullable String lastFailure;

	/**
	 * Record a read of the server's resourceVersion.
	 * @param version the server's resourceVersion
	 * @param at when it was read (when the request was sent)
	 * @param cacheVersion the resourceVersion the cache had reached when it came back
	 */
	synchronized void read(String version, Instant at, @Nullable String cacheVersion) {
		this.serverVersion = version;
		this.checkedAt = at;
		this.checks++;
		this.lastFailure = null;
		forgetReached(cacheVersion);
		if (!ResourceVersions.isAtLeast(cacheVersion, version)) {
			if (this.unreached.size() >= MAX_UNREACHED) {
				this.unreached.removeLast();
			}
			this.unreached.addLast(new Read(version, at));
		}
	}

	/**
	 * Record a read of the server's resourceVersion that failed.
	 * @param why what happened
	 */
	synchronized void failed(String why) {
		this.failures++;
		this.lastFailure = why;
	}

	synchronized WatchSnapshot.Lag snapshot(Instant now, @Nullable String cacheVersion) {
		forgetReached(cacheVersion);
		String server = this.serverVersion;
		boolean comparable = ResourceVersions.isComparable(server) && ResourceVersions.isComparable(cacheVersion);
		Duration staleFor = null;
		if (comparable) {
			Read oldest = this.unreached.peekFirst();
			staleFor = (oldest != null && now.isAfter(oldest.at())) ? Duration.between(oldest.at(), now)
					: Duration.ZERO;
		}
		return new WatchSnapshot.Lag(server, this.checkedAt, ResourceVersions.behind(cacheVersion, server), staleFor,
				this.checks, this.failures, this.lastFailure);
	}

	private void forgetReached(@Nullable String cacheVersion) {
		while (!this.unreached.isEmpty()
				&& ResourceVersions.isAtLeast(cacheVersion, this.unreached.peekFirst().version())) {
			this.unreached.removeFirst();
		}
	}

	private record Read(String version, Instant at) {

	}

}
