package org.phos.workbench.analysis.core.table;

import java.util.List;

/**
 * The shape of a table: its name and columns, defined once per query result type and rendered by the command line
 * (text, CSV, JSON through {@link TableRenderer}) and by the views (a virtual JFace table with one viewer column per
 * {@link Column}, its label from {@link Column#format}).
 *
 * @param <R> the row type
 * @param name what the table lists, plural ({@code launches}); the JSON array's name
 * @param columns in display order
 */
public record TableDef<R>(String name, List<Column<R>> columns) {

	/** Copies. */
	public TableDef {
		columns = List.copyOf(columns);
		if (columns.isEmpty()) {
			throw new IllegalArgumentException("a table needs a column");
		}
	}

	/** @return the headers in order */
	public List<String> headers() {
		return columns.stream().map(Column::header).toList();
	}

	/**
	 * @param header a header
	 * @return its column
	 * @throws IllegalArgumentException naming the known headers
	 */
	public Column<R> column(String header) {
		for (Column<R> c : columns) {
			if (c.header().equals(header)) {
				return c;
			}
		}
		throw new IllegalArgumentException("no column '" + header + "'; columns: " + String.join(", ", headers()));
	}
}
