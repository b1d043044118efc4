package org.phos.workbench.cr.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metrics as rows of {@code run,metric,value}: one row per figure, several runs (policies, engines) in one file for
 * comparison tables.
 */
public final class MetricsCsvWriter {
    public static final String HEADER = "run,metric,value";

    private MetricsCsvWriter() {
    }

    /** The metrics as ordered (name, value) pairs; times in ns, sizes in bytes. */
    public static Map<String, String> flatten(SimulationMetrics m) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("policy", m.policy());
        f.put("machine", m.machine());
        f.put("operations", Long.toString(m.operations()));
        f.put("launches", Long.toString(m.launches()));
        f.put("app_end_ns", Long.toString(m.appEndNs()));
        f.put("baseline_end_ns", Long.toString(m.baselineEndNs()));
        f.put("end_ns", Long.toString(m.endNs()));
        f.put("slowdown", Double.isNaN(m.slowdown()) ? "" : Double.toString(m.slowdown()));
        f.put("stall_total_ns", Long.toString(m.stallTotalNs()));
        f.put("stall_longest_ns", Long.toString(m.stallLongestNs()));
        f.put("stall_count", Long.toString(m.stallCount()));
        for (StallCause c : StallCause.values()) {
            Long v = m.stallByCause().get(c);
            if (v != null) {
                f.put("stall_ns." + c.name().toLowerCase(java.util.Locale.ROOT), Long.toString(v));
            }
        }
        f.put("checkpoints", Integer.toString(m.checkpoints().size()));
        f.put("checkpoint_completion_ns", Long.toString(m.checkpointCompletionNs()));
        List<CheckpointSummary> cs = m.checkpoints();
        for (CheckpointSummary c : cs) {
            String p = "checkpoint." + c.number() + ".";
            f.put(p + "requested_ns", Long.toString(c.requestedNs()));
            f.put(p + "drained_ns", Long.toString(c.drainedNs()));
            f.put(p + "completed_ns", Long.toString(c.completedNs()));
            f.put(p + "snapshot_bytes", Long.toString(c.snapshotBytes()));
            f.put(p + "cow_count", Long.toString(c.cowCount()));
            f.put(p + "cow_bytes", Long.toString(c.cowBytes()));
            f.put(p + "fallback_count", Long.toString(c.fallbackCount()));
            f.put(p + "fallback_bytes", Long.toString(c.fallbackBytes()));
            f.put(p + "dirty_bytes", Long.toString(c.dirtyBytes()));
            f.put(p + "recopy_bytes", Long.toString(c.recopyBytes()));
            f.put(p + "recompute_ns", Long.toString(c.recomputeNs()));
            f.put(p + "peak_budget_bytes", Long.toString(c.peakBudgetBytes()));
        }
        f.put("restore_first_kernel_ns", Long.toString(m.restoreFirstKernelNs()));
        f.put("restore_full_state_ns", Long.toString(m.restoreFullStateNs()));
        f.put("bytes_never_restored", Long.toString(m.bytesNeverRestored()));
        m.bytesPerLane().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> f.put("bytes." + e.getKey(), Long.toString(e.getValue())));
        f.put("cow_count", Long.toString(m.cowCount()));
        f.put("cow_bytes", Long.toString(m.cowBytes()));
        f.put("consistency_checked", Boolean.toString(m.consistency().checked()));
        f.put("consistency_observed_launches", Long.toString(m.consistency().observedLaunches()));
        f.put("consistency_violations", Integer.toString(m.consistency().violations().size()));
        f.put("consistency_affected_bytes", Long.toString(m.consistency().affectedBytes()));
        return f;
    }

    /** Writes the header and one block of rows per run. */
    public static void write(Writer out, Map<String, SimulationMetrics> runs) {
        try {
            out.append(HEADER).append('\n');
            for (Map.Entry<String, SimulationMetrics> run : runs.entrySet()) {
                for (Map.Entry<String, String> e : flatten(run.getValue()).entrySet()) {
                    out.append(quote(run.getKey())).append(',').append(quote(e.getKey())).append(',')
                            .append(quote(e.getValue())).append('\n');
                }
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing metrics CSV failed", e);
        }
    }

    public static final String VIOLATIONS_HEADER = "run,checkpoint,kind,buffer,op,begin,end,time_ns,detail";

    /** One row per consistency violation of each run. */
    public static void writeViolations(Writer out, Map<String, SimulationMetrics> runs) {
        try {
            out.append(VIOLATIONS_HEADER).append('\n');
            for (Map.Entry<String, SimulationMetrics> run : runs.entrySet()) {
                for (ConsistencyViolation v : run.getValue().consistency().violations()) {
                    out.append(quote(run.getKey())).append(',').append(Integer.toString(v.checkpoint())).append(',')
                            .append(v.kind().name()).append(',').append(Integer.toString(v.buffer())).append(',')
                            .append(Long.toString(v.opIndex())).append(',').append(Long.toString(v.begin()))
                            .append(',').append(Long.toString(v.end())).append(',').append(Long.toString(v.timeNs()))
                            .append(',').append(quote(v.detail())).append('\n');
                }
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing violations CSV failed", e);
        }
    }

    private static String quote(String s) {
        return s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 ? s
                : '"' + s.replace("\"", "\"\"") + '"';
    }
}
