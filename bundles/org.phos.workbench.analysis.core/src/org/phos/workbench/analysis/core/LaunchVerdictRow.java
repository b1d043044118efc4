package org.phos.workbench.analysis.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.analysis.core.table.TableDef;
import org.phos.workbench.speculation.core.validate.AccessVerdict;
import org.phos.workbench.speculation.core.validate.AllocationVerdict;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.TruthReliability;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ObservedIndex;
import org.phos.workbench.trace.core.Trace;

/**
 * One engine's verdicts for one judged launch ({@code validate --launches}, i15-val): the launch numbered as
 * {@code speculate --launch N} numbers it (0-based launch index, in launch order), its worst verdict over the
 * allocations either side names, the verdict counts and the bytes behind them, per direction. A launch whose truth is
 * unreliable is listed as excluded, without verdicts.
 *
 * @param launch the launch index ({@code speculate --launch N})
 * @param event its event index
 * @param functionId the launched function
 * @param kernel the kernel's display name
 * @param engine the engine's name
 * @param excluded the launch's truth is unreliable: not judged
 * @param worst the first verdict of {@link AccessVerdict}'s order among the launch's pairs, null when excluded
 * @param counts (launch, allocation) pairs per verdict, indexed by {@link AccessVerdict#ordinal()}
 * @param bytes speculated, observed, useful, missed-write, missed-read, speculated-read, speculated-written,
 *        observed-read, observed-written bytes, direction pairs and those with the right direction (see
 *        {@link #TABLE} for the names)
 */
