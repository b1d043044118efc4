package org.phos.workbench.analysis.core;

import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.TableDef;

/**
 * One kernel (launched function) of a trace.
 *
 * @param functionId the function id
 * @param kernel its demangled name
 * @param launches launches of it
 * @param gpuNs GPU time summed over its measured launches; for a trace recorded with sampled GPU timing the estimate
 *            over all its launches ({@code GpuTimeEstimate}, per launch shape)
 * @param engines per engine of the query, in its order
 */
public record KernelRow(int functionId, String kernel, long launches, long gpuNs, List<EngineFigures> engines) {

	/** Copies. */
	public KernelRow {
		engines = List.copyOf(engines);
	}

	/**
	 * One engine's accuracy on the kernel's observed, reliable launches ({@code Accuracy}).
	 *
	 * @param compared launches compared
	 * @param precision useful bytes / speculated bytes
	 * @param readRecall read pairs fully speculated as read / read pairs
	 * @param writeRecall write pairs fully speculated as written / write pairs
	 * @param unsafeLaunches launches with a missed write or wrong direction
	 * @param directionAccuracy pairs with the right direction class / pairs both sides name (i15-val,
	 *        {@code Accuracy.Directions}), NaN when none was compared
	 */
	public record EngineFigures(long compared, double precision, double readRecall, double writeRecall,
			long unsafeLaunches, double directionAccuracy) {

		/** Figures without a direction accuracy (NaN). */
		public EngineFigures(long compared, double precision, double readRecall, double writeRecall,
				long unsafeLaunches) {
			this(compared, precision, readRecall, writeRecall, unsafeLaunches, Double.NaN);
		}
	}

	/**
	 * @param engines the engine names, in order
	 * @return the columns: {@code function, kernel, launches, gpu_ns}, then per engine E {@code E_precision},
	 *         {@code E_read_recall}, {@code E_write_recall}, {@code E_unsafe}, {@code E_direction}
	 */
	public static TableDef<KernelRow> table(List<String> engines) {
		List<Column<KernelRow>> c = new ArrayList<>();
		c.add(Column.integer("function", "", KernelRow::functionId));
		c.add(Column.text("kernel", KernelRow::kernel));
		c.add(Column.integer("launches", "", KernelRow::launches));
		c.add(Column.integer("gpu_ns", "ns", KernelRow::gpuNs));
		for (int i = 0; i < engines.size(); i++) {
			int e = i;
			String h = AccessRow.header(engines.get(i));
			c.add(new Column<>(h + "_compared", "", Column.Kind.INTEGER, r -> r.engines().get(e).compared()));
			c.add(new Column<>(h + "_precision", "", Column.Kind.DECIMAL,
					r -> r.engines().get(e).compared() == 0 ? null : r.engines().get(e).precision()));
			c.add(new Column<>(h + "_read_recall", "", Column.Kind.DECIMAL,
					r -> r.engines().get(e).compared() == 0 ? null : r.engines().get(e).readRecall()));
			c.add(new Column<>(h + "_write_recall", "", Column.Kind.DECIMAL,
					r -> r.engines().get(e).compared() == 0 ? null : r.engines().get(e).writeRecall()));
			c.add(Column.integer(h + "_unsafe", "", r -> r.engines().get(e).unsafeLaunches()));
			c.add(new Column<>(h + "_direction", "", Column.Kind.DECIMAL, // i15-val
					r -> r.engines().get(e).compared() == 0 ? null : r.engines().get(e).directionAccuracy()));
		}
		return new TableDef<>("kernels", c);
	}
}
