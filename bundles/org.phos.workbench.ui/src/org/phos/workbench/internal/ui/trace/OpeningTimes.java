package org.phos.workbench.internal.ui.trace;

/**
 * Timestamps of the steps from opening a trace to its first painted table, printed on stderr when the system
 * property {@code phos.timing} is {@code true} (how the opening figure in docs/benchmarks.md was profiled).
 */
public final class OpeningTimes {
    private static final boolean ON = Boolean.getBoolean("phos.timing");
    private static final long ORIGIN = System.nanoTime();

    private OpeningTimes() {
    }

    /** Prints {@code step} with the milliseconds since the JVM loaded this class and the thread. */
    public static void mark(String step) {
        if (ON) {
            System.err.printf(java.util.Locale.ROOT, "timing: %8.1f ms  %-28s %s%n", (System.nanoTime() - ORIGIN) / 1e6,
                    Thread.currentThread().getName(), step);
        }
    }
}
