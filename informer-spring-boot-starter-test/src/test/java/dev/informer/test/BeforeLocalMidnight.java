package dev.informer.test;

import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.TimeZone;
import java.util.function.Supplier;

/**
 * Runs an action with the JVM's default time zone moved so that the local time of day is
 * between two minutes and one minute before midnight, and moves it back after: the wall
 * clock a process start may wrongly measure its timeout with wraps around during the
 * start. The instant does not change, nor anything measured with
 * {@link System#nanoTime()}.
 */
final class BeforeLocalMidnight {

	private static final int MINUTES_PER_DAY = 24 * 60;

	private BeforeLocalMidnight() {
	}

	/**
	 * Call {@code action} at 23:58 and some seconds, local time.
	 * @param <T> what it returns
	 * @param action the action
	 * @return what it returned
	 */
	static <T> T call(Supplier<T> action) {
		TimeZone previous = TimeZone.getDefault();
		ZonedDateTime utc = ZonedDateTime.now(ZoneOffset.UTC);
		int minuteOfDay = utc.getHour() * 60 + utc.getMinute();
		int offset = Math.floorMod(MINUTES_PER_DAY - 2 - minuteOfDay, MINUTES_PER_DAY);
		if (offset > MINUTES_PER_DAY / 2) {
			offset -= MINUTES_PER_DAY;
		}
		TimeZone.setDefault(TimeZone.getTimeZone(ZoneOffset.ofHoursMinutes(offset / 60, offset % 60)));
		try {
			LocalTime local = LocalTime.now();
			if (local.isBefore(LocalTime.of(23, 58))) {
				throw new IllegalStateException("Local time " + local + " is not in the last two minutes of the day");
			}
			return action.get();
		}
		finally {
			TimeZone.setDefault(previous);
		}
	}

	/**
	 * Run {@code action} at 23:58 and some seconds, local time.
	 * @param action the action
	 */
	static void run(Runnable action) {
		call(() -> {
			action.run();
			return null;
		});
	}

}
