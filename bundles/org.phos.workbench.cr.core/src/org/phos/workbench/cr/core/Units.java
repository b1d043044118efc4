package org.phos.workbench.cr.core;

import java.util.Locale;

/** Parsing and formatting of the sizes, rates and durations that simulation knobs take. */
public final class Units {
    private Units() {
    }

    /** {@code 1.5s}, {@code 200ms}, {@code 30us}, {@code 100ns}; a bare number is ns. */
    public static long parseDurationNs(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        double factor = 1;
        String n = t;
        if (t.endsWith("ns")) {
            n = t.substring(0, t.length() - 2);
        } else if (t.endsWith("us") || t.endsWith("µs")) {
            n = t.substring(0, t.length() - 2);
            factor = 1e3;
        } else if (t.endsWith("ms")) {
            n = t.substring(0, t.length() - 2);
            factor = 1e6;
        } else if (t.endsWith("s")) {
            n = t.substring(0, t.length() - 1);
            factor = 1e9;
        }
        return Math.round(parseNumber(n, text) * factor);
    }

    /** {@code 4MiB}, {@code 14GiB}, {@code 2GB}, {@code 512}; a bare number is bytes. */
    public static long parseBytes(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        String[] suffixes = { "kib", "mib", "gib", "tib", "kb", "mb", "gb", "tb", "b" };
        double[] factors = { 1L << 10, 1L << 20, 1L << 30, 1L << 40, 1e3, 1e6, 1e9, 1e12, 1 };
        for (int i = 0; i < suffixes.length; i++) {
            if (t.endsWith(suffixes[i])) {
                return Math.round(parseNumber(t.substring(0, t.length() - suffixes[i].length()), text) * factors[i]);
            }
        }
        return Math.round(parseNumber(t, text));
    }

    /** {@code 55GB/s}, {@code 1.4TB/s}, {@code 21.6e9}; a bare number is bytes per second. */
    public static double parseRate(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("/s")) {
            return parseBytes(t.substring(0, t.length() - 2));
        }
        return parseNumber(t, text);
    }

    private static double parseNumber(String n, String whole) {
        try {
            double v = Double.parseDouble(n.trim());
            if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a non-negative number: '" + whole + "'");
        }
    }

    public static String formatNs(long ns) {
        if (ns % 1_000_000_000L == 0 && ns != 0) {
            return ns / 1_000_000_000L + "s";
        }
        if (ns % 1_000_000L == 0 && ns != 0) {
            return ns / 1_000_000L + "ms";
        }
        if (ns % 1_000L == 0 && ns != 0) {
            return ns / 1_000L + "us";
        }
        return ns + "ns";
    }

    /** Time in ns to move {@code bytes} at {@code bytesPerSecond}, rounded up. */
    public static long transferNs(long bytes, double bytesPerSecond) {
        if (bytes <= 0) {
            return 0;
        }
        double exact = bytes * 1e9 / bytesPerSecond;
        long rounded = Math.round(exact);
        // round-off in the division must not turn an exact figure (550 MB at 55 GB/s = 10 ms) into 10 ms + 1 ns
        return Math.abs(exact - rounded) <= 1e-9 * Math.max(1.0, exact) ? rounded : (long) Math.ceil(exact);
    }
}
