package org.phos.workbench.trace.core.attach;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.trace.core.format.Chunks;
import org.phos.workbench.internal.trace.core.format.StreamChunkDecoder;
import org.phos.workbench.internal.trace.core.format.WireFormatException;
import org.phos.workbench.internal.trace.core.model.EventSink;
import org.phos.workbench.internal.trace.core.model.EventWatcher;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.StreamGap;
import org.phos.workbench.trace.core.StreamStart;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * Rolling figures of a live stream, fed chunk by chunk ({@link #accept}) on the reading thread and read as a
 * {@link Snapshot} from any other: launches per kernel, GPU memory live (device, managed and pool allocations, the
 * live ones the stream started with included), events received and missed. Memory stays bounded by the number of
 * kernels and live allocations, not by the events.
 */
public final class LiveStatistics {
    /** A kernel and how often it was launched. */
    public record KernelCount(String name, long launches) {
    }

    /**
     * The figures at one moment.
     *
     * @param header        the process's TraceHeader (null before it arrived)
     * @param start         where the stream joined (null before it arrived)
     * @param events        events received
     * @param launches      launches received
     * @param missed        events the stream did not carry because this reader fell behind
     * @param liveBytes     device memory live (device, managed, async/pool, VMM, pitched allocations)
     * @param liveAllocations allocations live (any kind)
     * @param topKernels    the most launched kernels, most first
     * @param end           TraceEnd, when the process closed its trace
     */
    public record Snapshot(@Nullable TraceHeader header, @Nullable StreamStart start, long events, long launches,
            long missed, long liveBytes, long liveAllocations, List<KernelCount> topKernels, @Nullable TraceEnd end) {
    }

    private final StreamChunkDecoder decoder = new StreamChunkDecoder();
    private final Map<Integer, String> functionNames = new HashMap<>();
    private final Map<Integer, long[]> launchesByFunction = new HashMap<>();
    private final Map<Long, long[]> live = new HashMap<>();   // address -> {size, kind}
    private @Nullable TraceHeader header;
    private @Nullable StreamStart start;
    private @Nullable TraceEnd end;
    private long launches, missed, liveBytes;
    private final int top;

    /** With the {@code top} most launched kernels in each snapshot. */
    public LiveStatistics(int top) {
        this.top = top;
    }

    private final EventSink sink = new EventWatcher() {
        @Override
        public void addAlloc(long host, int thr, long address, long size, int kindCode, long stream) {
            long[] old = live.put(address, new long[] { size, kindCode });
            if (old != null && onDevice((int) old[1])) {
                liveBytes -= old[0];
            }
            if (onDevice(kindCode)) {
                liveBytes += size;
            }
        }

        @Override
        public void addFree(long host, int thr, long address, int kindCode, long stream) {
            long[] old = live.remove(address);
            if (old != null && onDevice((int) old[1])) {
                liveBytes -= old[0];
            }
        }



        @Override
        public void addLaunch(long host, int thr, int function, int gx, int gy, int gz, int bx, int by, int bz,
                int shm, long stream, byte[] buf, int paramOffset, int paramLength, long gpuStart, long gpuEnd,
                int kindCode, long graphLaunch) {
            launches++;
            launchesByFunction.computeIfAbsent(function, f -> new long[1])[0]++;
        }





    };

    private static boolean onDevice(int kindCode) {
        return kindCode != AllocKind.HOST_PINNED.code();
    }

    /** Takes one chunk of the stream. A chunk that does not decode fails with its type named. */
    public synchronized void accept(LiveStream.StreamChunk c) throws AttachException {
        byte[] p = c.payload();
        try {
            switch (c.type()) {
                case Chunks.TRACE_HEADER -> header = decoder.header(p);
                case Chunks.STREAM_START -> start = decoder.streamStart(p);
                case Chunks.FUNCTION -> {
                    FunctionInfo f = decoder.function(p);
                    functionNames.putIfAbsent(f.id(), f.displayName());
                }
                case Chunks.EVENT_BATCH -> decoder.events(p, sink);
                case Chunks.EVENT_GAP -> {
                    StreamGap g = decoder.gap(p);
                    if (g.reason() != StreamGap.Reason.ATTACHED_LATE) {
                        missed += g.count();
                    }
                }
                case Chunks.TRACE_END -> end = decoder.end(p);
                default -> {
                    // modules, observed accesses, newer chunk types: not in these figures
                }
            }
        } catch (WireFormatException | RuntimeException e) {
            throw new AttachException("a " + Chunks.typeName(c.type()) + " chunk of the stream does not decode: "
                    + e.getMessage(), e);
        }
    }

    public synchronized Snapshot snapshot() {
        List<KernelCount> kernels = new ArrayList<>();
        launchesByFunction.forEach((id, n) -> kernels.add(new KernelCount(
                functionNames.getOrDefault(id, "function " + id), n[0])));
        kernels.sort(Comparator.comparingLong(KernelCount::launches).reversed().thenComparing(KernelCount::name));
        return new Snapshot(header, start, decoder.held(), launches, missed, liveBytes, live.size(),
                List.copyOf(kernels.subList(0, Math.min(top, kernels.size()))), end);
    }
}
