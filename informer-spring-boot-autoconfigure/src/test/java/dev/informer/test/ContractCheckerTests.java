package dev.informer.test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceUpdatedEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The folding rules of {@link ContractChecker}, on events made here: each rule is one
 * test, and each test fails when the rule is broken (a checker that agreed with anything
 * would pass none of those that expect a difference).
 */
class ContractCheckerTests {

	private final ContractChecker checker = ContractChecker.byResourceVersion();

	@Test
	void aReplayIsAnAddAndImpliesNoDelete() {
		add("a", cm("x", "u1", 10));
		add("a", cm("y", "u2", 11));
		// b takes over and replays only x: y was deleted meanwhile, and nobody said so
		replay("b", cm("x", "u1", 10));
		assertThat(differences(cm("x", "u1", 10))).singleElement()
			.asString()
			.startsWith("ns/y: deleted on the server, in the view as uid u2 at 11 (its delete was never delivered)");
	}

	@Test
	void aPutNeverOverwritesANewerStateWhateverTheOrderItCameIn() {
		update("b", cm("x", "u1", 10), cm("x", "u1", 12));
		add("a", cm("x", "u1", 10));
		assertThat(differences(cm("x", "u1", 12))).isEmpty();
		assertThat(differences(cm("x", "u1", 13))).singleElement()
			.asString()
			.contains("in the view at resourceVersion 12, on the server at 13");
	}

	@Test
	void aDeleteFoundByARelistWinsOverANewerStateAnotherReplicaPublished() {
		add("a", cm("x", "u1", 10));
		// a relist's delete carries the last state its replica saw, observed at the
		// list's
		// version
		this.checker.record("a",
				new ResourceDeletedEvent<>("cm", ConfigMap.class, cm("x", "u1", 10), true, false, 0, false, "13"),
				Instant.now());
		// another replica published a newer state of the same object, late
		update("b", cm("x", "u1", 10), cm("x", "u1", 12));
		assertThat(differences()).isEmpty();
	}

	@Test
	void anObjectThatStopsDecodingAndDecodesAgainIsPutAgain() {
		add("a", cm("x", "u1", 10));
		// absent while it does not decode: a delete at the version that does not decode
		deleteUnknown("a", cm("x", "u1", 20));
		add("a", cm("x", "u1", 30));
		assertThat(differences(cm("x", "u1", 30))).isEmpty();
	}

	@Test
	void aDeleteOfAnOldUidLeavesTheObjectCreatedAgainUnderItsName() {
		add("a", cm("x", "u1", 10));
		add("b", cm("x", "u2", 20));
		delete("a", cm("x", "u1", 15));
		assertThat(differences(cm("x", "u2", 20))).isEmpty();
	}

	@Test
	void aDeleteFoundByARelistEndsEveryUidItsNameHadAtTheListsVersion() {
		// FaultScheduleIT seed 943, leader: the old leader published a new uid that the
		// new leader never saw; the new leader's relist found the name gone
		add("a", cm("w", "u1", 1078));
		delete("a", cm("w", "u1", 1109));
		add("a", cm("w", "u2", 1110));
		this.checker.record("b",
				new ResourceDeletedEvent<>("cm", ConfigMap.class, cm("w", "u1", 1078), true, false, 0, false, "1200"),
				Instant.now());
		assertThat(differences()).isEmpty();
	}

	@Test
	void aStateOlderThanADeletesObservedVersionIsOverWhenItComesLater() {
		this.checker.record("b",
				new ResourceDeletedEvent<>("cm", ConfigMap.class, cm("w", "u1", 1078), true, false, 0, false, "1200"),
				Instant.now());
		add("a", cm("w", "u2", 1110));
		add("c", cm("w", "u3", 1300));
		assertThat(differences(cm("w", "u3", 1300))).isEmpty();
	}

	@Test
	void anOldUidNeverDeletedIsADifferenceEvenWhenTheNameIsRight() {
		add("a", cm("x", "u1", 10));
		// a recreation delivered as an update, or the new uid's add by another replica
		add("b", cm("x", "u2", 20));
		assertThat(differences(cm("x", "u2", 20))).singleElement()
			.asString()
			.contains("uid u1 at 10 was never deleted (the name now has uid u2)");
	}

