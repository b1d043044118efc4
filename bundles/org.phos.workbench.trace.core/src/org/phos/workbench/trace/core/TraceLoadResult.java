package org.phos.workbench.trace.core;

import java.util.List;

/**
 * A loaded trace with what was wrong with its file. Warnings mean the trace may be a prefix of what was recorded.
 *
 * @param trace    the model
 * @param warnings in file order; empty for a clean file
 */
public record TraceLoadResult(Trace trace, List<TraceWarning> warnings) {
    public TraceLoadResult {
        warnings = List.copyOf(warnings);
    }
}
