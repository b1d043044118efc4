package org.phos.workbench.analysis.core.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.junit.jupiter.api.Test;
import org.phos.workbench.analysis.core.cr.EngineAccessSource;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.analysis.core.table.TableRenderer;
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.MetricsCsvWriter;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.cr.core.trace.ObservedLaunchAccesses;
import org.phos.workbench.cr.core.trace.TraceBuffers;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/**
 * The C/R views' tables on runs of a sample trace: the metrics table's CSV is what {@link MetricsCsvWriter} writes
 * (simulate's metrics.csv), the violations table's first columns are violations.csv's and its location columns
 * point at the launch and the allocation of each violation, the comparison table's cells are the metrics' figures.
 * The configuration (cupy-ops, on-demand restore at launch 5 with the phos engine's sets) has violations.
 */
class ExperimentTablesTest {

    private static Trace load(String name) throws IOException {
        Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
        assumeTrue(Files.isRegularFile(file), file + " missing (set -Dphos.repo to the repository root)");
        return TraceReader.read(file, null).trace();
    }

    private static String csv(Table<?> table) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TableRenderer.CSV.render(table, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Map<String, SimulationMetrics> runs(Trace trace) {
        ObservedLaunchAccesses observed = new ObservedLaunchAccesses(trace);
        TraceWorkload workload = new TraceWorkload(trace, "cupy-ops.phos", new EngineAccessSource(trace,
                EngineRegistry.create("phos", trace), new NullProgressMonitor()), observed, true);
        Map<String, SimulationMetrics> runs = new LinkedHashMap<>();
        for (String spec : List.of("soft-cow", "on-demand-restore")) {
            runs.put(spec, Simulator.run(workload, MachineModel.h100(), CrPolicies.parse(spec + ":at=launch:5"),
                    TimelineSink.NONE, true, null));
        }
        return runs;
    }

    @Test
    void tablesEqualSimulatesFilesAndLocateViolations() throws IOException {
        Trace trace = load("cupy-ops.phos");
        Map<String, SimulationMetrics> runs = runs(trace);

        StringWriter metrics = new StringWriter();
        MetricsCsvWriter.write(metrics, runs);
        assertEquals(metrics.toString(), csv(MetricRow.of(runs)));

        StringWriter violations = new StringWriter();
        MetricsCsvWriter.writeViolations(violations, runs);
        TraceBuffers buffers = TraceBuffers.of(trace);
        List<ViolationRow> rows = new java.util.ArrayList<>();
        runs.forEach((run, m) -> rows.addAll(ViolationRow.of(run, m, trace, buffers)));
        assertFalse(rows.isEmpty(), "on-demand restore with phos's sets misses accesses on this trace");
        List<String> ours = csv(Table.of(ViolationRow.TABLE, rows)).lines()
                .map(l -> String.join(",", List.of(l.split(",", -1)).subList(0, ViolationRow.CSV_COLUMNS))).toList();
        assertEquals(violations.toString().lines().toList(), ours);

        // each violation points at its operation's launch and at its buffer's Alloc event, as the workload's pass
        Map<Integer, Integer> allocOfBuffer = new LinkedHashMap<>();
        Iterator<Operation> ops = new TraceWorkload(trace, "t", new ObservedLaunchAccesses(trace), null, false)
                .operations();
        while (ops.hasNext()) {
            Operation op = ops.next();
            if (op.kind() == OperationKind.ALLOC) {
                allocOfBuffer.put(op.buffer(), (int) op.index());
            }
        }
        for (ViolationRow r : rows) {
            int op = (int) r.violation().opIndex();
            assertEquals(EventKind.LAUNCH, trace.kind(op));
            assertEquals(op, trace.launchEvent(r.launch()));
            assertEquals(allocOfBuffer.get(r.violation().buffer()), r.allocatedAt());
            assertEquals(EventKind.ALLOC, trace.kind(r.allocatedAt()));
        }

        // the comparison table's cells are the metrics' figures (metrics.csv's values)
        Table<ComparisonRow> comparison = ComparisonRow.table(runs);
        for (ComparisonRow row : comparison.rows()) {
            Map<String, String> f = MetricsCsvWriter.flatten(row.metrics());
            for (String h : List.of("stall_total_ns", "stall_longest_ns", "stall_count", "cow_count", "cow_bytes")) {
                assertEquals(f.get(h), comparison.def().column(h).format(row), row.run() + " " + h);
            }
            row.metrics().bytesPerLane().forEach((lane, bytes) -> assertEquals(Long.toString(bytes),
                    comparison.def().column(ComparisonRow.laneHeader(lane)).format(row), lane));
        }
        assertEquals("", comparison.def().column("completion_ns").format(comparison.rows().get(1)),
                "on-demand restore never reaches its full state here: no completion");
        assertTrue(comparison.def().headers().contains("bytes_c_r_restore_h2d"));

        List<ConsistencyVerdict> verdicts = runs.entrySet().stream()
                .map(e -> ConsistencyVerdict.of(e.getKey(), e.getValue())).toList();
        assertEquals("consistent", verdicts.get(0).verdict());
        assertEquals("INCONSISTENT", verdicts.get(1).verdict());
        assertTrue(verdicts.get(1).sentence().startsWith("on-demand-restore: INCONSISTENT: 3 violation(s)"),
                verdicts.get(1).sentence());
    }
}
