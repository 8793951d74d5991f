package dev.informer.runtime.replicas;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * When this replica first saw the Lease's latest record of another holder (its holder,
 * renew time and transitions), by this replica's clock, across all its elections on the
 * Lease and its reads while it stood aside: a new election that reads the same record
 * again does not make it newer. The holder renewed no later than that.
 */
final class LeaseSightings {

	private @Nullable String record;

	private @Nullable Instant firstSeen;

	/**
	 * Describe a record the same way whoever read it: fabric8's election record and the
	 * Lease itself.
	 * @param holder the holder
	 * @param renewTime its renew time
	 * @param transitions its transitions
	 * @return the description
	 */
	static String describe(@Nullable String holder, @Nullable ZonedDateTime renewTime, @Nullable Integer transitions) {
		return holder + "@" + ((renewTime != null) ? renewTime.toInstant() : null) + "#" + transitions;
	}

	/**
	 * Record a read of another holder's record.
	 * @param record the record, as a string that differs when it changes
	 * @param now when it was read
	 */
	synchronized void seen(String record, Instant now) {
		if (!Objects.equals(record, this.record)) {
			this.record = record;
			this.firstSeen = now;
		}
	}

	/**
	 * Return when the latest record of another holder was first seen.
	 * @return the time, or {@code null} if none was seen
	 */
	synchronized @Nullable Instant firstSeen() {
		return this.firstSeen;
	}

}
