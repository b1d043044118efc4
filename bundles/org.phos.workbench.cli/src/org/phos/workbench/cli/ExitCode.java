package org.phos.workbench.cli;

/**
 * The process exit codes of {@code workbench}, documented in {@code docs/cli.md}.
 */
public final class ExitCode {

	/** The command did its job. */
	public static final int OK = 0;

	/**
	 * The job failed: a missing, unreadable, corrupt or foreign input file, an output that could not be written, a
	 * benchmark figure that missed its target, or an internal error.
	 */
	public static final int FAILURE = 1;

	/** The command line was wrong: unknown command or option, missing or malformed argument. */
	public static final int USAGE = 2;

	private ExitCode() {
	}
}
