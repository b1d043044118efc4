package org.phos.workbench.analysis.core.report;

import java.util.List;
import java.util.Locale;

import org.phos.workbench.analysis.core.Overview;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.ConsistencyReport;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.EngineValidation;

/**
 * How the report words its figures (the page and the command's summary alike): durations and bytes for a reader,
 * shares as percentages, and the one-line summary of a trace.
 */
public final class ReportFigures {

	private ReportFigures() {
	}

	/** A duration for a reader: {@code 0 ns}, {@code 850 ns}, {@code 12.3 us}, {@code 4.56 ms}, {@code 1.20 s}. */
	public static String duration(long ns) {
		if (ns < 0) {
			return "-";
		}
		if (ns < 1000) {
			return ns + " ns";
		}
		double v = ns;
		String[] units = { "us", "ms", "s" };
		int u = -1;
		while (v >= 1000 && u < units.length - 1) {
			v /= 1000;
			u++;
		}
		return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, units[u]);
	}

	/** Bytes as {@code info} prints them. */
	public static String bytes(long bytes) {
		return Overview.bytes(bytes);
	}

	/** A share as a percentage with one decimal, {@code -} for NaN. */
	public static String percent(double share) {
		return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
	}

	/** A count with thousands separators. */
	public static String count(long n) {
		return String.format(Locale.ROOT, "%,d", n);
	}

	/** The checkpoint's completion, or the restore's full state for restore policies; -1 when neither. */
	public static long completionNs(SimulationMetrics m) {
		long done = m.checkpointCompletionNs();
		return done < 0 && m.checkpoints().isEmpty() ? m.restoreFullStateNs() : done;
	}

	/** The largest dirty set of the run's checkpoints, -1 without one. */
	public static long dirtyBytes(SimulationMetrics m) {
		return m.checkpoints().stream().mapToLong(CheckpointSummary::dirtyBytes).max().orElse(-1);
	}

	/** {@code consistent}, {@code not checked} or {@code INCONSISTENT: N violation(s), B affected}. */
	public static String verdict(ConsistencyReport c) {
		if (!c.checked()) {
			return "not checked";
		}
		if (c.violations().isEmpty()) {
			return "consistent";
		}
		return "INCONSISTENT: " + c.violations().size() + " violation(s), " + bytes(c.affectedBytes()) + " affected";
	}

	/** One line on a trace: launches, kernels, the best-judged engine's safety and the runs' verdicts. */
	public static String summary(TraceReport r) {
		StringBuilder s = new StringBuilder();
		s.append(count(r.launches())).append(" launches, ").append(r.overview().kernelCount()).append(" kernels");
		if (!r.accuracy().isEmpty()) {
			// the engines as the report's options name them (validate expands best into its combination)
			List<EngineValidation> engines = r.accuracy().get(0).report().engines();
			List<String> names = r.disagreement().engines();
			s.append("; unsafe launches:");
			for (int i = 0; i < engines.size(); i++) {
				Accuracy a = engines.get(i).total();
				s.append(i == 0 ? " " : ", ").append(i < names.size() ? names.get(i) : engines.get(i).engine())
						.append(' ').append(a.unsafeLaunches());
			}
		} else {
			s.append("; no ground truth");
		}
		if (r.cr() != null) {
			long inconsistent = r.cr().runs().stream().filter(run -> !run.metrics().consistency().consistent()
					&& run.metrics().consistency().checked()).count();
			s.append("; C/R: ").append(r.cr().runs().size()).append(" runs, ").append(inconsistent)
					.append(" inconsistent");
		}
		return s.toString();
	}
}
