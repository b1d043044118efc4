package org.phos.workbench.analysis.core.experiment;

import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.TableDef;
import org.phos.workbench.cr.core.ConsistencyViolation;
import org.phos.workbench.cr.core.MetricsCsvWriter;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.trace.TraceBuffers;
import org.phos.workbench.trace.core.Trace;

/**
 * One consistency violation of a run, located in the trace it ran on: the operation index of a simulated trace is
 * the trace's event index (so the launch is {@code trace.launchIndex(op)}, -1 for an operation that is not a launch),
 * and the buffer id is a {@link TraceBuffers} id (so the allocation is its Alloc event). The first nine columns are
 * {@code violations.csv}'s ({@link MetricsCsvWriter#VIOLATIONS_HEADER}), the last two the location.
 *
 * @param run the run's name (in a comparison of experiments, its label)
 * @param violation the violation as the simulator reported it
 * @param launch the dense launch index of the offending operation, or -1 when it is no launch
 * @param allocatedAt the Alloc event of the violated buffer, or -1 when the trace has no such buffer
 */
public record ViolationRow(String run, ConsistencyViolation violation, int launch, int allocatedAt) {

    /** {@code violations.csv}'s columns, then {@code launch} and {@code allocated_at}. */
    public static final TableDef<ViolationRow> TABLE = new TableDef<>("violations", List.of(
            Column.text("run", ViolationRow::run),
            Column.integer("checkpoint", "", r -> r.violation().checkpoint()),
            Column.text("kind", r -> r.violation().kind().name()),
            Column.integer("buffer", "", r -> r.violation().buffer()),
            Column.integer("op", "event", r -> r.violation().opIndex()),
            Column.integer("begin", "bytes", r -> r.violation().begin()),
            Column.integer("end", "bytes", r -> r.violation().end()),
            Column.integer("time_ns", "ns", r -> r.violation().timeNs()),
            Column.text("detail", r -> r.violation().detail()),
            Column.integer("launch", "launch", ViolationRow::launch),
            Column.integer("allocated_at", "event", ViolationRow::allocatedAt)));

    /** How many leading columns are {@code violations.csv}'s. */
    public static final int CSV_COLUMNS = 9;

    /** The violations of run {@code run}, in the simulator's order, located in {@code trace}. */
    public static List<ViolationRow> of(String run, SimulationMetrics metrics, Trace trace, TraceBuffers buffers) {
        List<ViolationRow> rows = new ArrayList<>();
        for (ConsistencyViolation v : metrics.consistency().violations()) {
            long op = v.opIndex();
            int launch = op >= 0 && op < trace.eventCount() ? trace.launchIndex((int) op) : -1;
            rows.add(new ViolationRow(run, v, launch, buffers.allocationEvent(v.buffer())));
        }
        return rows;
    }
}
