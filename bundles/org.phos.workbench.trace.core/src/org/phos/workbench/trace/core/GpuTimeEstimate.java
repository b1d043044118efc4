package org.phos.workbench.trace.core;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * GPU durations of launches, measured or estimated, and how (i15-cost). A trace recorded with sampled GPU timing
 * ({@link GpuTimingSampling}) times only some launches; the others are estimated here from the timed launches of the
 * same <i>launch shape</i> (function, grid, block: what mostly decides a kernel's duration), else of the same
 * function, else not at all. A trace that times every launch gets its measured durations and no estimate.
 * <p>
 * Every GPU-time figure of the workbench that sums or shows durations of a sampled trace goes through this class, so
 * that it can say how the figure was obtained ({@link #describe()}, {@link #describeKernel(int)}).
 * Immutable; built in one pass over the launches.
 */
public final class GpuTimeEstimate {
    private record Shape(int function, int gx, int gy, int gz, int bx, int by, int bz) {
    }

    private final Trace trace;
    private final GpuTimingSampling policy;
    private final Map<Shape, long[]> shapes = new HashMap<>();       // sum of measured ns, timed launches
    private final Map<Integer, long[]> functions = new HashMap<>();  // sum, timed, launches, estimated total
    private final long launches;
    private final long timed;

    private GpuTimeEstimate(Trace trace) {
        this.trace = trace;
        this.policy = trace.header().timingSampling();
        long n = 0;
        long t = 0;
        for (int l = 0; l < trace.launchCount(); l++) {
            int e = trace.launchEvent(l);
            n++;
            long[] f = functions.computeIfAbsent(trace.functionId(e), k -> new long[4]);
            f[2]++;
            long d = measuredNs(e);
            if (d >= 0) {
                t++;
                f[0] += d;
                f[1]++;
                long[] s = shapes.computeIfAbsent(shape(e), k -> new long[2]);
                s[0] += d;
                s[1]++;
            }
        }
        launches = n;
        timed = t;
        for (int l = 0; l < trace.launchCount(); l++) {
            int e = trace.launchEvent(l);
            long d = durationNs(e);
            if (d > 0) {
                functions.get(trace.functionId(e))[3] += d;
            }
        }
    }

    /** The estimate for {@code trace} (one pass over its launches). */
    public static GpuTimeEstimate of(Trace trace) {
        return new GpuTimeEstimate(trace);
    }

    private Shape shape(int e) {
        return new Shape(trace.functionId(e), trace.gridX(e), trace.gridY(e), trace.gridZ(e), trace.blockX(e),
                trace.blockY(e), trace.blockZ(e));
    }

    /** The measured GPU duration of event {@code e}, or -1 when it was not timed. */
    public long measuredNs(int e) {
        long s = trace.gpuStartNs(e);
        long end = trace.gpuEndNs(e);
        return s != 0 && Long.compareUnsigned(end, s) >= 0 && end - s >= 0 ? end - s : -1;
    }

    /** Whether launch event {@code e} carries measured GPU times. */
    public boolean measured(int e) {
        return measuredNs(e) >= 0;
    }

    /**
     * The GPU duration of launch event {@code e}: measured when timed, else (sampled traces only) the mean of the
     * timed launches of its shape, else of its function; -1 when none of them was timed or the trace times every
     * launch (an untimed launch of such a trace is simply not measured).
     */
    public long durationNs(int e) {
        long d = measuredNs(e);
        if (d >= 0 || !policy.sampled() || trace.kind(e) != EventKind.LAUNCH) {
            return d;
        }
        long[] s = shapes.get(shape(e));
        if (s != null && s[1] > 0) {
            return s[0] / s[1];
        }
        long[] f = functions.get(trace.functionId(e));
        return f != null && f[1] > 0 ? f[0] / f[1] : -1;
    }

    /** Whether the trace's GPU times are a sample (then untimed launches are estimated). */
    public boolean sampled() {
        return policy.sampled();
    }

    public long launches() {
        return launches;
    }

    public long timedLaunches() {
        return timed;
    }

    /** Launches of function {@code functionId} that were timed. */
    public long timedLaunches(int functionId) {
        long[] f = functions.get(functionId);
        return f == null ? 0 : f[1];
    }

    /** Launches of function {@code functionId}. */
    public long launches(int functionId) {
        long[] f = functions.get(functionId);
        return f == null ? 0 : f[2];
    }

    /** GPU time of all launches of {@code functionId}: measured sum, or for a sampled trace the estimated total. */
    public long kernelNs(int functionId) {
        long[] f = functions.get(functionId);
        return f == null ? 0 : policy.sampled() ? f[3] : f[0];
    }

    /** How the GPU times of this trace were obtained, in one line. */
    public String describe() {
        if (timed == 0) {
            return "not measured";
        }
        if (!policy.sampled()) {
            return "measured: " + timed + " of " + launches + " launches timed (every launch timed)";
        }
        if (timed == launches) {
            return "measured: all " + launches + " launches timed (recorded with sampling, " + policy.describe()
                    + ", but no launch shape ran past its always-timed launches)";
        }
        return String.format(Locale.ROOT, "sampled 1/%.0f: %d of %d launches timed (%s); the others estimated per "
                + "launch shape (function, grid, block) from the timed ones", (double) launches / timed, timed, launches,
                policy.describe());
    }

    /** How the GPU time of one kernel was obtained, e.g. "estimated from 12 of 300 launches timed". */
    public String describeKernel(int functionId) {
        long t = timedLaunches(functionId);
        long n = launches(functionId);
        if (t == 0) {
            return "not measured";
        }
        return policy.sampled() && t < n ? "estimated from " + t + " of " + n + " launches timed" : "measured (" + t
                + " of " + n + " launches timed)";
    }
}
