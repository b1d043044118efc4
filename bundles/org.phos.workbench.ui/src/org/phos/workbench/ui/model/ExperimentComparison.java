package org.phos.workbench.ui.model;

/**
 * Two experiments (of one trace or of two traces) are compared side by side: the views that compare show both on
 * synchronised time axes with the difference of their metrics ({@code right} minus {@code left}).
 *
 * @param left the first, the reference
 * @param right the second
 */
public record ExperimentComparison(ExperimentSelection left, ExperimentSelection right) {
}
