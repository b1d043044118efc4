package org.phos.workbench.cli;

/**
 * A positional argument of a command, such as the {@code TRACE} of {@code workbench info TRACE...}.
 *
 * @param label    how the argument is shown in help and messages ({@code TRACE})
 * @param help     one line for the help text
 * @param minCount how many must be given (0 for optional)
 * @param maxCount how many may be given ({@link Integer#MAX_VALUE} for any number)
 */
public record Positional(String label, String help, int minCount, int maxCount) {

	/** Exactly one. */
	public static Positional one(String label, String help) {
		return new Positional(label, help, 1, 1);
	}

	/** One or more. */
	public static Positional oneOrMore(String label, String help) {
		return new Positional(label, help, 1, Integer.MAX_VALUE);
	}

	/** At most one. */
	public static Positional optional(String label, String help) {
		return new Positional(label, help, 0, 1);
	}

	/** How it is written in a usage line: {@code TRACE}, {@code TRACE...}, {@code [FIGURE]}. */
	public String synopsis() {
		String base = maxCount > 1 ? label + "..." : label;
		return minCount == 0 ? "[" + base + "]" : base;
	}
}