	@Test
	void theServersUidMustBeTheViews() {
		add("a", cm("x", "u1", 10));
		assertThat(differences(cm("x", "u2", 20))).singleElement()
			.asString()
			.contains("the object created again under this name was never delivered");
	}

	@Test
	void anAddNeverDeliveredIsADifference() {
		assertThat(differences(cm("x", "u1", 10))).singleElement()
			.asString()
			.contains("absent from the view, on the server as uid u1 at 10 (its add was never delivered)");
	}

	@Test
	void objectsTheWriterMadeUndecodableAreLeftOut() {
		add("a", cm("x", "u1", 10));
		assertThat(this.checker.differences(server(cm("x", "u1", 12), cm("y", "u2", 13)), Set.of("ns/x", "ns/y"),
				(replica) -> true))
			.isEmpty();
	}

	@Test
	void aLeftSelectionRemovesWithoutEndingTheUid() {
		add("a", cm("x", "u1", 10));
		this.checker.record("a", new ResourceDeletedEvent<>("cm", ConfigMap.class, cm("x", "u1", 10), false, true),
				Instant.now());
		assertThat(differences()).isEmpty();
		add("a", cm("x", "u1", 10));
		assertThat(differences(cm("x", "u1", 10))).isEmpty();
	}

	@Test
	void eachReplicaCanBeFoldedAlone() {
		add("a", cm("x", "u1", 10));
		add("b", cm("x", "u1", 10));
		delete("b", cm("x", "u1", 11));
		assertThat(this.checker.differences(server(), Set.of(), "b"::equals)).isEmpty();
		assertThat(this.checker.differences(server(), Set.of(), "a"::equals)).hasSize(1);
	}

	@Test
	void withPathsOnlyTheDeclaredPartsAndTheUidCount() {
		ContractChecker byData = ContractChecker.byPaths("data");
		byData.record("a", new ResourceAddedEvent<>("cm", ConfigMap.class, cm("x", "u1", 10, "one")), Instant.now());
		// an update of other parts was filtered: an older resourceVersion, equal data
		assertThat(
				byData.differences(byData.serverState(List.of(cm("x", "u1", 12, "one"))), Set.of(), (replica) -> true))
			.isEmpty();
		assertThat(
				byData.differences(byData.serverState(List.of(cm("x", "u1", 13, "two"))), Set.of(), (replica) -> true))
			.singleElement()
			.asString()
			.contains("in the view {data={value=one}} at 10, on the server {data={value=two}} at 13");
		assertThat(
				byData.differences(byData.serverState(List.of(cm("x", "u9", 14, "one"))), Set.of(), (replica) -> true))
			.singleElement()
			.asString()
			.contains("the object created again under this name was never delivered");
	}

	private List<String> differences(ConfigMap... server) {
		return this.checker.differences(server(server), Set.of(), (replica) -> true);
	}

	private Map<String, ContractChecker.ServerObject> server(ConfigMap... objects) {
		return this.checker.serverState(List.of(objects));
	}

	private void add(String replica, ConfigMap resource) {
		this.checker.record(replica, new ResourceAddedEvent<>("cm", ConfigMap.class, resource), Instant.now());
	}

	private void replay(String replica, ConfigMap resource) {
		this.checker.record(replica, new ResourceAddedEvent<>("cm", ConfigMap.class, resource, true), Instant.now());
	}

	private void update(String replica, ConfigMap old, ConfigMap resource) {
		this.checker.record(replica, new ResourceUpdatedEvent<>("cm", ConfigMap.class, old, resource), Instant.now());
	}

	private void delete(String replica, ConfigMap resource) {
		this.checker.record(replica, new ResourceDeletedEvent<>("cm", ConfigMap.class, resource, false), Instant.now());
	}

	private void deleteUnknown(String replica, ConfigMap resource) {
		this.checker.record(replica, new ResourceDeletedEvent<>("cm", ConfigMap.class, resource, true), Instant.now());
	}

	private static ConfigMap cm(String name, String uid, long version) {
		return cm(name, uid, version, "v");
	}

	private static ConfigMap cm(String name, String uid, long version, String value) {
		return new ConfigMapBuilder().withNewMetadata()
			.withNamespace("ns")
			.withName(name)
			.withUid(uid)
			.withResourceVersion(Long.toString(version))
			.endMetadata()
			.withData(Map.of("value", value))
			.build();
	}

}
