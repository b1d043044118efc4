package org.phos.workbench.analysis.core.experiment;

/**
 * What a running experiment has to say besides progress: the lines {@code simulate} prints. The command line sends
 * {@link #info} to stdout and the others to stderr; the workbench may log them or show them in the Job's result.
 * Every method does nothing by default.
 */
public interface ExperimentListener {
	/** Says nothing. */
	ExperimentListener NONE = new ExperimentListener() {
	};

	/** A line of the run's story ({@code simulating run.phos: 3 events, ...}). */
	default void info(String line) {
	}

	/** Something done to the output folder the person should know of (a previous run's files replaced). */
	default void note(String line) {
	}

	/** A warning about the result (a chart that leaves the application's intervals out). */
	default void warning(String message) {
	}
}
