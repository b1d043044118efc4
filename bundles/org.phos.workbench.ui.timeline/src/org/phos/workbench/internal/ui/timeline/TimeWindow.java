package org.phos.workbench.internal.ui.timeline;

/**
 * The visible range of host time, {@code [fromNs, toNs)}, {@code toNs > fromNs}.
 *
 * @param fromNs first visible nanosecond
 * @param toNs end of the visible range
 */
public record TimeWindow(long fromNs, long toNs) {
    public TimeWindow {
        if (toNs <= fromNs) {
            throw new IllegalArgumentException("empty time window " + fromNs + " .. " + toNs);
        }
    }

    public long span() {
        return toNs - fromNs;
    }

    /** Pixel column of time {@code t} in a drawing {@code width} pixels wide (may be outside {@code [0, width)}). */
    public double x(long t, int width) {
        return (double) (t - fromNs) * width / span();
    }

    /** Time at pixel column {@code x} (fractional) of a drawing {@code width} pixels wide. */
    public long time(double x, int width) {
        return fromNs + (long) Math.floor(x * span() / width);
    }

    public boolean contains(long t) {
        return t >= fromNs && t < toNs;
    }
}
