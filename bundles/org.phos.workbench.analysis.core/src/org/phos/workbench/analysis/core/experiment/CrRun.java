package org.phos.workbench.analysis.core.experiment;

import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.TimelineModel;

/**
 * One simulated run of an experiment: a policy with one source of read/write sets.
 *
 * @param name the run's name as {@code simulate} names it (the policy spec, with {@code [sets]} in a comparison
 *        over several sources); also the run column of the CSV files
 * @param metrics its figures (with the baseline replay's end, for the slowdown)
 * @param timeline its timeline in memory (application intervals left out for very long traces)
 */
public record CrRun(String name, SimulationMetrics metrics, TimelineModel timeline) {
}
