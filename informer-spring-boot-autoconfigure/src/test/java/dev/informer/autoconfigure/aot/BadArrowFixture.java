package dev.informer.autoconfigure.aot;

import dev.informer.runtime.InformerLifecycle;

/**
 * A deliberately bad arrow out of this room, for {@code ArchitectureTests} to prove that
 * the room's rule fails on one. Test code only: never imported as main code.
 */
final class BadArrowFixture {

	private BadArrowFixture() {
	}

	static void badArrow(InformerLifecycle target) {
	}

}
