package org.phos.workbench.trace.core;

import java.util.Arrays;
import java.util.Objects;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Which launches an observer observed (the v1 {@code ObservationCoverage} message, field 2 of an
 * {@code ObservedBatch}; i15-cost). An observer that samples (the sanitizer tool observing each launch shape a few
 * times) writes one: a launch listed here was observed, so a launch of it without {@link ObservedAccess} records
 * touched no global memory, and a launch not listed was <i>not observed</i> (its accesses are unknown). Traces
 * without coverage (older tools, every launch observed) cannot tell the two apart.
 *
 * @param tool            the observer, as {@link ObservedAccess#tool()} names it ({@code "sanitizer"})
 * @param observedEvents  event indices of the observed launches, sorted ascending, no duplicates
 * @param policy          how launches were chosen, in words ({@code "each launch shape (function+grid+block) 2 times"})
 * @param launchesSeen    launches the observer saw in the process (observed or not)
 * @param shapes          i15-shapes: what a launch shape was and what sampling by shape gave (fields 20-25), or
 *                        {@code null} when the observer did not sample by shape or predates them
 */
public record ObservationCoverage(String tool, long[] observedEvents, String policy, long launchesSeen,
        @Nullable ShapeSampling shapes) {

    /**
     * How the sanitizer tool's sampling by launch shape ({@code PHOS_SANITIZER_SHAPES}) went (i15-shapes,
     * ObservationCoverage fields 20-25): a launch shape is function + grid + block, and, where the recorder gave the
     * launch's parameter bytes, its argument shape (scalar parameter words by value, pointer words by which allocation
     * they point into, told apart only by aliasing among the launch's pointers, and whether at the allocation's base).
     *
     * @param rule                       the rule in words, as the tool wrote it
     * @param dimensionShapes            distinct function+grid+block combinations
     * @param argumentShapes             distinct argument shapes among them (0: parameters not used)
     * @param cappedLaunches             launches not observed because their function+grid+block already had the
     *                                   maximum number of argument shapes ({@code PHOS_SANITIZER_ARG_SHAPES})
     * @param launchesWithoutParameters  launches shaped by function+grid+block alone (no parameter bytes: a graph's
     *                                   kernel node, a layout the recorder did not know)
     * @param unpatches                  times a module was unpatched once its shapes were judged
     */
    public record ShapeSampling(String rule, long dimensionShapes, long argumentShapes, long cappedLaunches,
            long launchesWithoutParameters, long unpatches) {

        public ShapeSampling {
            Objects.requireNonNull(rule, "rule");
        }

        /** One line for {@code info} and {@code validate}: what a shape was and how many there were. */
        public String describe() {
            StringBuilder b = new StringBuilder("launch shape = ").append(rule).append("; ").append(dimensionShapes)
                    .append(" function+grid+block");
            if (argumentShapes > 0) {
                b.append(", ").append(argumentShapes).append(" argument shapes");
            }
            if (cappedLaunches > 0) {
                b.append("; ").append(cappedLaunches).append(" launches not observed (argument-shape cap)");
            }
            if (launchesWithoutParameters > 0) {
                b.append("; ").append(launchesWithoutParameters).append(" launches without parameters");
            }
            return b.append("; ").append(unpatches).append(" module unpatches").toString();
        }
    }

    /** Coverage without shape sampling figures (an observer that does not sample by shape, or predates them). */
    public ObservationCoverage(String tool, long[] observedEvents, String policy, long launchesSeen) {
        this(tool, observedEvents, policy, launchesSeen, null);
    }

    public ObservationCoverage {
        observedEvents = observedEvents.clone();
        Arrays.sort(observedEvents);
        int n = 0;
        for (int i = 0; i < observedEvents.length; i++) {
            if (i == 0 || observedEvents[i] != observedEvents[i - 1]) {
                observedEvents[n++] = observedEvents[i];
            }
        }
        observedEvents = Arrays.copyOf(observedEvents, n);
    }

    /** Whether the launch at event index {@code event} was observed. */
    public boolean observed(long event) {
        return Arrays.binarySearch(observedEvents, event) >= 0;
    }

    /**
     * i15-shapes: the distinct kernels (functions) the trace's launches name, and how many of them have at least one
     * launch this coverage lists: {@code {kernels, kernels observed}}. What "truth for every distinct kernel" asks.
     */
    public int[] kernelCoverage(Trace trace) {
        java.util.Set<Integer> all = new java.util.HashSet<>();
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int l = 0; l < trace.launchCount(); l++) {
            int e = trace.launchEvent(l);
            int f = trace.functionId(e);
            all.add(f);
            if (observed(e)) {
                seen.add(f);
            }
        }
        return new int[] {all.size(), seen.size()};
    }

    /** The number of observed launches. */
    public int observedCount() {
        return observedEvents.length;
    }

    @Override
    public long[] observedEvents() {
        return observedEvents.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObservationCoverage c && tool.equals(c.tool) && Arrays.equals(observedEvents, c.observedEvents)
                && policy.equals(c.policy) && launchesSeen == c.launchesSeen && Objects.equals(shapes, c.shapes);
    }

    @Override
    public int hashCode() {
        return tool.hashCode() * 31 + Arrays.hashCode(observedEvents);
    }

    @Override
    public String toString() {
        return "ObservationCoverage[tool=" + tool + ", observed=" + observedEvents.length + " launches, policy=" + policy
                + ", launchesSeen=" + launchesSeen + (shapes == null ? "" : ", shapes=" + shapes) + "]";
    }
}
