package org.phos.workbench.analysis.core.experiment;

import java.nio.file.Path;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A saved experiment as its folder shows it now, without opening its runs: what {@link ExperimentStore#list()}
 * returns, one per folder, damaged ones included (so nothing the person has disappears from the list).
 *
 * @param name the experiment's name (its folder's name)
 * @param folder its folder, {@code <trace>.experiments/<name>}
 * @param config its configuration; null when {@code experiment.json} is missing or damaged
 * @param trace the identity of the trace its outputs were computed from (from {@code outputs/manifest.json}); null
 *        when there are no complete outputs
 * @param state whether it can be opened
 * @param problem what is wrong, naming the file, for every state but {@link State#READY}; else null
 * @param live where and when it was run live on a GPU; null for a simulated experiment
 */
public record SavedExperiment(String name, Path folder, @Nullable ExperimentConfig config,
		@Nullable TraceIdentity trace, State state, @Nullable String problem, @Nullable LiveRun live) {

	/** A simulated experiment (or one whose live mark is not known). */
	public SavedExperiment(String name, Path folder, @Nullable ExperimentConfig config, @Nullable TraceIdentity trace,
			State state, @Nullable String problem) {
		this(name, folder, config, trace, state, problem, null);
	}

	/** Whether a saved experiment can be opened. */
	public enum State {
		/** Configuration, outputs and runs are complete and were computed from the trace as it is now. */
		READY,
		/**
		 * The trace's bytes changed since the outputs were computed (SHA-256 differs): the outputs describe another
		 * trace; re-run the experiment (or open it knowingly with {@code evenIfTraceChanged}).
		 */
		TRACE_CHANGED,
		/** The trace file is gone or unreadable, so its identity cannot be checked. */
		TRACE_MISSING,
		/** The configuration is there but no complete outputs (never ran to the end): re-run it. */
		NOT_RUN,
		/** A file is missing or damaged ({@link #problem()} names it); nothing was deleted. */
		DAMAGED
	}

	/** Whether {@link ExperimentStore#open(String)} will open it. */
	public boolean ready() {
		return state == State.READY;
	}
}
