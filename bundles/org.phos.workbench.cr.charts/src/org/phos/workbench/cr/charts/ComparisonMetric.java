package org.phos.workbench.cr.charts;

import java.util.Map;

import org.phos.workbench.cr.core.SimulationMetrics;

/**
 * A figure compared across runs in the comparison chart, with how to read it from a run's metrics. A run for which
 * the figure does not apply (no checkpoint in a restore run, no baseline) has none: {@link #value} returns NaN.
 */
public enum ComparisonMetric {
    /** Host time lost to C/R: drain, stop-the-world copies, copy-on-write waits, context creation, ... */
    STALL_TOTAL("stall total", Kind.TIME),
    /** The longest single host stall: what an interactive or latency-bound job feels. */
    STALL_LONGEST("longest stall", Kind.TIME),
    /** Checkpoint completion from its request; for restore runs, the time from restore start to the full state. */
    COMPLETION("C/R done", Kind.TIME),
    /** Application end against the same run without C/R. */
    SLOWDOWN("slowdown", Kind.PERCENT),
    /** Bytes moved by C/R activities: CoW D2D, commit D2H, restore H2D. */
    CR_BYTES("C/R bytes", Kind.BYTES);

    /** How the figure is shown. */
    public enum Kind {
        TIME, PERCENT, BYTES
    }

    /** Lane names of the C/R activities start with this (as the simulator names them). */
    static final String CR_LANE_PREFIX = "C/R ";

    private final String label;
    private final Kind kind;

    ComparisonMetric(String label, Kind kind) {
        this.label = label;
        this.kind = kind;
    }

    public String label() {
        return label;
    }

    public Kind kind() {
        return kind;
    }

    /** The raw figure: ns for times, a fraction for the slowdown (0.05 = 5%), bytes; NaN when it does not apply. */
    public double value(SimulationMetrics m) {
        return switch (this) {
            case STALL_TOTAL -> m.stallTotalNs();
            case STALL_LONGEST -> m.stallLongestNs();
            case COMPLETION -> {
                long c = m.checkpointCompletionNs();
                if (c < 0 && m.checkpoints().isEmpty()) {
                    c = m.restoreFullStateNs();
                }
                yield c < 0 ? Double.NaN : c;
            }
            case SLOWDOWN -> m.slowdown();
            case CR_BYTES -> crBytes(m.bytesPerLane());
        };
    }

    static double crBytes(Map<String, Long> bytesPerLane) {
        long sum = 0;
        for (Map.Entry<String, Long> e : bytesPerLane.entrySet()) {
            if (e.getKey().startsWith(CR_LANE_PREFIX)) {
                sum += e.getValue();
            }
        }
        return sum;
    }
}
