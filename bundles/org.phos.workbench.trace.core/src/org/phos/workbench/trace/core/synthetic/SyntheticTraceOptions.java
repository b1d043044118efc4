package org.phos.workbench.trace.core.synthetic;

/**
 * What synthetic trace to generate. Same options, same file, byte for byte.
 *
 * @param launches        kernel launch events to produce (graph nodes included), up to 10 million and beyond
 * @param liveAllocations number of allocations the process keeps live in its steady state
 * @param streams         streams besides the legacy default stream
 * @param threads         host threads issuing calls
 * @param functions       distinct kernel functions
 * @param graphEvery      a graph launch after about every this many launches (0: none)
 * @param payloadLimit    largest host-to-device copy whose bytes are captured
 * @param gpuTiming       whether launches and copies carry GPU start/end times
 * @param compressEvents  zstd-compress event batches
 * @param seed            random seed
 * @param observedEvery   write synthetic observed accesses (ground truth, tool {@value #OBSERVED_TOOL}) for every
 *                        this many launches, 1 for all of them; 0 for none. They come from a random stream of their
 *                        own, so the events are the same with or without them.
 */
public record SyntheticTraceOptions(long launches, int liveAllocations, int streams, int threads, int functions,
        int graphEvery, int payloadLimit, boolean gpuTiming, boolean compressEvents, long seed, int observedEvery) {

    /** The tool name synthetic observed accesses carry. */
    public static final String OBSERVED_TOOL = "synthetic";

    /** Options without observed accesses. */
    public SyntheticTraceOptions(long launches, int liveAllocations, int streams, int threads, int functions,
            int graphEvery, int payloadLimit, boolean gpuTiming, boolean compressEvents, long seed) {
        this(launches, liveAllocations, streams, threads, functions, graphEvery, payloadLimit, gpuTiming,
                compressEvents, seed, 0);
    }

    public SyntheticTraceOptions {
        if (launches < 0) {
            throw new IllegalArgumentException("launches must be >= 0: " + launches);
        }
        if (liveAllocations < 1) {
            throw new IllegalArgumentException("liveAllocations must be >= 1: " + liveAllocations);
        }
        if (streams < 1 || streams > 1024) {
            throw new IllegalArgumentException("streams must be in 1..1024: " + streams);
        }
        if (threads < 1 || threads > 1024) {
            throw new IllegalArgumentException("threads must be in 1..1024: " + threads);
        }
        if (functions < 1 || functions > 100_000) {
            throw new IllegalArgumentException("functions must be in 1..100000: " + functions);
        }
        if (graphEvery < 0) {
            throw new IllegalArgumentException("graphEvery must be >= 0: " + graphEvery);
        }
        if (payloadLimit < 0 || payloadLimit > (16 << 20)) {
            throw new IllegalArgumentException("payloadLimit must be in 0..16 MiB: " + payloadLimit);
        }
        if (observedEvery < 0) {
            throw new IllegalArgumentException("observedEvery must be >= 0: " + observedEvery);
        }
    }

    /** A realistic default mix: 2000 live allocations, 4 streams, 2 threads, 40 functions, seed 1. */
    public static SyntheticTraceOptions defaults(long launches) {
        return new SyntheticTraceOptions(launches, 2000, 4, 2, 40, 500, 4096, true, false, 1);
    }

    public SyntheticTraceOptions withSeed(long s) {
        return new SyntheticTraceOptions(launches, liveAllocations, streams, threads, functions, graphEvery,
                payloadLimit, gpuTiming, compressEvents, s, observedEvery);
    }

    public SyntheticTraceOptions withLiveAllocations(int n) {
        return new SyntheticTraceOptions(launches, n, streams, threads, functions, graphEvery, payloadLimit,
                gpuTiming, compressEvents, seed, observedEvery);
    }

    public SyntheticTraceOptions withStreams(int n) {
        return new SyntheticTraceOptions(launches, liveAllocations, n, threads, functions, graphEvery, payloadLimit,
                gpuTiming, compressEvents, seed, observedEvery);
    }

    public SyntheticTraceOptions withCompressEvents(boolean c) {
        return new SyntheticTraceOptions(launches, liveAllocations, streams, threads, functions, graphEvery,
                payloadLimit, gpuTiming, c, seed, observedEvery);
    }

    public SyntheticTraceOptions withObservedEvery(int n) {
        return new SyntheticTraceOptions(launches, liveAllocations, streams, threads, functions, graphEvery,
                payloadLimit, gpuTiming, compressEvents, seed, n);
    }

    public SyntheticTraceOptions withGpuTiming(boolean t) {
        return new SyntheticTraceOptions(launches, liveAllocations, streams, threads, functions, graphEvery,
                payloadLimit, t, compressEvents, seed, observedEvery);
    }
}
