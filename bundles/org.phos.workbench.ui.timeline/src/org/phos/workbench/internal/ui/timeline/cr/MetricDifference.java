package org.phos.workbench.internal.ui.timeline.cr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.internal.ui.timeline.TimeFormat;

/**
 * One row of the compare view's table: a metric of two runs and its difference, right minus left, absolute and
 * relative to the left ({@code NaN} when the left is 0 or either is not defined).
 *
 * @param metric the metric's name
 * @param unit how values read: {@code ns}, {@code bytes}, {@code count} or {@code ratio}
 * @param left the left (reference) run's value, {@code NaN} when it has none (no checkpoint completed, no baseline)
 * @param right the right run's value
 */
public record MetricDifference(String metric, String unit, double left, double right) {
    /** {@code right - left}. */
    public double difference() {
        return right - left;
    }

    /** {@code (right - left) / left * 100}. */
    public double percent() {
        return left == 0 ? Double.NaN : (right - left) / Math.abs(left) * 100;
    }

    /**
     * The rows the view shows: stall, longest stall, stall count, completion, application end, slowdown, CoW, bytes by
     * lane.
     */
    public static List<MetricDifference> of(SimulationMetrics l, SimulationMetrics r) {
        List<MetricDifference> rows = new ArrayList<>();
        rows.add(new MetricDifference("stall total", "ns", l.stallTotalNs(), r.stallTotalNs()));
        rows.add(new MetricDifference("longest stall", "ns", l.stallLongestNs(), r.stallLongestNs()));
        rows.add(new MetricDifference("stall count", "count", l.stallCount(), r.stallCount()));
        rows.add(new MetricDifference("checkpoint completion", "ns", orNaN(l.checkpointCompletionNs()),
                orNaN(r.checkpointCompletionNs())));
        rows.add(new MetricDifference("application end", "ns", l.appEndNs(), r.appEndNs()));
        rows.add(new MetricDifference("slowdown", "ratio", l.slowdown(), r.slowdown()));
        rows.add(new MetricDifference("CoW count", "count", l.cowCount(), r.cowCount()));
        rows.add(new MetricDifference("CoW bytes", "bytes", l.cowBytes(), r.cowBytes()));
        TreeSet<String> lanes = new TreeSet<>(l.bytesPerLane().keySet());
        lanes.addAll(r.bytesPerLane().keySet());
        for (String lane : lanes) {
            rows.add(new MetricDifference("bytes " + lane, "bytes", l.bytesPerLane().getOrDefault(lane, 0L),
                    r.bytesPerLane().getOrDefault(lane, 0L)));
        }
        return rows;
    }

    private static double orNaN(long v) {
        return v < 0 ? Double.NaN : v;
    }

    /** A value as the table shows it, in the row's unit. */
    public String format(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return switch (unit) {
            case "ns" -> TimeFormat.duration(Math.round(v));
            case "bytes" -> (v < 0 ? "-" : "") + CrItemDetails.bytes(Math.abs(Math.round(v)));
            case "ratio" -> String.format(Locale.ROOT, "%+.2f%%", v * 100);
            default -> String.format(Locale.ROOT, "%,d", Math.round(v));
        };
    }

    /** The relative difference as the table shows it. */
    public String formatPercent() {
        double p = percent();
        return Double.isNaN(p) || Double.isInfinite(p) ? "-" : String.format(Locale.ROOT, "%+.1f%%", p);
    }
}
