package org.phos.workbench.internal.trace.core.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.phos.workbench.trace.core.replay.LiveAllocations;

/**
 * Measures "which live allocation contains address A" ({@link LiveAllocations#find}) on one thread.
 * <p>
 * Set-up: {@code liveAllocations} allocations with log-uniform sizes (256 B .. 64 MiB, 256-byte aligned) separated by
 * gaps of 256 B .. 1 MiB, from a typical device base address; they are inserted in random order after a churn phase
 * (allocate and free) so the blocks are as unevenly filled as after a real replay. Queries: a fixed pool of random
 * addresses, half inside an allocation (any byte of it) and half outside (in a gap, below or above all). Each run
 * times {@code lookupsPerRun} lookups; the result is the median over the runs, after warm-up runs that are not
 * counted, per second of wall time and per second of the measuring thread's CPU time (the stable figure on a shared,
 * busy machine). The sum of the ids found is checked against a reference pass so the work cannot be optimised away.
 * Usage: {@code AddressLookupBenchmark [LIVE_ALLOCATIONS [LOOKUPS_PER_RUN [RUNS [WARMUP_RUNS]]]]}.
 */
public final class AddressLookupBenchmark {

    /** Figure of one benchmark: the median and all runs, in lookups per second. */
    public record Result(int liveAllocations, long lookupsPerRun, int runs, double medianLookupsPerSecond,
            double[] runLookupsPerSecond, double hitFraction, double medianLookupsPerCpuSecond,
            double[] runLookupsPerCpuSecond) {

        @Override
        public String toString() {
            return String.format("address lookups: %.1f million/s wall, %.1f million/CPU-s (median of %d runs of %d "
                    + "lookups, %d live allocations, %.0f%% hits)", medianLookupsPerSecond / 1e6,
                    medianLookupsPerCpuSecond / 1e6, runs, lookupsPerRun, liveAllocations, hitFraction * 100);
        }
    }

    private static final long DEVICE_BASE = 0x7f3a_0000_0000L;
    private static final int QUERY_POOL = 1 << 20;

    private AddressLookupBenchmark() {
    }

    /** Runs the benchmark with the default shape: 20 million lookups per run, 7 runs, 3 warm-up runs, seed 42. */
    public static Result run(int liveAllocations) {
        return run(liveAllocations, 20_000_000L, 7, 3, 42L);
    }

