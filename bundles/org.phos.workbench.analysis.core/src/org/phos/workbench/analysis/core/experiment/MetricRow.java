package org.phos.workbench.analysis.core.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.analysis.core.table.TableDef;
import org.phos.workbench.cr.core.MetricsCsvWriter;
import org.phos.workbench.cr.core.SimulationMetrics;

/**
 * One figure of one run, as {@code simulate} writes it into {@code metrics.csv}: the table of every metric of every
 * run (the Metrics view), whose CSV equals the command's file for the same runs ({@link MetricsCsvWriter} names and
 * formats the figures; times in ns, sizes in bytes, the slowdown as a fraction).
 *
 * @param run the run's name (in a comparison of experiments, its label)
 * @param metric the figure's name ({@code stall_total_ns}, {@code checkpoint.0.cow_bytes}, ...)
 * @param value the figure as the CSV writes it (empty where it does not apply)
 */
public record MetricRow(String run, String metric, String value) {

    /** The columns: {@code run,metric,value}, as {@link MetricsCsvWriter#HEADER}. */
    public static final TableDef<MetricRow> TABLE = new TableDef<>("metrics", List.of(
            Column.text("run", MetricRow::run),
            Column.text("metric", MetricRow::metric),
            Column.text("value", MetricRow::value)));

    /** Every figure of every run, runs in the map's order and figures in {@link MetricsCsvWriter#flatten}'s. */
    public static Table<MetricRow> of(Map<String, SimulationMetrics> runs) {
        List<MetricRow> rows = new ArrayList<>();
        runs.forEach((run, m) -> MetricsCsvWriter.flatten(m).forEach((k, v) -> rows.add(new MetricRow(run, k, v))));
        return Table.of(TABLE, rows);
    }
}
