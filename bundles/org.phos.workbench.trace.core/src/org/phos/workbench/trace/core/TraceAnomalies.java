package org.phos.workbench.trace.core;

import java.util.List;

import org.phos.workbench.internal.trace.core.model.ColumnarTrace;

/**
 * The semantic check of a trace: what a well-formed trace says that cannot all be true ({@link TraceAnomaly}).
 * The model checks each event as it is added (a few compares; no second walk over millions of events) and the
 * whole trace once when it is frozen, so a loaded trace ({@link TraceLoadResult#anomalies()}) and one built in
 * memory ({@link Trace#builder(TraceHeader)}) both have their anomalies at hand. Each kind is reported once, with
 * its count and first event.
 */
public final class TraceAnomalies {
    private TraceAnomalies() {
    }

    /**
     * @param trace a trace loaded by {@link TraceReader} or built with {@link Trace#builder(TraceHeader)}
     * @return the anomalies, each kind at most once, in {@link TraceAnomaly.Kind} order; empty for a sane trace
     *         (and for other {@link Trace} implementations, which are not checked)
     */
    public static List<TraceAnomaly> find(Trace trace) {
        return trace instanceof ColumnarTrace c ? c.anomalies() : List.of();
    }
}
