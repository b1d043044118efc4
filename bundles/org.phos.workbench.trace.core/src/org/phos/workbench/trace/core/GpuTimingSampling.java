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
 * @param bursts         burst sampling with CUPTI (i15-burst), {@link Bursts#NONE} when not used
 */
public record GpuTimingSampling(boolean sampled, int firstLaunches, int minInterval, int maxInterval, int budgetPermille,
        String shapeKey, GpuTimeSource timeSource, Bursts bursts) {

    /**
     * Burst sampling (TimingSampling fields 27-30, i15-burst; native-hooks/README.md): with CUPTI the recorder switches
     * its kernel, copy and set records on for {@code launches} consecutive launches or {@code maxMs}, whichever ends
     * first, then off until (1000 - {@code dutyPermille}) / {@code dutyPermille} times the burst's duration has passed,
     * at most {@code gapMaxMs} (0: no cap); each launch shape's first launches are timed too, and there is no 1-in-N
     * draw. Copies and sets between bursts are timed by CUDA events. Where CUPTI was unavailable the 1-in-N rule applied.
     *
     * <p>i15-settle (fields 31-32): with {@code firstMaxMs} the first burst lasts until the launch shapes settle, that
     * is until {@code launches} launches in a row were all past their shape's first launches, at most
     * {@code firstMaxMs}; with {@code releaseAfterFirst} CUPTI was released for good when the first burst ended: no
     * burst after it, the first launches of shapes that came later were timed by CUDA events, and copies and sets
     * after it carry no GPU time.
     *
     * @param launches          launches per burst; 0: no bursts
     * @param dutyPermille      share of wall time inside bursts aimed at
     * @param maxMs             longest burst
     * @param gapMaxMs          longest gap between bursts; 0: not capped
     * @param firstMaxMs        the first burst's limit when it lasts until the shapes settle; 0: like the others
     * @param releaseAfterFirst whether CUPTI was released once the first burst ended
     */
    public record Bursts(int launches, int dutyPermille, int maxMs, int gapMaxMs, int firstMaxMs, boolean releaseAfterFirst) {
        /** No burst sampling. */
        public static final Bursts NONE = new Bursts(0, 0, 0, 0);

        /** Bursts all alike, CUPTI kept (recorders before i15-settle). */
        public Bursts(int launches, int dutyPermille, int maxMs, int gapMaxMs) {
            this(launches, dutyPermille, maxMs, gapMaxMs, 0, false);
        }

        /** Whether bursts were asked for. */
        public boolean on() {
            return launches > 0;
        }

        /** The bursts in words. */
        public String describe() {
            String first = firstMaxMs > 0 ? "the first burst lasting until the launch shapes settle (" + launches
                    + " launches in a row past each shape's first ones, at most " + firstMaxMs + " ms)" : "";
            if (releaseAfterFirst) {
                return first + (first.isEmpty() ? "one burst of " + launches + " launches (at most " + maxMs + " ms)" : "")
                        + " timed by CUPTI, then CUPTI released: later shapes' first launches timed by CUDA events, "
                        + "copies and sets after it untimed";
            }
            return (first.isEmpty() ? "" : first + ", then ") + "bursts of " + launches + " consecutive launches (at most "
                    + maxMs + " ms) timed by CUPTI, the next after "
                    + String.format(java.util.Locale.ROOT, "%.4g", (1000.0 - dutyPermille) / dutyPermille)
                    + " times the last one's duration" + (gapMaxMs > 0 ? " (at most " + gapMaxMs + " ms)" : "");
        }
    }

    /** A policy without burst sampling (recorders before i15-burst, or bursts not asked for). */
    public GpuTimingSampling(boolean sampled, int firstLaunches, int minInterval, int maxInterval, int budgetPermille,
            String shapeKey, GpuTimeSource timeSource) {
        this(sampled, firstLaunches, minInterval, maxInterval, budgetPermille, shapeKey, timeSource, Bursts.NONE);
    }

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
        String rest = bursts.on() ? "; " + bursts.describe() + " (with CUPTI; else 1 in N, N " + minInterval + "-" + maxInterval + ")"
                : ", then 1 in N (N " + minInterval + "-" + maxInterval + ", adapted to the launch rate)";
        return "sampled: each launch shape's first " + firstLaunches + " launches" + rest
                + (timeSource.stated() ? "; " + timeSource.describe() : "");
    }
}
