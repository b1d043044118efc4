package org.phos.workbench.analysis.core.experiment;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Why an experiment cannot run (or be saved) as configured: one message a person can act on.
 *
 * @param option the option the problem is about, for the dialog's field; null when it is about the trace or the
 *        files (a trace without launches, an unreadable folder)
 * @param message the whole message as {@code simulate} prints it ({@code option --machine: unknown machine knob
 *        'warp' (known: ...)})
 * @param usage whether it is a mistake in the options ({@code simulate} exits with its usage code) rather than a
 *        failure of the job (a trace that cannot be simulated, a file that cannot be written)
 */
public record ExperimentProblem(@Nullable ExperimentOption option, String message, boolean usage) {

	/** A mistake in {@code option}; {@code message} is the whole text. */
	public static ExperimentProblem of(ExperimentOption option, String message) {
		return new ExperimentProblem(option, message, true);
	}

	/** A failure not tied to an option (trace, files). */
	public static ExperimentProblem failure(String message) {
		return new ExperimentProblem(null, message, false);
	}

	/**
	 * The message without its {@code option --xyz: } prefix, for a dialog that shows it beside the option's field.
	 */
	public String reason() {
		if (option != null) {
			String prefix = "option " + option.commandLine() + ": ";
			if (message.startsWith(prefix)) {
				return message.substring(prefix.length());
			}
		}
		return message;
	}
}
