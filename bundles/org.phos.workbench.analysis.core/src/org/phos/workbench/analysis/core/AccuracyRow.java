package org.phos.workbench.analysis.core;

import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.analysis.core.table.TableDef;
import org.phos.workbench.speculation.core.validate.AccessVerdict;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.EngineValidation;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * One line of {@code validate}'s accuracy table (its {@code --csv}): an engine's {@link Accuracy} over all kernels
 * ({@link #ALL_KERNELS}, function id -1) or over one kernel, with the raw counts behind every share. The Accuracy
 * view exports the same table, so its file equals {@code validate --csv}'s.
 *
 * @param engine the engine's name as the report gives it (a combination expanded: {@code best} is
 *        {@code ptx-flow/arg-scan+indirect+blocks})
 * @param kernel the kernel's demangled name, or {@link #ALL_KERNELS}
 * @param functionId its function id, -1 for the total
 * @param accuracy the figures
 */
public record AccuracyRow(String engine, String kernel, int functionId, Accuracy accuracy) {

	/** The kernel cell of an engine's total. */
	public static final String ALL_KERNELS = "(all kernels)";

	/** The columns, as {@code validate --csv} has always written them, then the direction counts (i15-val). */
	public static final TableDef<AccuracyRow> TABLE = new TableDef<>("accuracy", List.of(
			Column.text("engine", AccuracyRow::engine), Column.text("kernel", AccuracyRow::kernel),
			Column.integer("function_id", "", AccuracyRow::functionId),
			Column.integer("launches", "", r -> r.accuracy().launches()),
			Column.integer("unsafe_launches", "", r -> r.accuracy().unsafeLaunches()),
			verdict("exact", AccessVerdict.EXACT), verdict("over_approximated", AccessVerdict.OVER_APPROXIMATED),
			verdict("missed_read", AccessVerdict.MISSED_READ), verdict("missed_write", AccessVerdict.MISSED_WRITE),
			verdict("wrong_direction", AccessVerdict.WRONG_DIRECTION),
			Column.integer("write_pairs", "", r -> r.accuracy().writePairs()),
			Column.integer("write_pairs_recalled", "", r -> r.accuracy().writePairsRecalled()),
			Column.integer("read_pairs", "", r -> r.accuracy().readPairs()),
			Column.integer("read_pairs_recalled", "", r -> r.accuracy().readPairsRecalled()),
			Column.integer("written_bytes", "bytes", r -> r.accuracy().writtenBytes()),
			Column.integer("written_bytes_recalled", "bytes", r -> r.accuracy().writtenBytesRecalled()),
			Column.integer("speculated_bytes", "bytes", r -> r.accuracy().speculatedBytes()),
			Column.integer("useful_bytes", "bytes", r -> r.accuracy().usefulBytes()),
			Column.integer("excluded_launches", "", r -> r.accuracy().excludedLaunches()),
			// i15-val: begin (direction counts, Accuracy.Directions; appended so older readers keep their columns)
			Column.integer("speculated_read_bytes", "bytes", r -> r.accuracy().directions().speculatedReadBytes()),
			Column.integer("read_bytes", "bytes", r -> r.accuracy().directions().readBytes()),
			Column.integer("read_bytes_matched", "bytes", r -> r.accuracy().directions().readBytesMatched()),
			Column.integer("speculated_written_bytes", "bytes",
					r -> r.accuracy().directions().speculatedWrittenBytes()),
			Column.integer("direction_pairs", "pairs", r -> r.accuracy().directions().directionPairs()),
			Column.integer("direction_pairs_correct", "pairs",
					r -> r.accuracy().directions().directionPairsCorrect()),
			Column.decimal("read_precision", "", r -> r.accuracy().directions().readPrecision()),
			Column.decimal("write_precision", "", r -> r.accuracy().directions().writePrecision()),
			Column.decimal("read_byte_recall", "", r -> r.accuracy().directions().readRecall()),
			Column.decimal("write_byte_recall", "", r -> r.accuracy().directions().writeRecall()),
			Column.decimal("direction_accuracy", "", r -> r.accuracy().directions().directionAccuracy())));
			// i15-val: end

	private static Column<AccuracyRow> verdict(String header, AccessVerdict v) {
		return Column.integer(header, "pairs", r -> r.accuracy().count(v));
	}

	/**
	 * @param report a validation report
	 * @param trace the trace it judged (for kernel names)
	 * @return per engine in the report's order its total, then its kernels in the report's order
	 */
	public static Table<AccuracyRow> of(ValidationReport report, Trace trace) {
		List<AccuracyRow> rows = new ArrayList<>();
		for (EngineValidation e : report.engines()) {
			rows.add(new AccuracyRow(e.engine(), ALL_KERNELS, -1, e.total()));
			for (var k : e.kernels().entrySet()) {
				FunctionInfo f = trace.functionById(k.getKey());
				rows.add(new AccuracyRow(e.engine(), f == null ? "function #" + k.getKey() : f.displayName(), k.getKey(),
						k.getValue()));
			}
		}
		return Table.of(TABLE, rows);
	}
}
