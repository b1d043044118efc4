package org.phos.workbench.analysis.core.table;

import java.io.PrintStream;
import java.util.List;

import org.phos.workbench.analysis.core.format.CsvEscape;
import org.phos.workbench.analysis.core.format.JsonWriter;

/**
 * Renders a {@link Table} as the command line writes it: aligned text, CSV or JSON. The views render the same
 * {@link TableDef} in a virtual table; their "Export CSV" goes through {@link #CSV}, so a view's export equals the
 * command's {@code --format csv}.
 */
public enum TableRenderer {
	/** Aligned columns under a header line, two spaces apart; numbers right-aligned. */
	TEXT {
		@Override
		public <R> void render(Table<R> table, PrintStream out) {
			List<Column<R>> columns = table.def().columns();
			int n = columns.size();
			String[][] cells = new String[table.rows().size()][n];
			int[] width = new int[n];
			for (int c = 0; c < n; c++) {
				width[c] = columns.get(c).header().length();
			}
			for (int r = 0; r < cells.length; r++) {
				for (int c = 0; c < n; c++) {
					cells[r][c] = printable(columns.get(c).format(table.rows().get(r)));
					width[c] = Math.max(width[c], cells[r][c].length());
				}
			}
			StringBuilder line = new StringBuilder();
			for (int c = 0; c < n; c++) {
				pad(line, columns.get(c).header(), width[c], columns.get(c).rightAligned(), c == n - 1);
			}
			out.println(line.toString().stripTrailing());
			for (String[] row : cells) {
				line.setLength(0);
				for (int c = 0; c < n; c++) {
					pad(line, row[c], width[c], columns.get(c).rightAligned(), c == n - 1);
				}
				out.println(line.toString().stripTrailing());
			}
		}
	},
	/** A header line of the column headers, then one line per row; fields quoted by {@link CsvEscape}. */
	CSV {
		@Override
		public <R> void render(Table<R> table, PrintStream out) {
			List<Column<R>> columns = table.def().columns();
			StringBuilder line = new StringBuilder();
			for (int c = 0; c < columns.size(); c++) {
				line.append(c == 0 ? "" : ",").append(CsvEscape.field(columns.get(c).header()));
			}
			out.print(line.append('\n'));
			for (R row : table.rows()) {
				line.setLength(0);
				for (int c = 0; c < columns.size(); c++) {
					line.append(c == 0 ? "" : ",").append(CsvEscape.field(columns.get(c).format(row)));
				}
				out.print(line.append('\n'));
			}
			out.flush();
		}
	},
	/**
	 * {@code {"table": name, "offset": n, "total": n, "columns": [{"name", "unit"}...], "rows": [{header: value}...]}};
	 * integers and decimals bare, empty cells null.
	 */
	JSON {
		@Override
		public <R> void render(Table<R> table, PrintStream out) {
			JsonWriter json = new JsonWriter(out);
			json.beginObject().field("table", table.def().name()).field("offset", table.offset())
					.field("total", table.total());
			json.name("columns").beginArray();
			for (Column<R> c : table.def().columns()) {
				json.beginObject().field("name", c.header()).field("unit", c.unit()).endObject();
			}
			json.endArray().name("rows").beginArray();
			for (R row : table.rows()) {
				json.beginObject();
				for (Column<R> c : table.def().columns()) {
					json.name(c.header());
					Object v = c.value(row);
					if (v == null) {
						json.value((String) null);
					} else if (v instanceof Long l) {
						json.value(l.longValue());
					} else if (v instanceof Integer i) {
						json.value(i.longValue());
					} else if (v instanceof Double d) {
						json.value(d.doubleValue());
					} else {
						json.value(v.toString());
					}
				}
				json.endObject();
			}
			json.endArray().endObject().finish();
		}
	};

	/**
	 * Writes the table.
	 *
	 * @param table the table
	 * @param out where to
	 */
	public abstract <R> void render(Table<R> table, PrintStream out);

	/**
	 * @param name {@code text}, {@code csv} or {@code json}
	 * @return the renderer
	 * @throws IllegalArgumentException for another name
	 */
	public static TableRenderer named(String name) {
		return switch (name) {
		case "text" -> TEXT;
		case "csv" -> CSV;
		case "json" -> JSON;
		default -> throw new IllegalArgumentException("unknown format '" + name + "'; use text, csv or json");
		};
	}

	/** Control characters as spaces so that one row stays one line. */
	static String printable(String s) {
		StringBuilder b = null;
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (c < 0x20 || c == 0x7f) {
				if (b == null) {
					b = new StringBuilder(s);
				}
				b.setCharAt(i, ' ');
			}
		}
		return b == null ? s : b.toString();
	}

	private static void pad(StringBuilder line, String cell, int width, boolean right, boolean last) {
		int fill = width - cell.length();
		if (right) {
			line.append(" ".repeat(fill)).append(cell);
		} else {
			line.append(cell);
			if (!last) {
				line.append(" ".repeat(fill));
			}
		}
		if (!last) {
			line.append("  ");
		}
	}
}