    /**
     * Runs the benchmark.
     *
     * @param liveAllocations number of live allocations to search, >= 1
     * @param lookupsPerRun lookups timed per run, >= 1
     * @param runs timed runs (the median is reported), >= 1
     * @param warmupRuns untimed runs first (JIT), >= 0
     * @param seed random seed for the allocations and the query addresses
     */
    public static Result run(int liveAllocations, long lookupsPerRun, int runs, int warmupRuns, long seed) {
        if (liveAllocations < 1 || lookupsPerRun < 1 || runs < 1 || warmupRuns < 0) {
            throw new IllegalArgumentException("liveAllocations, lookupsPerRun and runs must be >= 1 and warmupRuns "
                    + ">= 0, got " + liveAllocations + ", " + lookupsPerRun + ", " + runs + ", " + warmupRuns);
        }
        SplittableRandom random = new SplittableRandom(seed);
        long[] bases = new long[liveAllocations];
        long[] sizes = new long[liveAllocations];
        long address = DEVICE_BASE;
        for (int i = 0; i < liveAllocations; i++) {
            address += 256L * (1 + random.nextInt(4096)); // gap 256 B .. 1 MiB
            long size = Math.max(256L, (long) Math.pow(2, 8 + random.nextDouble() * 18) & ~255L);
            bases[i] = address;
            sizes[i] = size;
            address += size;
        }
        LiveAllocations live = build(bases, sizes, random);

        int[] pool = new int[QUERY_POOL];
        long[] queries = new long[QUERY_POOL];
        int hits = 0;
        for (int q = 0; q < QUERY_POOL; q++) {
            int a = random.nextInt(liveAllocations);
            if ((q & 1) == 0) {
                queries[q] = bases[a] + random.nextLong(sizes[a]);
                hits++;
            } else if (q % 64 == 1) {
                queries[q] = random.nextBoolean() ? random.nextLong(DEVICE_BASE) : address + random.nextLong(1 << 30);
            } else {
                long gapStart = bases[a] + sizes[a];
                long gapEnd = a + 1 < liveAllocations ? bases[a + 1] : gapStart + 4096;
                queries[q] = gapStart + random.nextLong(gapEnd - gapStart);
            }
            pool[q] = a;
        }
        long expected = 0;
        for (long query : queries) {
            expected += live.find(query);
        }
        long rounds = lookupsPerRun / QUERY_POOL;
        int rest = (int) (lookupsPerRun % QUERY_POOL);
        long expectedPerRun = expected * rounds + partialSum(live, queries, rest);

        for (int w = 0; w < warmupRuns; w++) {
            timedRun(live, queries, rounds, rest, expectedPerRun);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpuTime = threads.isCurrentThreadCpuTimeSupported();
        double[] perSecond = new double[runs];
        double[] perCpuSecond = new double[runs];
        for (int r = 0; r < runs; r++) {
            long cpuStart = cpuTime ? threads.getCurrentThreadCpuTime() : 0;
            long ns = timedRun(live, queries, rounds, rest, expectedPerRun);
            long cpuNs = cpuTime ? threads.getCurrentThreadCpuTime() - cpuStart : ns;
            perSecond[r] = lookupsPerRun * 1e9 / Math.max(1, ns);
            perCpuSecond[r] = lookupsPerRun * 1e9 / Math.max(1, cpuNs);
        }
        return new Result(liveAllocations, lookupsPerRun, runs, median(perSecond), perSecond,
                hits / (double) QUERY_POOL, median(perCpuSecond), perCpuSecond);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * Runs the benchmark from the command line and prints the figures.
     *
     * @param args optional: live allocations (default 100000), lookups per run, runs, warm-up runs
     */
    public static void main(String[] args) {
        int live = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        long lookups = args.length > 1 ? Long.parseLong(args[1]) : 20_000_000L;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Result r = run(live, lookups, runs, warmup, 42L);
        System.out.println(r);
        System.out.println("runs, M/s wall:  " + Arrays.toString(Arrays.stream(r.runLookupsPerSecond())
                .map(v -> Math.round(v / 1e4) / 100.0).toArray()));
        System.out.println("runs, M/CPU-s:   " + Arrays.toString(Arrays.stream(r.runLookupsPerCpuSecond())
                .map(v -> Math.round(v / 1e4) / 100.0).toArray()));
    }

    /** Inserts after a churn phase (half of the allocations come and go once) in random order. */
    private static LiveAllocations build(long[] bases, long[] sizes, SplittableRandom random) {
        int n = bases.length;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        LiveAllocations live = new LiveAllocations();
        for (int i = 0; i < n; i++) {
            live.add(bases[order[i]], sizes[order[i]], i);
        }
        for (int i = 0; i < n; i += 2) {
            live.remove(bases[order[i]]);
        }
        for (int i = 0; i < n; i += 2) {
            live.add(bases[order[i]], sizes[order[i]], n + (long) i);
        }
        return live;
    }

    private static long partialSum(LiveAllocations live, long[] queries, int count) {
        long sum = 0;
        for (int q = 0; q < count; q++) {
            sum += live.find(queries[q]);
        }
        return sum;
    }

    private static long timedRun(LiveAllocations live, long[] queries, long rounds, int rest, long expected) {
        long start = System.nanoTime();
        long sum = 0;
        for (long r = 0; r < rounds; r++) {
            sum += partialSum(live, queries, queries.length);
        }
        sum += partialSum(live, queries, rest);
        long ns = System.nanoTime() - start;
        if (sum != expected) {
            throw new IllegalStateException("lookup results changed between runs: " + sum + " != " + expected);
        }
        return ns;
    }
}
