package org.phos.workbench.internal.cli.util;

import org.phos.workbench.analysis.core.format.PrintableText;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Numbers for people: thousands separators, binary byte units, durations in the unit that fits.
 */
public final class Human {

	private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS 'UTC'")
			.withZone(ZoneOffset.UTC);

	private Human() {
	}

	/** An unsigned 64-bit count: {@code 1234567 -> "1,234,567"}, {@code -1 -> "18,446,744,073,709,551,615"}. */
	public static String count(long value) {
		if (value < 0) {
			return String.format(Locale.ROOT, "%,d", new java.math.BigInteger(Long.toUnsignedString(value)));
		}
		return String.format(Locale.ROOT, "%,d", value);
	}

	/** Unsigned bytes in binary units: {@code 512 B}, {@code 1.5 KiB}, {@code 12.3 GiB}. */
	public static String bytes(long value) {
		if (value >= 0 && value < 1024) {
			return value + " B";
		}
		double v = unsigned(value);
		String[] units = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
		int u = -1;
		while (v >= 1024 && u < units.length - 1) {
			v /= 1024;
			u++;
		}
		return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, units[u]);
	}

	/**
	 * Signed nanoseconds in the unit that fits: {@code 850 ns}, {@code 12.5 us}, {@code 3.20 ms}, {@code 1.234 s},
	 * {@code -2.0 us}. Every value, {@link Long#MIN_VALUE} included, formats (no recursion, no overflow).
	 */
	public static String duration(long nanos) {
		// -nanos as an unsigned magnitude: right for Long.MIN_VALUE too (2^63)
		return nanos < 0 ? "-" + unsignedDuration(-nanos) : unsignedDuration(nanos);
	}

	/** Unsigned 64-bit nanoseconds (trace times and spans) in the unit that fits, up to 2^64 - 1 ns. */
	public static String unsignedDuration(long nanos) {
		if (nanos >= 0 && nanos < 1_000) {
			return nanos + " ns";
		}
		double v = unsigned(nanos);
		if (v < 1e6) {
			return String.format(Locale.ROOT, "%.1f us", v / 1e3);
		}
		if (v < 1e9) {
			return String.format(Locale.ROOT, "%.2f ms", v / 1e6);
		}
		return String.format(Locale.ROOT, "%.3f s", v / 1e9);
	}

	/** An unsigned 64-bit value as a double (rounded). */
	public static double unsigned(long value) {
		return value >= 0 ? value : (value >>> 1) * 2.0 + (value & 1);
	}

	/** A wall-clock time in UTC with milliseconds, or "unknown" for 0. */
	public static String unixTime(long unixNanos) {
		if (unixNanos == 0) {
			return "unknown";
		}
		return UTC_TIME.format(Instant.ofEpochSecond(Long.divideUnsigned(unixNanos, 1_000_000_000L),
				Long.remainderUnsigned(unixNanos, 1_000_000_000L)));
	}

	/** A percentage with one decimal, {@code "12.5%"}. */
	public static String percent(double share) {
		return String.format(Locale.ROOT, "%.1f%%", 100 * share);
	}

	/** A CUDA version number ({@code 13000 -> "13.0"}), or "unknown" for 0. */
	public static String cudaVersion(int version) {
		if (version == 0) {
			return "unknown";
		}
		return (version / 1000) + "." + (version % 1000 / 10);
	}

	/** {@code 0x} and lower-case hex of an unsigned value. */
	public static String hex(long value) {
		return "0x" + Long.toHexString(value);
	}

	/** The text with control characters shown as escapes ({@code \n}, {@code \t}, {@code \x01}), for one line. */
	public static String printable(String text) {
		return PrintableText.printable(text);
	}

	/** The printable text cut to {@code width} characters, ending in {@code ...} when cut. */
	public static String clip(String text, int width) {
		return PrintableText.clip(text, width);
	}
}
