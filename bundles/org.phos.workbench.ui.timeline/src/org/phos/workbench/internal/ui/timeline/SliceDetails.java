package org.phos.workbench.internal.ui.timeline;

import org.phos.workbench.analysis.core.format.KernelNames;

import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;

/** The description of a picked slice: what it is (a launch with its kernel), its stream, times, grid and block. */
final class SliceDetails {
    private SliceDetails() {
    }

    static String describe(TimelineIndex index, int event) {
        Trace t = index.trace();
        EventKind k = t.kind(event);
        long s = TimelineIndex.startNs(t, event);
        long e = TimelineIndex.endNs(t, event);
        StringBuilder b = new StringBuilder();
        if (k == EventKind.LAUNCH) {
            // the kernel first: it is what a researcher looks for, and a wrapped line must not cut it off
            FunctionInfo f = t.functionById(t.functionId(event));
            b.append("Launch ").append(t.launchIndex(event)).append(' ')
                    .append(f == null ? "function " + t.functionId(event) : KernelNames.shorten(f.displayName(), TimelinePainter.KERNEL_NAME_WIDTH));
        } else if (k == EventKind.MEMCPY) {
            b.append("Copy ").append(t.copyKind(event)).append(' ').append(t.bytes(event)).append(" B");
        } else {
            b.append(k.name().toLowerCase(java.util.Locale.ROOT));
        }
        long stream = t.stream(event);
        b.append(" | stream ").append(stream == 0 ? "default" : "0x" + Long.toHexString(stream));
        b.append(" | start +").append(TimeFormat.duration(s - index.start()));
        b.append(", duration ").append(TimeFormat.duration(e - s));
        b.append(" | host call +").append(TimeFormat.duration(t.hostNs(event) - index.start()));
        if (k == EventKind.LAUNCH) {
            b.append(" | grid ").append(t.gridX(event)).append('x').append(t.gridY(event)).append('x').append(t.gridZ(event))
                    .append(", block ").append(t.blockX(event)).append('x').append(t.blockY(event)).append('x')
                    .append(t.blockZ(event));
        }
        return b.toString();
    }
}