public record LaunchVerdictRow(int launch, int event, int functionId, String kernel, String engine, boolean excluded,
		@Nullable AccessVerdict worst, long[] counts, long[] bytes) {

	private static final int SPECULATED = 0, OBSERVED = 1, USEFUL = 2, MISSED_WRITE = 3, MISSED_READ = 4,
			SPEC_READ = 5, SPEC_WRITTEN = 6, OBS_READ = 7, OBS_WRITTEN = 8, DIR_PAIRS = 9, DIR_CORRECT = 10;

	/** @return the worst verdict's label, or {@code excluded} */
	public String verdictLabel() {
		AccessVerdict w = worst;
		return excluded ? "excluded" : w == null ? "-" : w.label();
	}

	/** @return pairs with this verdict */
	public long count(AccessVerdict v) {
		return counts[v.ordinal()];
	}

	/** @return useful bytes / speculated bytes of the launch, 1 when nothing was speculated */
	public double bytePrecision() {
		return bytes[SPECULATED] == 0 ? 1 : (double) bytes[USEFUL] / bytes[SPECULATED];
	}

	/** @return whether a verdict of the launch is unsafe */
	public boolean unsafe() {
		AccessVerdict w = worst;
		return w != null && w.unsafe();
	}

	private static Column<LaunchVerdictRow> bytes(String header, int index) {
		return Column.integer(header, "bytes", r -> r.bytes[index]);
	}

	private static Column<LaunchVerdictRow> verdict(String header, AccessVerdict v) {
		return Column.integer(header, "pairs", r -> r.counts[v.ordinal()]);
	}

	/** The columns of {@code validate --launches --csv}. */
	public static final TableDef<LaunchVerdictRow> TABLE = new TableDef<>("launch_verdicts", List.of(
			Column.integer("launch", "", LaunchVerdictRow::launch), Column.integer("event", "", LaunchVerdictRow::event),
			Column.integer("function_id", "", LaunchVerdictRow::functionId),
			Column.text("kernel", LaunchVerdictRow::kernel), Column.text("engine", LaunchVerdictRow::engine),
			Column.text("verdict", LaunchVerdictRow::verdictLabel),
			verdict("exact", AccessVerdict.EXACT), verdict("over_approximated", AccessVerdict.OVER_APPROXIMATED),
			verdict("missed_read", AccessVerdict.MISSED_READ), verdict("missed_write", AccessVerdict.MISSED_WRITE),
			verdict("wrong_direction", AccessVerdict.WRONG_DIRECTION), bytes("speculated_bytes", SPECULATED),
			bytes("observed_bytes", OBSERVED), bytes("useful_bytes", USEFUL), bytes("missed_write_bytes", MISSED_WRITE),
			bytes("missed_read_bytes", MISSED_READ), bytes("speculated_read_bytes", SPEC_READ),
			bytes("speculated_written_bytes", SPEC_WRITTEN), bytes("observed_read_bytes", OBS_READ),
			bytes("observed_written_bytes", OBS_WRITTEN),
			Column.integer("direction_pairs", "pairs", r -> r.bytes[DIR_PAIRS]),
			Column.integer("direction_pairs_correct", "pairs", r -> r.bytes[DIR_CORRECT])));

	/**
	 * Collects the verdicts of a validation ({@link SpeculationValidator.VerdictListener}); thread-safe, so a
	 * validation in parts can call it from its threads.
	 */
	public static final class Collector implements SpeculationValidator.VerdictListener {
		private final Map<String, Map<Integer, long[][]>> byEngine = new HashMap<>();

		@Override
		public synchronized void verdict(String engine, AllocationVerdict v) {
			long[][] a = byEngine.computeIfAbsent(engine, k -> new HashMap<>()).computeIfAbsent(v.launchEvent(),
					k -> new long[][] { new long[AccessVerdict.values().length], new long[11] });
			a[0][v.verdict().ordinal()]++;
			long[] b = a[1];
			b[SPECULATED] += v.speculatedBytes();
			b[OBSERVED] += v.observedBytes();
			b[USEFUL] += v.usefulBytes();
			b[MISSED_WRITE] += v.missedWriteBytes();
			b[MISSED_READ] += v.missedReadBytes();
			b[SPEC_READ] += v.speculatedReadBytes();
			b[SPEC_WRITTEN] += v.speculatedWrittenBytes();
			b[OBS_READ] += v.observedReadBytes();
			b[OBS_WRITTEN] += v.observedWrittenBytes();
			boolean both = v.speculatedBytes() > 0 && v.observedBytes() > 0;
			b[DIR_PAIRS] += both ? 1 : 0;
			b[DIR_CORRECT] += both && v.directionMatches() ? 1 : 0;
		}

		/**
		 * @param trace the trace validated
		 * @param engines the engines' names in the report's order
		 * @param tool the tool whose records were used, null for all
		 * @param reliability the report's truth reliability
		 * @return per launch in launch order, per engine in the given order: the judged and the excluded launches
		 */
		public synchronized Table<LaunchVerdictRow> rows(Trace trace, List<String> engines, @Nullable String tool,
				TruthReliability reliability) {
			ObservedIndex index = ObservedIndex.of(trace, tool);
			List<LaunchVerdictRow> rows = new ArrayList<>();
			Map<Integer, String> names = new HashMap<>();
			for (int l = 0, n = trace.launchCount(); l < n; l++) {
				int event = trace.launchEvent(l);
				if (index.records(event).isEmpty()) {
					continue;
				}
				boolean excluded = !reliability.reliable(event);
				int function = trace.functionId(event);
				String kernel = names.computeIfAbsent(function, f -> {
					FunctionInfo info = trace.functionById(f);
					return info == null ? "function #" + f : info.displayName();
				});
				for (String engine : engines) {
					long[][] a = byEngine.getOrDefault(engine, Map.of()).get(event);
					if (a == null && !excluded) {
						continue; // judged, but neither side named an allocation (records outside every allocation)
					}
					long[] counts = a == null ? new long[AccessVerdict.values().length] : a[0].clone();
					AccessVerdict worst = null;
					for (AccessVerdict v : AccessVerdict.values()) {
						if (counts[v.ordinal()] > 0) {
							worst = v;
							break;
						}
					}
					rows.add(new LaunchVerdictRow(l, event, function, kernel, engine, excluded, excluded ? null : worst,
							counts, a == null ? new long[11] : a[1].clone()));
				}
			}
			return Table.of(TABLE, rows);
		}
	}
}
