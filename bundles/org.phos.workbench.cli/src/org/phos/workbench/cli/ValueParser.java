package org.phos.workbench.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * Turns the text of an option value into a typed value. A parser throws {@link IllegalArgumentException} whose
 * message says what was expected ("a positive integer"); the {@link ArgumentParser} adds the option name and the text
 * that was given.
 *
 * @param <T> the type of the value
 */
@FunctionalInterface
public interface ValueParser<T> {

	T parse(String text);

	/** Any text. */
	static ValueParser<String> text() {
		return text -> text;
	}

	/** A file system path (not checked for existence: commands check that with a message of their own). */
	static ValueParser<Path> path() {
		return text -> {
			if (text.isEmpty()) {
				throw new IllegalArgumentException("a file name");
			}
			try {
				return Path.of(text);
			} catch (InvalidPathException e) {
				throw new IllegalArgumentException("a file name");
			}
		};
	}

	/**
	 * An integer in {@code [min, max]}; accepts {@code _} separators and the suffixes {@code k} (10^3) and {@code M}
	 * (10^6), so that {@code --launches 10M} reads as it is said.
	 */
	static ValueParser<Long> integer(long min, long max) {
		return text -> {
			String expected = min == 0 && max == Long.MAX_VALUE ? "a non-negative integer"
					: min == 1 && max == Long.MAX_VALUE ? "a positive integer"
							: max == Long.MAX_VALUE ? "an integer >= " + min : "an integer from " + min + " to " + max;
			long value;
			try {
				String digits = text.replace("_", "");
				long scale = 1;
				if (digits.endsWith("k") || digits.endsWith("K")) {
					scale = 1_000;
				} else if (digits.endsWith("M")) {
					scale = 1_000_000;
				} else if (digits.endsWith("G")) {
					scale = 1_000_000_000;
				}
				if (scale != 1) {
					digits = digits.substring(0, digits.length() - 1);
				}
				value = Math.multiplyExact(Long.parseLong(digits), scale);
			} catch (NumberFormatException | ArithmeticException e) {
				throw new IllegalArgumentException(expected);
			}
			if (value < min || value > max) {
				throw new IllegalArgumentException(expected);
			}
			return value;
		};
	}

	/** One of the given words, exactly. */
	static ValueParser<String> choice(String... words) {
		List<String> allowed = List.of(words);
		return text -> {
			if (!allowed.contains(text)) {
				throw new IllegalArgumentException("one of " + String.join(", ", allowed));
			}
			return text;
		};
	}
}
