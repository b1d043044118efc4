package org.phos.workbench.internal.cr.core.bench;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationWorkload;

/**
 * A generated workload for benchmarks: {@code buffers} allocations (sizes log-uniform between {@code minBytes} and
 * {@code maxBytes}, addresses in ascending order), then {@code launches} kernels round-robin over {@code streams},
 * each reading two random buffers and writing one, host gaps of 3-8 us, GPU durations of 4-20 us, and a device
 * synchronize every {@code syncEvery} launches. Operations are generated lazily, so memory does not grow with
 * length; the same seed gives the same sequence on every pass.
 */
public final class SyntheticWorkload implements SimulationWorkload {
    private final long launches;
    private final int buffers;
    private final int streams;
    private final long minBytes;
    private final long maxBytes;
    private final int syncEvery;
    private final long seed;
    private final long[] sizes;
    private final BufferRange[] whole;

    public SyntheticWorkload(long launches, int buffers, int streams, long minBytes, long maxBytes, int syncEvery,
            long seed) {
        if (launches < 0 || buffers <= 0 || streams <= 0 || minBytes <= 0 || maxBytes < minBytes || syncEvery <= 0) {
            throw new IllegalArgumentException("synthetic workload: need launches >= 0, buffers > 0, streams > 0, "
                    + "0 < minBytes <= maxBytes, syncEvery > 0");
        }
        this.launches = launches;
        this.buffers = buffers;
        this.streams = streams;
        this.minBytes = minBytes;
        this.maxBytes = maxBytes;
        this.syncEvery = syncEvery;
        this.seed = seed;
        this.sizes = new long[buffers];
        this.whole = new BufferRange[buffers];
        SplittableRandom r = new SplittableRandom(seed);
        double lo = Math.log(minBytes);
        double hi = Math.log(maxBytes);
        for (int b = 0; b < buffers; b++) {
            long s = (long) Math.exp(lo + r.nextDouble() * (hi - lo));
            sizes[b] = Math.max(minBytes, (s + 255) & ~255L);
            whole[b] = BufferRange.whole(b, sizes[b]);
        }
    }

    /** The benchmark's shape: 10k buffers of 4 KiB - 16 MiB, 4 streams, a sync every 10k launches. */
    public static SyntheticWorkload standard(long launches) {
        return new SyntheticWorkload(launches, 10_000, 4, 4L << 10, 16L << 20, 10_000, 42);
    }

    public long totalBufferBytes() {
        long t = 0;
        for (long s : sizes) {
            t += s;
        }
        return t;
    }

    @Override
    public String name() {
        return "synthetic " + launches + " launches, " + buffers + " buffers";
    }

    @Override
    public long sizeHint() {
        return buffers + launches + launches / syncEvery;
    }

    @Override
    public Iterator<Operation> operations() {
        return new Iterator<>() {
            private final SplittableRandom r = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
            private long index;
            private int allocated;
            private long launched;
            private long host;
            private long address = 0x7f00_0000_0000L;
            private boolean syncPending;

            @Override
            public boolean hasNext() {
                return allocated < buffers || launched < launches || syncPending;
            }

            @Override
            public Operation next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                if (allocated < buffers) {
                    int b = allocated++;
                    Operation op = Operation.alloc(index++, host, b, sizes[b], address);
                    address += (sizes[b] + 0xFFFFF) & ~0xFFFFFL;
                    host += 1_000;
                    return op;
                }
                host += 3_000 + r.nextInt(5_000);
                if (syncPending) {
                    syncPending = false;
                    return Operation.sync(index++, OperationKind.DEVICE_SYNC, 0, host, -1);
                }
                int s = (int) (launched % streams);
                BufferRange a = whole[r.nextInt(buffers)];
                BufferRange c = whole[r.nextInt(buffers)];
                BufferRange w = whole[r.nextInt(buffers)];
                launched++;
                if (launched % syncEvery == 0) {
                    syncPending = true;
                }
                return Operation.launch(index++, s, host, 4_000 + r.nextInt(16_000), List.of(a, c), List.of(w),
                        "kernel");
            }
        };
    }
}
