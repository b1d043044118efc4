package org.phos.workbench.trace.core;

import java.util.List;

/**
 * A loaded trace with what was wrong with its file and what is strange in what it says. Warnings mean the trace
 * may be a prefix of what was recorded; anomalies mean a well-formed trace says things that cannot all be true
 * (see {@link TraceAnomaly}), so analyses built on it may be wrong.
 *
 * @param trace     the model
 * @param warnings  in file order; empty for a clean file
 * @param anomalies each kind once ({@link TraceAnomalies#find(Trace)}); empty for a sane trace
 */
public record TraceLoadResult(Trace trace, List<TraceWarning> warnings, List<TraceAnomaly> anomalies) {
    public TraceLoadResult {
        warnings = List.copyOf(warnings);
        anomalies = List.copyOf(anomalies);
    }

    /** A result whose anomalies were not looked for. */
    public TraceLoadResult(Trace trace, List<TraceWarning> warnings) {
        this(trace, warnings, List.of());
    }
}
