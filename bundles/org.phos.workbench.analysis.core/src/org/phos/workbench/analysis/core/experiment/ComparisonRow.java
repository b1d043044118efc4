package org.phos.workbench.analysis.core.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.analysis.core.table.TableDef;
import org.phos.workbench.cr.charts.ComparisonMetric;
import org.phos.workbench.cr.core.SimulationMetrics;

/**
 * One run in the comparison of runs side by side: the figures that decide between policies (the comparison chart's
 * panels, bytes by lane, copy-on-write) as numbers, each equal to its figure in {@code metrics.csv}. The lanes are
 * those any of the compared runs moved bytes on, so the columns depend on the runs: {@link #table} defines them.
 *
 * @param run the run's name (in a comparison of experiments, its label)
 * @param metrics its figures
 */
public record ComparisonRow(String run, SimulationMetrics metrics) {

    /** Prefix of the bytes-by-lane columns; the lane's name follows, lower case, other characters as {@code _}. */
    public static final String LANE_PREFIX = "bytes_";

    /**
     * The runs side by side: {@code run}, {@code stall_total_ns}, {@code stall_longest_ns}, {@code stall_count},
     * {@code completion_ns} (checkpoint completion, or for a restore the full state; empty when neither),
     * {@code slowdown_pct}, {@code cr_bytes} (bytes of the C/R lanes), one {@code bytes_LANE} column per lane (in
     * name order), {@code cow_count}, {@code cow_bytes}.
     */
    public static Table<ComparisonRow> table(Map<String, SimulationMetrics> runs) {
        TreeSet<String> lanes = new TreeSet<>();
        runs.values().forEach(m -> lanes.addAll(m.bytesPerLane().keySet()));
        List<Column<ComparisonRow>> columns = new ArrayList<>();
        columns.add(Column.text("run", ComparisonRow::run));
        columns.add(Column.integer("stall_total_ns", "ns", r -> r.metrics().stallTotalNs()));
        columns.add(Column.integer("stall_longest_ns", "ns", r -> r.metrics().stallLongestNs()));
        columns.add(Column.integer("stall_count", "", r -> r.metrics().stallCount()));
        columns.add(new Column<>("completion_ns", "ns", Column.Kind.INTEGER, r -> {
            double c = ComparisonMetric.COMPLETION.value(r.metrics());
            return Double.isNaN(c) ? null : (long) c;
        }));
        columns.add(new Column<>("slowdown_pct", "%", Column.Kind.DECIMAL, r -> {
            double s = r.metrics().slowdown();
            return Double.isNaN(s) ? null : 100 * s;
        }));
        columns.add(Column.integer("cr_bytes", "bytes", r -> (long) ComparisonMetric.CR_BYTES.value(r.metrics())));
        List<String> seen = new ArrayList<>();
        for (String lane : lanes) {
            String header = laneHeader(lane);
            for (int n = 2; seen.contains(header); n++) {
                header = laneHeader(lane) + "_" + n;
            }
            seen.add(header);
            columns.add(new Column<>(header, "bytes", Column.Kind.INTEGER,
                    r -> r.metrics().bytesPerLane().getOrDefault(lane, 0L)));
        }
        columns.add(Column.integer("cow_count", "", r -> r.metrics().cowCount()));
        columns.add(Column.integer("cow_bytes", "bytes", r -> r.metrics().cowBytes()));
        List<ComparisonRow> rows = new ArrayList<>();
        runs.forEach((run, m) -> rows.add(new ComparisonRow(run, m)));
        return Table.of(new TableDef<>("runs", columns), rows);
    }

    /** The column header of lane {@code lane}: {@code C/R CoW D2D} is {@code bytes_c_r_cow_d2d}. */
    public static String laneHeader(String lane) {
        String slug = lane.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        return LANE_PREFIX + (slug.isEmpty() ? "lane" : slug);
    }
}
