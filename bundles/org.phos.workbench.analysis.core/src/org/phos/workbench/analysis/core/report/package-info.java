/**
 * The report a researcher reads instead of composing command lines: per trace its overview, the accuracy of the
 * speculation engines (per tool), the kernels where engines disagree most and a C/R comparison of the main policies
 * with observed and speculated sets, charts inline; and an index over all traces. {@link
 * org.phos.workbench.analysis.core.report.ReportBuilder} computes the typed {@link
 * org.phos.workbench.analysis.core.report.TraceReport} from the same queries the commands use; {@link
 * org.phos.workbench.analysis.core.report.ReportFolder} writes it as self-contained XHTML-compatible pages with
 * relative links only. Headless.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.analysis.core.report;
