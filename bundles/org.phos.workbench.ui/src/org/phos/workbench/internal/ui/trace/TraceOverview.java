package org.phos.workbench.internal.ui.trace;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * The overview of a loaded trace as plain text: header, event counts, kernels by GPU time, memory, streams and
 * ground truth. Computed from trace.core directly (the analysis layer's summary had not landed when this was
 * written); runs in the loading job, never on the UI thread.
 */
public final class TraceOverview {
    private TraceOverview() {
    }

    /** The overview text of {@code trace}. */
    public static String text(Trace trace) {
        StringBuilder b = new StringBuilder();
        TraceHeader h = trace.header();
        b.append("HEADER\n");
        b.append(String.format(Locale.ROOT, "  recorder   %s %s%n", h.recorder(), h.recorderVersion()));
        b.append(String.format(Locale.ROOT, "  command    %s%n", String.join(" ", h.argv())));
        b.append(String.format(Locale.ROOT, "  device     %s (sm_%d%d, %s)%n", h.deviceName(), h.ccMajor(), h.ccMinor(),
                h.deviceMemory() == 0 ? "memory unknown" : mib(h.deviceMemory()) + " memory"));
        b.append(String.format(Locale.ROOT, "  driver     %d, runtime %d, GPU timing %s%n", h.driverVersion(),
                h.runtimeVersion(), h.gpuTiming() ? "on" : "off"));

        b.append("\nEVENTS\n");
        int total = trace.eventCount();
        Map<EventKind, Integer> counts = new EnumMap<>(EventKind.class);
        for (EventKind k : EventKind.values()) {
            counts.put(k, trace.count(k));
        }
        for (Map.Entry<EventKind, Integer> e : counts.entrySet()) {
            if (e.getValue() > 0) {
                b.append(String.format(Locale.ROOT, "  %-13s %,10d  %s%n", e.getKey(), e.getValue(),
                        bar(e.getValue(), total)));
            }
        }
        b.append(String.format(Locale.ROOT, "  %-13s %,10d%n", "total", total));

        Map<Integer, long[]> byKernel = new HashMap<>();
        TreeSet<Long> streams = new TreeSet<>();
        long gpuTotal = 0;
        for (int l = 0; l < trace.launchCount(); l++) {
            int i = trace.launchEvent(l);
            long gpu = Math.max(0, trace.gpuEndNs(i) - trace.gpuStartNs(i));
            long[] k = byKernel.computeIfAbsent(trace.functionId(i), x -> new long[2]);
            k[0]++;
            k[1] += gpu;
            gpuTotal += gpu;
        }
        for (int i = 0; i < total; i++) {
            streams.add(trace.stream(i));
        }
        b.append("\nKERNELS BY GPU TIME (").append(byKernel.size()).append(" kernels, ")
                .append(String.format(Locale.ROOT, "%.3f ms", gpuTotal / 1e6)).append(")\n");
        List<Map.Entry<Integer, long[]>> kernels = new ArrayList<>(byKernel.entrySet());
        kernels.sort((x, y) -> Long.compare(y.getValue()[1], x.getValue()[1]));
        for (Map.Entry<Integer, long[]> e : kernels.subList(0, Math.min(12, kernels.size()))) {
            FunctionInfo f = trace.functionById(e.getKey());
            String name = f == null ? "function " + e.getKey() : f.displayName();
            b.append(String.format(Locale.ROOT, "  %10.3f ms %7d×  %-20s %s%n", e.getValue()[1] / 1e6,
                    e.getValue()[0], bar(e.getValue()[1], gpuTotal), shorten(name, 70)));
        }

        Map<Long, Long> live = new HashMap<>();
        Map<String, Long> byKind = new TreeMap<>();
        long current = 0;
        long peak = 0;
        for (int i = 0; i < total; i++) {
            EventKind k = trace.kind(i);
            if (k == EventKind.ALLOC) {
                live.put(trace.address(i), trace.size(i));
                current += trace.size(i);
                peak = Math.max(peak, current);
                byKind.merge(String.valueOf(trace.allocKind(i)), trace.size(i), Long::sum);
            } else if (k == EventKind.FREE) {
                Long size = live.remove(trace.address(i));
                if (size != null) {
                    current -= size;
                }
            }
        }
        b.append("\nMEMORY\n");
        b.append(String.format(Locale.ROOT, "  peak live  %s, still live at end %s in %d allocations%n", mib(peak),
                mib(current), live.size()));
        for (Map.Entry<String, Long> e : byKind.entrySet()) {
            b.append(String.format(Locale.ROOT, "  %-10s %s allocated in total%n", e.getKey(), mib(e.getValue())));
        }

        b.append("\nSTREAMS  ").append(streams.size()).append(": ");
        b.append(String.join(", ", streams.stream().limit(16).map(s -> "0x" + Long.toHexString(s)).toList()));
        b.append(streams.size() > 16 ? ", …\n" : "\n");

        Map<String, Long> tools = new TreeMap<>();
        TreeSet<Long> coveredLaunches = new TreeSet<>();
        for (ObservedAccess a : trace.observedAccesses()) {
            tools.merge(a.tool(), 1L, Long::sum);
            coveredLaunches.add(a.launchEvent());
        }
        b.append("\nGROUND TRUTH\n");
        if (tools.isEmpty()) {
            b.append("  none: this trace holds no observed accesses\n");
        } else {
            b.append(String.format(Locale.ROOT, "  %,d observed accesses covering %,d of %,d launches%n",
                    trace.observedAccesses().size(), coveredLaunches.size(), trace.launchCount()));
            tools.forEach((t, n) -> b.append(String.format(Locale.ROOT, "  %-12s %,d records%n", t, n)));
        }
        return b.toString();
    }

    private static String bar(long value, long total) {
        int n = total <= 0 ? 0 : (int) Math.round(20.0 * value / total);
        return "█".repeat(n) + "·".repeat(20 - n);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    private static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
