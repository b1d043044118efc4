package org.phos.workbench.internal.trace.core.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * Measures how fast a synthetic trace loads into the model and how much heap the model takes per launch.
 * <p>
 * Throughput is launch events per second of {@link TraceReader#read} over the whole file (I/O from the page cache,
 * CRC, decompression, decoding, column building), median of K runs after one warm-up load. Memory is given two ways:
 * {@link Trace#heapFootprintBytes()} (sum of column capacities), and the JVM's used heap after GC with the
 * model held minus before, both without the launches' parameter bytes, divided by the launches.
 */
public final class TraceLoadBenchmark {
    private TraceLoadBenchmark() {
    }

    /** Figures of one benchmark. */
    public record LoadFigures(long launches, long events, long fileBytes, double generateSeconds, int runs,
            double[] loadSeconds, double medianLaunchesPerSecond, double[] loadCpuSeconds,
            double medianLaunchesPerCpuSecond, long parameterBytes, long payloadBytes,
            long footprintBytes, double footprintBytesPerLaunch, long heapDeltaBytes, double heapBytesPerLaunch,
            int availableProcessors, double systemLoadAverage, long maxHeapBytes) {

        /** One line per figure, for a person or docs/benchmarks.md. */
        public String summary() {
            return String.format(
                    "launches %,d (events %,d), file %,d bytes, generated in %.1f s%n"
                            + "load: median %.2f M launch events/s over %d runs %s s (wall)%n"
                            + "      median %.2f M launch events per CPU second of the loading thread %s s%n"
                            + "model: footprint %.1f B/launch (column capacities), JVM heap after GC %.1f B/launch"
                            + " (both beyond %,d parameter bytes; payloads %,d bytes included)%n"
                            + "machine: %d processors, load average %.2f, max heap %,d MiB",
                    launches, events, fileBytes, generateSeconds, medianLaunchesPerSecond / 1e6, runs,
                    Arrays.toString(Arrays.stream(loadSeconds).map(s -> Math.round(s * 1000) / 1000.0).toArray()),
                    medianLaunchesPerCpuSecond / 1e6,
                    Arrays.toString(Arrays.stream(loadCpuSeconds).map(s -> Math.round(s * 1000) / 1000.0).toArray()),
                    footprintBytesPerLaunch, heapBytesPerLaunch, parameterBytes, payloadBytes, availableProcessors,
                    systemLoadAverage, maxHeapBytes >> 20);
        }
    }

    /** Generates a synthetic trace of {@code launches} launches (default mix, given seed) into a temp file. */
    public static Path generate(long launches, long seed, IProgressMonitor monitor) throws IOException {
        Path file = Files.createTempFile("phos-bench-" + launches + "-", ".phos");
        SyntheticTraceGenerator.generate(file, SyntheticTraceOptions.defaults(launches).withSeed(seed), monitor);
        return file;
    }

    /** Generates a trace of {@code launches} launches, measures it with {@code runs} loads, deletes the file. */
    public static LoadFigures run(long launches, int runs) throws IOException {
        long t0 = System.nanoTime();
        Path file = generate(launches, 1, new NullProgressMonitor());
        double generateSeconds = (System.nanoTime() - t0) / 1e9;
        try {
            return measure(file, runs, generateSeconds);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Measures loading {@code file}: one warm-up load, {@code runs} timed loads (each after a full GC, outside the
     * timing), then the heap of one model.
     */
    public static LoadFigures measure(Path file, int runs, double generateSeconds) throws IOException {
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be >= 1: " + runs);
        }
        TraceReader.read(file, null); // warm-up (JIT, page cache)
        double[] seconds = new double[runs];
        double[] cpu = new double[runs];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long launches = 0;
        long events = 0;
        for (int k = 0; k < runs; k++) {
            // each load starts from a collected heap, as a workbench loading one trace does, instead of paying for
            // evacuating the previous run's model (garbage by now) inside its own timing
            System.gc();
            long c = threads.getCurrentThreadCpuTime();
            long t = System.nanoTime();
            TraceLoadResult r = TraceReader.read(file, null);
            seconds[k] = (System.nanoTime() - t) / 1e9;
            cpu[k] = (threads.getCurrentThreadCpuTime() - c) / 1e9;
            launches = r.trace().launchCount();
            events = r.trace().eventCount();
        }
        double median = median(seconds);
        double medianCpu = median(cpu);

        long before = usedAfterGc();
        Trace trace = TraceReader.read(file, null).trace();
        long after = usedAfterGc();
        long heapDelta = after - before;
        long footprint = trace.heapFootprintBytes();
        long params = trace.parameterBytes();
        long payloads = trace.payloadBytes();
        double perLaunchFootprint = launches == 0 ? 0 : (double) (footprint - params) / launches;
        double perLaunchHeap = launches == 0 ? 0 : (double) (heapDelta - params) / launches;
        Reference.reachabilityFence(trace);
        return new LoadFigures(launches, events, Files.size(file), generateSeconds, runs, seconds,
                launches / median, cpu, launches / medianCpu, params, payloads, footprint, perLaunchFootprint, heapDelta, perLaunchHeap,
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), Runtime.getRuntime().maxMemory());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static final class Reference {
        static void reachabilityFence(Object o) {
            java.lang.ref.Reference.reachabilityFence(o);
        }
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int k = 0; k < 4; k++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }

    /** Runs the benchmark for each launch count given (default 1,000,000) with 5 runs each. */
    public static void main(String[] args) throws IOException {
        String[] counts = args.length == 0 ? new String[] { "1000000" } : args;
        for (String c : counts) {
            System.out.println(run(Long.parseLong(c), 5).summary());
        }
    }
}
