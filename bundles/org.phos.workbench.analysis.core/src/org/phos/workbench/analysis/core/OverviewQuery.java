package org.phos.workbench.analysis.core;

import org.phos.workbench.trace.core.Trace;

/**
 * What a trace holds at a glance (the trace editor's overview page): its header, event counts, the kernels that took
 * the most GPU time, memory over time by allocation kind, launches per stream and its ground truth.
 *
 * @param trace the trace
 * @param topKernels how many kernels to name (the rest are summed as one "other" entry)
 * @param memorySamples how many points the live-memory curve keeps at most (each the largest total in its slice)
 */
public record OverviewQuery(Trace trace, int topKernels, int memorySamples) {
	public OverviewQuery {
		if (topKernels < 1 || memorySamples < 2) {
			throw new IllegalArgumentException("topKernels must be >= 1 and memorySamples >= 2, not " + topKernels
					+ " and " + memorySamples);
		}
	}

	/** @return the overview page's question: ten kernels, 400 memory samples */
	public static OverviewQuery of(Trace trace) {
		return new OverviewQuery(trace, 10, 400);
	}
}
