package org.phos.workbench.analysis.core.experiment;

/**
 * An experiment could not be validated, run, saved or opened; {@link #problem()} says why (and which option, if
 * any), and {@link #getMessage()} is its message, naming the file for file problems.
 */
public class ExperimentException extends Exception {
	private static final long serialVersionUID = 1L;

	private final transient ExperimentProblem problem;

	public ExperimentException(ExperimentProblem problem) {
		super(problem.message());
		this.problem = problem;
	}

	public ExperimentException(ExperimentProblem problem, Throwable cause) {
		super(problem.message(), cause);
		this.problem = problem;
	}

	/** A failure not tied to an option (a file, the trace). */
	public static ExperimentException failure(String message, Throwable cause) {
		return new ExperimentException(ExperimentProblem.failure(message), cause);
	}

	/** A failure not tied to an option (a file, the trace). */
	public static ExperimentException failure(String message) {
		return new ExperimentException(ExperimentProblem.failure(message));
	}

	public ExperimentProblem problem() {
		return problem;
	}

	/** Whether it is a mistake in the options rather than a failure of the job. */
	public boolean usage() {
		return problem.usage();
	}
}
