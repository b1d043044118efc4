/**
 * What a trace holds, in one pass over its events ({@link org.phos.workbench.analysis.core.summary.TraceSummary}):
 * counts, kernels, allocations, copies, streams, time span and ground truth. The command line's {@code info} renders
 * it as text or JSON; the workbench's overview shows the same record. It lives here, not in {@code trace.core},
 * because the ground-truth line needs speculation's truth reliability.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.analysis.core.summary;
