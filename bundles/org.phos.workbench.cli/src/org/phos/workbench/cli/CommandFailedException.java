package org.phos.workbench.cli;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The job of a command could not be done (exit code {@link ExitCode#FAILURE}). The message is what the person reads:
 * it names the file (and offset, for a damaged trace) and what went wrong; the cause is printed only with
 * {@code --debug}.
 */
public class CommandFailedException extends Exception {

	private static final long serialVersionUID = 1L;

	public CommandFailedException(String message) {
		super(message);
	}

	public CommandFailedException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}
}
