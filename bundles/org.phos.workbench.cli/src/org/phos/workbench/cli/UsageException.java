package org.phos.workbench.cli;

/**
 * A mistake in the command line (exit code {@link ExitCode#USAGE}): the message names the argument or option and
 * says what was expected, so that a person can correct the command.
 */
public class UsageException extends Exception {

	private static final long serialVersionUID = 1L;

	public UsageException(String message) {
		super(message);
	}
}
