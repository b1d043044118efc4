package org.phos.workbench.cli.simulate;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.ConsistencyReport;
import org.phos.workbench.cr.core.ConsistencyViolation;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.internal.cli.util.Human;

/**
 * The metrics of one or more runs as a table on the terminal (one row per run), followed by the consistency verdict
 * of each run. The CSV files carry every figure; the table shows those that decide between policies.
 */
public final class MetricsTable {
	private static final String ROW = "%-34s %11s %11s %6s %12s %9s %6s %10s %10s %10s%n";

	private MetricsTable() {
	}

	public static void print(PrintStream out, List<CrRun> runs) {
		out.printf(Locale.ROOT, ROW, "RUN", "STALL", "LONGEST", "STALLS", "DONE", "SLOWDOWN", "COW", "COW-BYTES",
				"C/R-BYTES", "DIRTY");
		for (CrRun r : runs) {
			SimulationMetrics m = r.metrics();
			long done = m.checkpointCompletionNs();
			if (done < 0 && m.checkpoints().isEmpty()) {
				done = m.restoreFullStateNs();
			}
			long dirty = m.checkpoints().stream().mapToLong(CheckpointSummary::dirtyBytes).max().orElse(-1);
			out.printf(Locale.ROOT, ROW, Human.clip(r.name(), 34), Human.duration(m.stallTotalNs()),
					Human.duration(m.stallLongestNs()), Long.toString(m.stallCount()),
					done < 0 ? "-" : Human.duration(done),
					Double.isNaN(m.slowdown()) ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * m.slowdown()),
					Long.toString(m.cowCount()), Human.bytes(m.cowBytes()), Human.bytes(crBytes(m)),
					dirty < 0 ? "-" : Human.bytes(dirty));
		}
	}

	static long crBytes(SimulationMetrics m) {
		return m.bytesPerLane().entrySet().stream().filter(e -> e.getKey().startsWith("C/R "))
				.mapToLong(java.util.Map.Entry::getValue).sum();
	}

	/** One line per run: consistent, not checked, or the violations with the first few named. */
	public static void printConsistency(PrintStream out, List<CrRun> runs) {
		for (CrRun r : runs) {
			ConsistencyReport c = r.metrics().consistency();
			if (!c.checked()) {
				out.printf("consistency of %s: not checked (no launch carries observed accesses; record the trace "
						+ "with instrumentation to check the speculated sets)%n", r.name());
			} else if (c.violations().isEmpty()) {
				out.printf("consistency of %s: consistent: 0 violations (%d launches with observed accesses)%n",
						r.name(), c.observedLaunches());
			} else {
				out.printf("consistency of %s: INCONSISTENT: %d violation(s), %s of buffers affected (%d launches "
						+ "with observed accesses; all in violations.csv)%n", r.name(), c.violations().size(),
						Human.bytes(c.affectedBytes()), c.observedLaunches());
				int shown = 0;
				for (ConsistencyViolation v : c.violations()) {
					if (shown++ == 5) {
						out.printf("  ... %d more%n", c.violations().size() - 5);
						break;
					}
					out.printf("  checkpoint %d, buffer %d, op %d, bytes [%d, %d): %s: %s%n", v.checkpoint(),
							v.buffer(), v.opIndex(), v.begin(), v.end(),
							v.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '), v.detail());
				}
			}
		}
	}
}
