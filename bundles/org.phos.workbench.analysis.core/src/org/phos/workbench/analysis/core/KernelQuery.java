package org.phos.workbench.analysis.core;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.Trace;

/**
 * One row per launched kernel: launches, GPU time, and per engine precision, read and write recall and unsafe
 * launches (from the same walk as {@link ValidationQuery}; no engines: launches and time only).
 *
 * @param trace the trace
 * @param engines engine names from the session's catalog, may be empty
 * @param tool the observing tool, or null for all united
 */
public record KernelQuery(Trace trace, List<String> engines, @Nullable String tool) {
	/** Copies. */
	public KernelQuery {
		engines = List.copyOf(engines);
	}
}
