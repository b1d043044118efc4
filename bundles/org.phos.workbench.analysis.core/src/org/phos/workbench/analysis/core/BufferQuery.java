package org.phos.workbench.analysis.core;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.Trace;

/**
 * Every allocation of a trace: where and when it lived, and how many launches touched it according to the observed
 * truth.
 *
 * @param trace the trace
 * @param tool the observing tool whose records count, or null for all
 */
public record BufferQuery(Trace trace, @Nullable String tool) {
}
