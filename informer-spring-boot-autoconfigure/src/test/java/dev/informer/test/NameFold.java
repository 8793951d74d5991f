package dev.informer.test;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The events of one name folded as {@link ContractChecker} describes: the newest put of
 * each uid, unless a delete observed the name absent at or after it.
 */
final class NameFold {

	final Map<String, ReceivedEvent> live = new LinkedHashMap<>();

	/** The newest version at which a delete observed the name absent. */
	private long absentAt = -1;

	void apply(ReceivedEvent d) {
		String uid = (d.uid() != null) ? d.uid() : "";
		if (d.type() != ReceivedEvent.Type.DELETED) {
			ReceivedEvent current = this.live.get(uid);
			if (d.resourceVersion() > this.absentAt
					&& (current == null || d.resourceVersion() > current.resourceVersion())) {
				this.live.put(uid, d);
			}
		}
		else if (d.leftSelection()) {
			ReceivedEvent current = this.live.get(uid);
			if (current != null && current.resourceVersion() <= d.resourceVersion()) {
				this.live.remove(uid);
			}
		}
		else {
			this.absentAt = Math.max(this.absentAt, d.observed());
			this.live.values().removeIf((put) -> put.resourceVersion() <= this.absentAt);
		}
	}

	ContractChecker.@Nullable View view() {
		return this.live.values()
			.stream()
			.max(Comparator.comparingLong(ReceivedEvent::resourceVersion))
			.map((d) -> new ContractChecker.View(d.uid(), d.resourceVersion(), d.parts()))
			.orElse(null);
	}

}
