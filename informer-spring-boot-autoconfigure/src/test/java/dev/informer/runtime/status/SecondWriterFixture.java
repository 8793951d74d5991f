package dev.informer.runtime.status;

import java.time.Instant;

/**
 * A deliberately second writer of a watch's state, for {@code ArchitectureTests} to prove
 * that the one-writer rule fails on one. Test code only: never imported as main code.
 */
final class SecondWriterFixture {

	private SecondWriterFixture() {
	}

	static WatchState writeAround(WatchState state) {
		return state.withSilentRestart();
	}

	static WatchState stepAround(WatchState state) {
		return WatchTransitions.step(state, new WatchInput.Stopped(), Instant.EPOCH).state();
	}

}
