package dev.informer.test;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Called from a SpEL expression, records whether the interpreter or compiled bytecode
 * called it: Spring's compiler defines its classes in one package. Public, so that
 * compiled expressions may call it.
 */
public final class ConditionProbe {

	private static final String COMPILED_PACKAGE = "org.springframework.expression.spel.generated.";

	private static final Map<String, String> callers = new ConcurrentHashMap<>();

	private ConditionProbe() {
	}

	/**
	 * Record the caller under a key.
	 * @param key the key, one per expression
	 * @param value returned
	 * @return {@code value}
	 */
	public static boolean record(String key, boolean value) {
		String caller = StackWalker.getInstance()
			.walk((frames) -> frames.skip(1).findFirst())
			.orElseThrow()
			.getClassName();
		callers.put(key, caller);
		return value;
	}

	/**
	 * Return whether the last call recorded under a key came from compiled code.
	 * @param key the key
	 * @return whether it was compiled
	 */
	public static boolean compiled(String key) {
		String caller = callers.get(key);
		if (caller == null) {
			throw new IllegalStateException("Never called for " + key);
		}
		return caller.startsWith(COMPILED_PACKAGE);
	}

}
