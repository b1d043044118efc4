package org.phos.workbench.analysis.core.experiment;

import java.nio.file.Path;
import java.util.List;

/**
 * The outcome of running an experiment over a trace: its runs in the order {@code simulate} runs them (every
 * policy with the first set source, then with the next, ...).
 *
 * @param name the experiment's name (its folder's name once saved)
 * @param traceFile the trace it ran on
 * @param config what was run
 * @param runs the runs, one or more
 */
public record ExperimentResult(String name, Path traceFile, ExperimentConfig config, List<CrRun> runs) {
    public ExperimentResult {
        runs = List.copyOf(runs);
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("experiment " + name + " has no runs");
        }
    }

    /** The run named {@code run}, or null. */
    public @org.eclipse.jdt.annotation.Nullable CrRun run(String run) {
        return runs.stream().filter(r -> r.name().equals(run)).findFirst().orElse(null);
    }
}
