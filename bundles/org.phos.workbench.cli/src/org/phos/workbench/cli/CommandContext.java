package org.phos.workbench.cli;

import java.io.PrintStream;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;

/**
 * What a running command may use besides its arguments: where output and messages go, and a progress monitor that
 * draws on stderr when stderr is a terminal (and does nothing otherwise, so that logs and pipes stay clean).
 *
 * @param programName   {@code workbench}, for messages that show a command line
 * @param out           the command's output (reports, JSON)
 * @param err           warnings and progress
 * @param showProgress  whether {@link #progress()} draws (stderr is a terminal)
 * @param debug         {@code --debug}: print stack traces of failures
 */
public record CommandContext(String programName, PrintStream out, PrintStream err, boolean showProgress,
		boolean debug) {

	/** Prints {@code warning: MESSAGE} on stderr. */
	public void warn(String message) {
		err.println("warning: " + message);
	}

	/**
	 * A monitor for a long job: a single updating line on stderr when it is a terminal, otherwise a silent monitor.
	 * Call {@link IProgressMonitor#done()} when finished so that the line is cleared.
	 */
	public IProgressMonitor progress() {
		return showProgress ? new TerminalProgressMonitor(err) : new NullProgressMonitor();
	}
}
