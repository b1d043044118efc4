package org.phos.workbench.cr.charts;

import java.util.ArrayList;
import java.util.List;

/**
 * Merges the intervals of one lane (and one series) that a chart could not tell apart: an interval that starts
 * within {@code resolutionNs} (about one pixel) of the end of the previous one joins it. Bars come out at least one
 * resolution wide, so short work stays visible, and a lane never needs more bars than the chart has pixels: millions
 * of kernel launches become a few hundred bars with the same look.
 * <p>
 * Feed intervals in order of start time; {@link #bars()} ends the current bar.
 */
public final class IntervalDecimator {

    /**
     * One bar to draw.
     *
     * @param startNs start
     * @param endNs end (at least start + resolution)
     * @param merged how many intervals it stands for
     */
    public record Bar(long startNs, long endNs, long merged) {
    }

    private final long resolutionNs;
    private final List<Bar> bars = new ArrayList<>();
    private long start = Long.MIN_VALUE;
    private long end;
    private long count;

    /** @param resolutionNs the span of one pixel; 0 keeps every interval apart (only touching ones merge) */
    public IntervalDecimator(long resolutionNs) {
        if (resolutionNs < 0) {
            throw new IllegalArgumentException("resolution must be >= 0, was " + resolutionNs);
        }
        this.resolutionNs = resolutionNs;
    }

    /** Adds an interval; starts must not decrease. */
    public void add(long startNs, long endNs) {
        if (count > 0 && startNs < start) {
            throw new IllegalArgumentException("intervals must come in start order: " + startNs + " after " + start);
        }
        if (count > 0 && startNs <= end + resolutionNs) {
            end = Math.max(end, endNs);
            count++;
            return;
        }
        flush();
        start = startNs;
        end = Math.max(startNs, endNs);
        count = 1;
    }

    private void flush() {
        if (count > 0) {
            bars.add(new Bar(start, Math.max(end, start + resolutionNs), count));
            count = 0;
        }
    }

    /** The bars so far, the current one included. */
    public List<Bar> bars() {
        flush();
        return List.copyOf(bars);
    }
}
