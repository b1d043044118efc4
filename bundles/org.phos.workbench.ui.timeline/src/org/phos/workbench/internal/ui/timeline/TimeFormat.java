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

    /**
     * A ruler label: time {@code ns} in the unit {@link #duration} picks, with as many decimals as tick spacing
     * {@code stepNs} needs to tell neighbouring ticks apart ({@code 526.712 ms}, {@code 526.714 ms} two µs apart,
     * where {@link #duration} would print {@code 526.7 ms} twice).
     */
    public static String tick(long ns, long stepNs) {
        double a = Math.abs((double) ns);
        double unit = a < 1e3 ? 1 : a < 1e6 ? 1e3 : a < 1e9 ? 1e6 : 1e9;
        String name = a < 1e3 ? " ns" : a < 1e6 ? " µs" : a < 1e9 ? " ms" : " s";
        int decimals = (int) Math.clamp(Math.ceil(Math.log10(unit / Math.max(1, stepNs)) - 1e-9), 0, 9);
        String s = String.format(java.util.Locale.ROOT, "%." + decimals + "f", ns / unit);
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s + name;
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
