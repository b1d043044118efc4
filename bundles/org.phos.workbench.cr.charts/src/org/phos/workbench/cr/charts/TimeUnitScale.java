package org.phos.workbench.cr.charts;

/**
 * A unit for a time axis chosen from the span shown, so that tick labels read as small numbers (s, ms, µs, ns).
 *
 * @param label unit symbol for axis labels
 * @param nanos nanoseconds per unit
 */
public record TimeUnitScale(String label, double nanos) {

    /** The largest unit in which {@code spanNs} is at least 2 (ns for tiny spans). */
    public static TimeUnitScale forSpan(long spanNs) {
        if (spanNs >= 2_000_000_000L) {
            return new TimeUnitScale("s", 1e9);
        }
        if (spanNs >= 2_000_000L) {
            return new TimeUnitScale("ms", 1e6);
        }
        if (spanNs >= 2_000L) {
            return new TimeUnitScale("µs", 1e3);
        }
        return new TimeUnitScale("ns", 1);
    }

    public double of(long ns) {
        return ns / nanos;
    }
}
