package org.phos.workbench.trace.core;

import java.util.Arrays;

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
 */
public record ObservationCoverage(String tool, long[] observedEvents, String policy, long launchesSeen) {

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
                && policy.equals(c.policy) && launchesSeen == c.launchesSeen;
    }

    @Override
    public int hashCode() {
        return tool.hashCode() * 31 + Arrays.hashCode(observedEvents);
    }

    @Override
    public String toString() {
        return "ObservationCoverage[tool=" + tool + ", observed=" + observedEvents.length + " launches, policy=" + policy
                + ", launchesSeen=" + launchesSeen + "]";
    }
}
