package org.phos.workbench.cr.core;

import java.util.Locale;

/**
 * When a checkpoint (or the state a restore brings back) happens: at a host time or at a launch index. A launch-index
 * instant is reached just before the application issues its {@code value}-th launch (0-based, counting launches
 * only); a time instant before the first operation whose simulated host issue time is at or after {@code value} ns.
 *
 * @param byLaunchIndex whether {@code value} counts launches (else nanoseconds)
 * @param value launch index or host time in ns
 */
public record CheckpointInstant(boolean byLaunchIndex, long value) {
    public CheckpointInstant {
        if (value < 0) {
            throw new IllegalArgumentException("checkpoint instant must be >= 0, was " + value);
        }
    }

    public static CheckpointInstant atTimeNs(long ns) {
        return new CheckpointInstant(false, ns);
    }

    public static CheckpointInstant atLaunch(long launchIndex) {
        return new CheckpointInstant(true, launchIndex);
    }

    /**
     * Parses {@code launch:N}, {@code N} (a launch index), or a time with unit: {@code 1.5s}, {@code 200ms},
     * {@code 30us}, {@code 100ns}.
     */
    public static CheckpointInstant parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("launch:")) {
                return atLaunch(Long.parseLong(t.substring(7).trim()));
            }
            if (t.chars().allMatch(Character::isDigit) && !t.isEmpty()) {
                return atLaunch(Long.parseLong(t));
            }
            return atTimeNs(Units.parseDurationNs(t));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("checkpoint instant '" + text
                    + "': expected launch:N, N, or a time such as 1.5s, 200ms, 30us (" + e.getMessage() + ")", e);
        }
    }

    /** Whether the instant is reached before issuing an operation at {@code hostNs} after {@code launchesSoFar}. */
    public boolean reached(long hostNs, long launchesSoFar, Operation next) {
        if (byLaunchIndex) {
            return next.kind() == OperationKind.LAUNCH && launchesSoFar >= value;
        }
        return hostNs >= value;
    }

    @Override
    public String toString() {
        return byLaunchIndex ? "launch:" + value : Units.formatNs(value);
    }
}
