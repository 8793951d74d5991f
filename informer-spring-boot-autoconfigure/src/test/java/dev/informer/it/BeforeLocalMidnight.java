package dev.informer.it;

import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.TimeZone;

/**
 * Moves the JVM's default time zone so that the local time of day is between two minutes
 * and one minute before midnight, and back on {@link #close()}: the wall clock a process
 * start may wrongly measure its timeout with wraps around during the start. The instant
 * does not change, nor anything measured with {@link System#nanoTime()}.
 */
final class BeforeLocalMidnight implements AutoCloseable {

	private static final int MINUTES_PER_DAY = 24 * 60;

	private final TimeZone previous = TimeZone.getDefault();

	private BeforeLocalMidnight(TimeZone zone) {
		TimeZone.setDefault(zone);
	}

	/**
	 * Set a zone in which it is now 23:58 and some seconds.
	 * @return the setting, to close after use
	 */
	static BeforeLocalMidnight set() {
		ZonedDateTime utc = ZonedDateTime.now(ZoneOffset.UTC);
		int minuteOfDay = utc.getHour() * 60 + utc.getMinute();
		int offset = Math.floorMod(MINUTES_PER_DAY - 2 - minuteOfDay, MINUTES_PER_DAY);
		if (offset > MINUTES_PER_DAY / 2) {
			offset -= MINUTES_PER_DAY;
		}
		BeforeLocalMidnight setting = new BeforeLocalMidnight(
				TimeZone.getTimeZone(ZoneOffset.ofHoursMinutes(offset / 60, offset % 60)));
		LocalTime local = LocalTime.now();
		if (local.isBefore(LocalTime.of(23, 58))) {
			setting.close();
			throw new IllegalStateException("Local time " + local + " is not in the last two minutes of the day");
		}
		return setting;
	}

	@Override
	public void close() {
		TimeZone.setDefault(this.previous);
	}

}
