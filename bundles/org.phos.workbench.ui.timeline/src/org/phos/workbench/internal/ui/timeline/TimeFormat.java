package org.phos.workbench.internal.ui.timeline;

/** Durations and tick spacing in readable units (ns, µs, ms, s). */
public final class TimeFormat {
    private TimeFormat() {
    }

    /** A duration such as {@code 1.25 ms}, {@code 830 ns}, {@code 2.5 s}. */
    public static String duration(long ns) {
        double a = Math.abs((double) ns);
        if (a < 1e3) {
            return ns + " ns";
        } else if (a < 1e6) {
            return trim(ns / 1e3) + " µs";
        } else if (a < 1e9) {
            return trim(ns / 1e6) + " ms";
        }
        return trim(ns / 1e9) + " s";
    }

    private static String trim(double v) {
        String s = String.format(java.util.Locale.ROOT, Math.abs(v) >= 100 ? "%.1f" : "%.3f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /** A tick step of 1, 2 or 5 times a power of ten, at least {@code minNs}. */
    public static long tickStep(double minNs) {
        long p = 1;
        while (true) {
            for (long m : new long[] { 1, 2, 5 }) {
                if (p * m >= minNs) {
                    return p * m;
                }
            }
            if (p > Long.MAX_VALUE / 10) {
                return p;
            }
            p *= 10;
        }
    }
}
