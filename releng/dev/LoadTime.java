import java.nio.file.Path;

import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/**
 * The command line's side of the opening figure (docs/benchmarks.md, "Opening a trace in the workbench"): one cold
 * load of TRACE in a fresh JVM, as {@code workbench info} does it, and the heap the model takes (used heap after a
 * full GC with the model held, minus before). Run by {@code releng/dev/opening-figure.sh}.
 */
public class LoadTime {
    public static void main(String[] args) throws Exception {
        long before = usedAfterGc();
        long t = System.nanoTime();
        Trace trace = TraceReader.read(Path.of(args[0]), null).trace();
        long ms = (System.nanoTime() - t) / 1_000_000;
        long after = usedAfterGc();
        System.out.printf("cli: %s: TraceReader.read %d ms; model heap (used after GC, with - without) %,d MiB; "
                + "columns %,d MiB%n", Path.of(args[0]).getFileName(), ms, (after - before) >> 20,
                trace.heapFootprintBytes() >> 20);
        java.lang.ref.Reference.reachabilityFence(trace);
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int k = 0; k < 4; k++) {
            System.gc();
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }
}
