package org.phos.workbench.analysis.core.experiment;

/**
 * The options of an experiment, one per field of {@link ExperimentConfig}, with the {@code simulate} option that
 * spells each on the command line. A {@link ExperimentProblem} names the option it is about, so the New Experiment
 * dialog can show each message beside its field.
 */
public enum ExperimentOption {
	/** {@code --policy}: the policies and their parameters. */
	POLICIES("--policy"),
	/** {@code --at}: the checkpoint or restore point of every policy that names none. */
	AT("--at"),
	/** {@code --machine}: the machine preset and its knobs. */
	MACHINE("--machine"),
	/** {@code --sets}: where the launches' read/write sets come from. */
	SETS("--sets"),
	/** {@code --width}: the charts' width in pixels. */
	WIDTH("--width"),
	/** The experiment's name (its folder beside the trace). */
	NAME("NAME");

	private final String commandLine;

	ExperimentOption(String commandLine) {
		this.commandLine = commandLine;
	}

	/** How {@code simulate} spells the option ({@code --policy}, ...). */
	public String commandLine() {
		return commandLine;
	}
}
