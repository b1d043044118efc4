package org.phos.workbench.analysis.core.experiment;

import java.util.List;
import java.util.Locale;

import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.TableDef;
import org.phos.workbench.cr.core.ConsistencyReport;
import org.phos.workbench.cr.core.SimulationMetrics;

/**
 * The consistency verdict of one run, as {@code simulate} states it after its metrics: consistent (checked, no
 * violation), inconsistent (violations), or not checked (no launch carried observed accesses).
 *
 * @param run the run's name (in a comparison of experiments, its label)
 * @param report the run's consistency check
 */
public record ConsistencyVerdict(String run, ConsistencyReport report) {

    /** The verdicts' columns. */
    public static final TableDef<ConsistencyVerdict> TABLE = new TableDef<>("verdicts", List.of(
            Column.text("run", ConsistencyVerdict::run),
            Column.text("verdict", ConsistencyVerdict::verdict),
            Column.integer("violations", "", v -> v.report().violations().size()),
            Column.integer("affected_bytes", "bytes", v -> v.report().affectedBytes()),
            Column.integer("observed_launches", "launches", v -> v.report().observedLaunches())));

    /** The verdict of {@code metrics}' run. */
    public static ConsistencyVerdict of(String run, SimulationMetrics metrics) {
        return new ConsistencyVerdict(run, metrics.consistency());
    }

    /** {@code consistent}, {@code INCONSISTENT} or {@code not checked}, in {@code simulate}'s words. */
    public String verdict() {
        if (!report.checked()) {
            return "not checked";
        }
        return report.violations().isEmpty() ? "consistent" : "INCONSISTENT";
    }

    /** Whether the image is known to be wrong. */
    public boolean inconsistent() {
        return report.checked() && !report.violations().isEmpty();
    }

    /** One sentence for a reader, the substance of {@code simulate}'s consistency line. */
    public String sentence() {
        ConsistencyReport c = report;
        if (!c.checked()) {
            return run + ": not checked (no launch carries observed accesses; record the trace with instrumentation "
                    + "to check the speculated sets)";
        }
        if (c.violations().isEmpty()) {
            return String.format(Locale.ROOT, "%s: consistent: 0 violations (%d launches with observed accesses)", run,
                    c.observedLaunches());
        }
        return String.format(Locale.ROOT, "%s: INCONSISTENT: %d violation(s), %,d bytes of buffers affected (%d "
                + "launches with observed accesses)", run, c.violations().size(), c.affectedBytes(),
                c.observedLaunches());
    }
}
