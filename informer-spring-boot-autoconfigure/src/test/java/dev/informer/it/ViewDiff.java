package dev.informer.it;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What a group's folded view gets wrong against the server's objects, in a line for an
 * assertion message: the objects missing, those deleted on the server but still in the
 * view, those at an older resourceVersion, each counted by owner in a sharded group.
 */
final class ViewDiff {

	private ViewDiff() {
	}

	/**
	 * Describe the difference.
	 * @param view the group's view, name to resourceVersion
	 * @param expected the server's objects, name to resourceVersion
	 * @param members the members of a sharded group, empty in leader mode
	 * @param uids name to uid, for the owners
	 * @return the description, empty when the view is right
	 */
	static String describe(Map<String, String> view, Map<String, String> expected, List<String> members,
			Map<String, String> uids) {
		Set<String> missing = new TreeSet<>(expected.keySet());
		missing.removeAll(view.keySet());
		Set<String> extra = new TreeSet<>(view.keySet());
		extra.removeAll(expected.keySet());
		Set<String> stale = new TreeSet<>();
		expected.forEach((name, version) -> {
			if (view.containsKey(name) && !view.get(name).equals(version)) {
				stale.add(name);
			}
		});
		if (missing.isEmpty() && extra.isEmpty() && stale.isEmpty()) {
			return "";
		}
		return "of " + expected.size() + " objects: missing " + byOwner(missing, uids, members)
				+ ", deleted on the server but still in the view " + byOwner(extra, uids, members)
				+ ", at an older resourceVersion " + byOwner(stale, uids, members);
	}

	private static String byOwner(Set<String> names, Map<String, String> uids, List<String> members) {
		if (members.isEmpty()) {
			return names.size() + " " + names.stream().limit(8).toList();
		}
		Map<String, List<String>> owners = names.stream()
			.collect(Collectors.groupingBy((name) -> ShardOwner.of(uids.get(name), members), TreeMap::new,
					Collectors.toList()));
		return names.size() + " by owner "
				+ owners.entrySet()
					.stream()
					.map((e) -> e.getKey() + "=" + e.getValue().size() + " " + e.getValue().stream().limit(5).toList())
					.collect(Collectors.joining(", ", "{", "}"));
	}

}
