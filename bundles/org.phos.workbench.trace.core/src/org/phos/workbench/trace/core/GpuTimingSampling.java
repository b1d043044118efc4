package org.phos.workbench.trace.core;

/**
 * How a trace's GPU times were taken (the v1 {@code TimingSampling} message, {@code TraceHeader} field 40;
 * i15-cost). With sampling the recorder timed each launch shape's (function, grid, block) first
 * {@link #firstLaunches()} launches and then each launch with probability 1/N, N between {@link #minInterval()} and
 * {@link #maxInterval()} adapted to the launch rate; a launch was timed iff it has GPU times. {@link #EVERY_LAUNCH}
 * stands for traces that time every launch, including those of recorders older than the field.
 *
 * @param sampled        whether launches were sampled (false: every launch timed)
 * @param firstLaunches  K: the launches of each shape always timed
 * @param minInterval    N at its lowest
 * @param maxInterval    N at its highest
 * @param budgetPermille the share of the time between launches the timed launches' extra host time may take
 * @param shapeKey       what a launch shape is ({@code "function+grid+block"})
 * @param timeSource     where the GPU times come from and how event spans were corrected (i15-timing)
 */
public record GpuTimingSampling(boolean sampled, int firstLaunches, int minInterval, int maxInterval, int budgetPermille,
        String shapeKey, GpuTimeSource timeSource) {

    /** A policy whose trace does not state its GPU time source (recorders before i15-timing). */
    public GpuTimingSampling(boolean sampled, int firstLaunches, int minInterval, int maxInterval, int budgetPermille,
            String shapeKey) {
        this(sampled, firstLaunches, minInterval, maxInterval, budgetPermille, shapeKey, GpuTimeSource.UNSTATED);
    }

    /** Every launch timed (no sampling field, or its mode 0). */
    public static final GpuTimingSampling EVERY_LAUNCH = new GpuTimingSampling(false, 0, 1, 1, 0, "");

    /** The policy in words, for {@code info} and tooltips. */
    public String describe() {
        if (!sampled) {
            return "every launch timed";
        }
        return "sampled: each launch shape's first " + firstLaunches + " launches, then 1 in N (N " + minInterval + "-"
                + maxInterval + ", adapted to the launch rate)" + (timeSource.stated() ? "; " + timeSource.describe() : "");
    }
}
