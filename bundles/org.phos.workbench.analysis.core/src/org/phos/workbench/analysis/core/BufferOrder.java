package org.phos.workbench.analysis.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.phos.workbench.analysis.core.table.Table;

/**
 * An order of the buffer table ({@link BufferRow#TABLE}) by one of its columns, ascending or descending; ties keep
 * allocation order. The command line's {@code buffers --sort} and the Buffers view sort through this one rule so that
 * the view's export equals the command's output. Addresses and sizes compare unsigned.
 *
 * @param column a header of {@link BufferRow#TABLE}
 * @param descending largest first
 */
public record BufferOrder(String column, boolean descending) {

	/** Allocation order (the table as {@link AnalysisSession#buffers} answers it). */
	public static final BufferOrder ALLOCATION = new BufferOrder("allocated_at", false);

	public BufferOrder {
		if (!BufferRow.TABLE.headers().contains(column)) {
			throw new IllegalArgumentException("no column '" + column + "' to sort buffers by; columns: "
					+ String.join(", ", BufferRow.TABLE.headers()));
		}
	}

	/** {@code COL} ascending, {@code -COL} descending. */
	public static BufferOrder parse(String spec) {
		String s = spec.trim().toLowerCase(Locale.ROOT);
		return s.startsWith("-") ? new BufferOrder(s.substring(1), true) : new BufferOrder(s, false);
	}

	/** @return {@code COL} or {@code -COL} */
	public String spec() {
		return (descending ? "-" : "") + column;
	}

	/** @return the rows of {@code table} in this order, as a new table */
	public Table<BufferRow> sort(Table<BufferRow> table) {
		Comparator<BufferRow> by = switch (column) {
		case "allocation" -> (a, b) -> Long.compareUnsigned(a.base(), b.base());
		case "size" -> (a, b) -> Long.compareUnsigned(a.size(), b.size());
		case "kind" -> Comparator.comparing(r -> r.kind().name());
		case "freed_at" -> Comparator.comparingInt(r -> r.freedAt() < 0 ? Integer.MAX_VALUE : r.freedAt()); // never: last
		case "launches_read" -> Comparator.comparingLong(BufferRow::launchesRead);
		case "launches_written" -> Comparator.comparingLong(BufferRow::launchesWritten);
		case "launches_touched" -> Comparator.comparingLong(BufferRow::launchesTouched);
		default -> Comparator.comparingInt(BufferRow::allocatedAt);
		};
		if (descending) {
			by = by.reversed();
		}
		List<BufferRow> rows = new ArrayList<>(table.rows());
		rows.sort(by.thenComparingInt(BufferRow::allocatedAt));
		return new Table<>(table.def(), rows, table.offset(), table.total());
	}
}
