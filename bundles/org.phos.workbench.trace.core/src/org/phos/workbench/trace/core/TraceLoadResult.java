package org.phos.workbench.trace.core;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A loaded trace with what was wrong with its file and what is strange in what it says. Warnings mean the trace
 * may be a prefix of what was recorded; anomalies mean a well-formed trace says things that cannot all be true
 * (see {@link TraceAnomaly}), so analyses built on it may be wrong.
 *
 * @param trace     the model
 * @param warnings  in file order; empty for a clean file
 * @param anomalies each kind once ({@link TraceAnomalies#find(Trace)}); empty for a sane trace
 * @param streamGaps for a trace saved from a live attach stream: the process's events it does not hold, in order
 *                   (the trace numbers the events it holds densely; {@link StreamGap#processIndex}); empty for a file
 *                   the recorder wrote
 * @param streamStart for a trace saved from a live attach stream: where it joined the process; else null
 */
public record TraceLoadResult(Trace trace, List<TraceWarning> warnings, List<TraceAnomaly> anomalies,
        List<StreamGap> streamGaps, @Nullable StreamStart streamStart) {
    public TraceLoadResult {
        warnings = List.copyOf(warnings);
        anomalies = List.copyOf(anomalies);
        streamGaps = List.copyOf(streamGaps);
    }

    public TraceLoadResult(Trace trace, List<TraceWarning> warnings, List<TraceAnomaly> anomalies) {
        this(trace, warnings, anomalies, List.of(), null);
    }

    /** A result whose anomalies were not looked for. */
    public TraceLoadResult(Trace trace, List<TraceWarning> warnings) {
        this(trace, warnings, List.of());
    }
}
