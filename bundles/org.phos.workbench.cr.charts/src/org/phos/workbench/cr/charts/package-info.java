/**
 * Charts of simulated checkpoint/restore runs, built as JFreeChart objects without any UI toolkit: the timeline of one
 * run ({@link org.phos.workbench.cr.charts.TimelineChartBuilder}), dirty bytes over time
 * ({@link org.phos.workbench.cr.charts.DirtyBytesChartBuilder}) and several runs side by side
 * ({@link org.phos.workbench.cr.charts.ComparisonChartBuilder}). Building is separate from rendering
 * ({@link org.phos.workbench.cr.charts.ChartFiles} writes PNG and SVG headless), so that the workbench's SWT views
 * embed the very same chart objects. Colours come from one {@link org.phos.workbench.cr.charts.ChartPalette}.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.cr.charts;
