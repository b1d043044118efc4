package org.phos.workbench.cr.core.tests;

import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationWorkload;

/** Builds hand-made workloads: operations get consecutive indices; times are in ns. */
final class Ops {
    /**
     * A size whose transfer times are exact on the h100 model: 1.54 GB moves D2H/H2D (55 GB/s) in 28 ms and D2D
     * (1.4 TB/s) in 1.1 ms.
     */
    static final long S = 1_540_000_000L;
    static final long S_D2H_NS = 28_000_000L;
    static final long S_D2D_NS = 1_100_000L;
    static final long MS = 1_000_000L;

    /** h100 with zero launch and copy latency, so results follow from bandwidth alone. */
    static final MachineModel MACHINE = MachineModel.h100().withoutLatencies();

    private final List<Operation> ops = new ArrayList<>();

    long next() {
        return ops.size();
    }

    Ops alloc(int buffer, long size, long address) {
        ops.add(Operation.alloc(next(), 0, buffer, size, address));
        return this;
    }

    /** Allocates buffers 0..n-1 of size {@link #S}, addresses ascending with the id. */
    Ops allocS(int n) {
        for (int b = 0; b < n; b++) {
            alloc(b, S, 0x1000_0000_0000L + b * 0x1_0000_0000L);
        }
        return this;
    }

    static List<BufferRange> whole(int... buffers) {
        List<BufferRange> l = new ArrayList<>();
        for (int b : buffers) {
            l.add(BufferRange.whole(b, S));
        }
        return l;
    }

    /** A kernel on stream 0 reading {@code reads} and writing {@code writes} (speculated = observed). */
    Ops kernel(long host, long duration, int[] reads, int[] writes) {
        return kernelOn(0, host, duration, reads, writes);
    }

    Ops kernelOn(int stream, long host, long duration, int[] reads, int[] writes) {
        Operation op = Operation.launch(next(), stream, host, duration, whole(reads), whole(writes), "k" + next());
        ops.add(op.withObserved(whole(reads), whole(writes)));
        return this;
    }

    /** A kernel whose speculated write set differs from what it really writes. */
    Ops kernelMisspeculated(long host, long duration, int[] speculatedWrites, int[] trueWrites) {
        Operation op = Operation.launch(next(), 0, host, duration, List.of(), whole(speculatedWrites), "k" + next());
        ops.add(op.withObserved(List.of(), whole(trueWrites)));
        return this;
    }

    Ops copy(int stream, long host, CopyDirection dir, long bytes, int buffer) {
        List<BufferRange> dev = List.of(new BufferRange(buffer, 0, bytes));
        ops.add(Operation.copy(next(), stream, host, -1, dir, bytes, false,
                dir == CopyDirection.DEVICE_TO_HOST ? dev : List.of(),
                dir == CopyDirection.HOST_TO_DEVICE ? dev : List.of()));
        return this;
    }

    Ops free(long host, int buffer) {
        ops.add(Operation.free(next(), host, buffer));
        return this;
    }

    Ops sync(OperationKind kind, int stream, long host, int event) {
        ops.add(Operation.sync(next(), kind, stream, host, event));
        return this;
    }

    Ops add(Operation op) {
        ops.add(op);
        return this;
    }

    SimulationWorkload workload() {
        return SimulationWorkload.of("hand-built", ops);
    }

    static int[] b(int... ids) {
        return ids;
    }
}
