package org.phos.workbench.analysis.core.table;

import java.util.List;

/**
 * A page of rows with their table definition: what a query answers with. {@code total} counts every row matching
 * the query (the page may hold fewer), so a view can size a virtual table and a command can say "1-100 of 2,310".
 *
 * @param <R> the row type
 * @param def the columns
 * @param rows the rows of the page, in order
 * @param offset the index of the first row of the page among all matching rows
 * @param total all matching rows
 */
public record Table<R>(TableDef<R> def, List<R> rows, long offset, long total) {

	/** Copies. */
	public Table {
		rows = List.copyOf(rows);
	}

	/** @return a table of all its rows */
	public static <R> Table<R> of(TableDef<R> def, List<R> rows) {
		return new Table<>(def, rows, 0, rows.size());
	}
}
