package org.phos.workbench.trace.core;

/**
 * Where a trace's GPU times come from and how an event-timed span was corrected (the v1 {@code TimingSampling}
 * message's fields 20-26, written by recorders since i15-timing; docs/trace-format.md block i15-timing).
 * <p>
 * CUPTI's kernel records give a kernel's own start and end. CUDA events around a launch also span the launch's
 * dispatch and drain: with sampled event timing the recorder gates the stream so the events are queued with the
 * kernel ({@link #eventGate()}), then takes an overhead off each span ({@link #eventCorrection()}): a bias measured at
 * setup with empty event pairs ({@code "setup-bias"}), a given constant ({@code "fixed-bias"}), or the span of the
 * recorder's empty probe kernel run behind the timed launch inside the same gate ({@code "in-pair-probe"}: the median
 * over the last {@link #probeWindow()} probes, minus the probe kernel's own duration {@link #probeKernelNs()}).
 * {@link #UNSTATED} stands for traces of older recorders, which do not say.
 *
 * @param source          {@code "auto"} (CUPTI, else events), {@code "cupti"} or {@code "events"}; empty: not stated
 * @param eventGate       whether event-timed launches were gated
 * @param eventCorrection {@code "none"}, {@code "setup-bias"}, {@code "fixed-bias"} or {@code "in-pair-probe"}
 * @param probeKernelNs   the probe kernel's own duration added back (ns)
 * @param eventBiasNs     the constant taken off with {@code "fixed-bias"} (ns)
 * @param probeFallback   the correction of a launch whose probe could not run
 * @param probeWindow     how many recent probe spans give the overhead (their median); 1: the launch's own probe
 */
public record GpuTimeSource(String source, boolean eventGate, String eventCorrection, long probeKernelNs, long eventBiasNs,
        String probeFallback, int probeWindow) {

    /** A trace that does not say (recorders before i15-timing). */
    public static final GpuTimeSource UNSTATED = new GpuTimeSource("", false, "", 0, 0, "", 0);

    /** Whether the trace states its source. */
    public boolean stated() {
        return !source.isEmpty();
    }

    /** The source and correction in words ({@code ""} when not stated). */
    public String describe() {
        if (!stated()) {
            return "";
        }
        String src = switch (source) {
            case "auto" -> "CUPTI kernel records (CUDA events where CUPTI is unavailable)";
            case "cupti" -> "CUPTI kernel records";
            case "events" -> "CUDA events";
            default -> source;
        };
        if (!eventGate || "cupti".equals(source)) {
            return "GPU times from " + src;
        }
        String how = switch (eventCorrection) {
            case "in-pair-probe" -> "minus " + (probeWindow <= 1 ? "the span of the empty probe kernel run behind it"
                    : "the median span of the empty probe kernel run behind the last " + probeWindow + " timed launches")
                    + ", plus the probe's own " + probeKernelNs + " ns (where the probe could not run: " + probeFallback + ")";
            case "setup-bias" -> "minus an event bias measured at setup";
            case "fixed-bias" -> "minus " + eventBiasNs + " ns";
            case "none" -> "taken as it is";
            default -> eventCorrection;
        };
        String gated = "the events gated (queued with the kernel), their span " + how;
        return "auto".equals(source) ? "GPU times from CUPTI kernel records (where CUPTI is unavailable: CUDA events, " + gated + ")"
                : "GPU times from " + src + " around each timed kernel, " + gated;
    }
}
