/**
 * The C/R result views: Comparison (runs side by side, charts and a table), Dirty bytes (over time, with zoom),
 * Metrics (every figure of every run, as {@code simulate}'s metrics.csv) and Consistency (the violations and each
 * run's verdict; a double click goes to the violation's launch and buffer). Each shows the runs of the selected
 * experiment ({@code ExperimentSelection}) or of two compared ones ({@code ExperimentComparison}); the tables come
 * from the analysis layer ({@code analysis.core.experiment}) and the charts from {@code cr.charts}, as on the command
 * line, and each view exports what it shows.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.cr;
