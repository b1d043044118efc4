package org.phos.workbench.internal.ui.accuracy;

import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;

/**
 * Column widths that fit a narrow view: every column as wide as its header and cells, and one column (a kernel name,
 * a metric's name) given what is left of the table's width, so that the table needs no horizontal scrolling as long
 * as the other columns fit; that column's long texts are then cut by the table (GTK ends them with an ellipsis).
 */
public final class ColumnFit {
	/** The stretched column is never made narrower than this (px), unless its content is. */
	static final int MIN_STRETCHED = 90;

	private ColumnFit() {
	}

	/** Packs every column and gives column {@code stretch} the rest of the client width. */
	public static void fill(Table table, int stretch) {
		fill(table, stretch, MIN_STRETCHED);
	}

	/**
	 * As {@link #fill(Table, int)}, the stretched column never narrower than {@code minStretched} px (unless its
	 * content is): where that column is what a row is read by (a kernel's name), the table scrolls sideways rather
	 * than cut it to a few letters.
	 */
	public static void fill(Table table, int stretch, int minStretched) {
		if (table.isDisposed() || table.getColumnCount() <= stretch) {
			return;
		}
		int width = table.getClientArea().width;
		int used = 0;
		for (int i = 0; i < table.getColumnCount(); i++) {
			TableColumn c = table.getColumn(i);
			c.pack();
			if (i != stretch) {
				used += c.getWidth();
			}
		}
		if (width <= 0) {
			return;
		}
		TableColumn s = table.getColumn(stretch);
		int packed = s.getWidth();
		s.setWidth(Math.max(Math.min(packed, minStretched), width - used));
	}
}
