package org.phos.workbench.ui.model;

import org.phos.workbench.analysis.core.experiment.ExperimentResult;

/**
 * A C/R experiment's result is shown (opened from the Experiments view, or just finished): the C/R views (C/R
 * Timeline, Comparison, Dirty bytes, Metrics, Consistency) show its runs, and their launches and buffers map back to
 * {@code trace}.
 *
 * @param trace the opened trace the experiment ran on
 * @param result its runs
 */
public record ExperimentSelection(LoadedTrace trace, ExperimentResult result) {
}
