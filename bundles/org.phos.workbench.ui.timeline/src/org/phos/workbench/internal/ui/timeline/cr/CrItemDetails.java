package org.phos.workbench.internal.ui.timeline.cr;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.format.KernelNames;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.internal.ui.timeline.TimeFormat;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * The line that says what a picked C/R timeline item is: for an interval its lane, what ran, the buffer, the bytes and
 * the operation (for a copy-on-write, the launch whose write forced it: the stall it caused names it); for a stall
 * why the application waited, for how long, on which buffer and which call.
 */
public final class CrItemDetails {
    private CrItemDetails() {
    }

    /** Why a stall happened, in a researcher's words. */
    public static String cause(StallCause c) {
        return switch (c) {
            case DRAIN -> "draining submitted work at the checkpoint";
            case STOP_THE_WORLD -> "stop-the-world copy of device memory";
            case COPY_ON_WRITE -> "copy-on-write before the launch may write the buffer";
            case BUDGET_FALLBACK -> "CoW budget exhausted: buffer copied straight to the host first";
            case WAIT_FOR_COPIER -> "buffer being copied by the background copier";
            case RECOPY -> "recopy of the dirty set with the application stopped";
            case CONTEXT_CREATION -> "context creation before the restored process runs";
            case RESTORE_ON_DEMAND -> "on-demand restore: the buffer is not back on the device yet";
            case CPU_STATE -> "host process state dump";
            case COPY_ENGINE_BUSY -> "copy waited for a copy engine busy with C/R traffic";
        };
    }

    /** The description of item {@code item} of {@code content}; {@code trace} names launches (null: indices only). */
    public static String describe(CrTimelineContent content, int item, @Nullable Trace trace) {
        Object o = content.item(item);
        StringBuilder b = new StringBuilder();
        if (o instanceof StallInterval s) {
            b.append(s.isHostStall() ? "Stall " : "Engine wait ").append(TimeFormat.duration(s.durationNs()))
                    .append(": ").append(cause(s.cause())).append(" (").append(s.cause().name()).append(')');
            if (s.buffer() >= 0) {
                b.append(" | buffer ").append(s.buffer());
            }
            if (s.opIndex() >= 0) {
                b.append(" | waiting call: ").append(operation(trace, s.opIndex()));
            }
            b.append(" | start ").append(TimeFormat.duration(s.startNs()));
            return b.toString();
        }
        TimelineInterval i = (TimelineInterval) o;
        String lane = content.crLane(content.laneIndexOf(item)).name();
        b.append(CrCategory.of(i) == CrCategory.COW ? "Copy-on-write" : capitalised(i.category())).append(' ')
                .append(i.label()).append(" | lane ").append(lane);
        if (i.buffer() >= 0) {
            b.append(" | buffer ").append(i.buffer());
        }
        if (i.bytes() > 0) {
            b.append(" | ").append(bytes(i.bytes()));
        }
        if (i.opIndex() >= 0) {
            b.append(" | ").append(operation(trace, i.opIndex()));
        } else if (i.category().equals(TimelineInterval.COW)) {
            StallInterval cause = content.causeOf(i);
            if (cause != null && cause.opIndex() >= 0) {
                b.append(" | caused by ").append(operation(trace, cause.opIndex())).append(", which writes it");
            }
        }
        b.append(" | start ").append(TimeFormat.duration(i.startNs())).append(", duration ")
                .append(TimeFormat.duration(i.durationNs()));
        return b.toString();
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** An operation by its trace event: "launch 57 kernelName (event 1234)", or "event 1234". */
    static String operation(@Nullable Trace trace, long opIndex) {
        if (trace != null && opIndex < trace.eventCount()) {
            int e = (int) opIndex;
            if (trace.kind(e) == EventKind.LAUNCH) {
                FunctionInfo f = trace.functionById(trace.functionId(e));
                return "launch " + trace.launchIndex(e) + " "
                        + (f == null ? "function " + trace.functionId(e) : KernelNames.shorten(f.displayName(), 60))
                        + " (event " + e + ")";
            }
            return trace.kind(e).name().toLowerCase(java.util.Locale.ROOT) + " (event " + e + ")";
        }
        return "operation " + opIndex;
    }

    /** Bytes in binary units: {@code 4 MiB}, {@code 1.5 GiB}, {@code 812 B}. */
    public static String bytes(long n) {
        String[] units = { "B", "KiB", "MiB", "GiB", "TiB" };
        double v = n;
        int u = 0;
        while (Math.abs(v) >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        String s = u == 0 ? Long.toString(n) : String.format(java.util.Locale.ROOT, v >= 100 ? "%.0f" : "%.2f", v);
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s + " " + units[u];
    }
}
