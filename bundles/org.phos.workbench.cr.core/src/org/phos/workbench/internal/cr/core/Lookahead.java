package org.phos.workbench.internal.cr.core;

import java.util.Arrays;
import java.util.Iterator;

import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationWorkload;

/** Passes over a workload ahead of the simulation (first-use copy order). */
public final class Lookahead {
    private Lookahead() {
    }

    /**
     * Per buffer id, the position (operations counted from the instant) of its first read or write at or after
     * {@code from} by the policy's sets; -1 when never used. Time instants are compared with recorded host times.
     */
    public static long[] firstUse(SimulationWorkload workload, CheckpointInstant from) {
        long[] first = new long[1024];
        Arrays.fill(first, -1);
        Iterator<Operation> ops = workload.operations();
        long launches = 0;
        boolean reached = false;
        long pos = 0;
        while (ops.hasNext()) {
            Operation op = ops.next();
            if (!reached && from.reached(op.hostTimeNs(), launches, op)) {
                reached = true;
            }
            if (op.kind() == OperationKind.LAUNCH) {
                launches++;
            }
            if (!reached) {
                continue;
            }
            first = note(first, op.reads(), pos);
            first = note(first, op.writes(), pos);
            pos++;
        }
        return first;
    }

    private static long[] note(long[] first, java.util.List<BufferRange> ranges, long pos) {
        long[] f = first;
        for (BufferRange r : ranges) {
            int b = r.buffer();
            if (b >= f.length) {
                int old = f.length;
                f = Arrays.copyOf(f, Math.max(b + 1, old * 2));
                Arrays.fill(f, old, f.length, -1);
            }
            if (f[b] < 0) {
                f[b] = pos;
            }
        }
        return f;
    }
}
