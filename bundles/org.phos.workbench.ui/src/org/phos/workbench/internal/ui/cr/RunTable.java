package org.phos.workbench.internal.ui.cr;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accuracy.ColumnFit;
import org.phos.workbench.internal.ui.accuracy.CsvExport;

/**
 * An analysis-layer {@link Table} in an SWT table: one column per {@link Column} (its header, its unit in the
 * tooltip, numbers right-aligned), cells as {@link Column#format} writes them, so the rows on screen are the rows
 * of the CSV that Export CSV and Copy write ({@link CsvExport#csv}).
 *
 * @param <R> the row type
 */
public final class RunTable<R> {
    private final org.eclipse.swt.widgets.Table table;
    private final int stretch;
    private @Nullable Table<R> shown;
    private java.util.Set<String> rightAligned = java.util.Set.of();

    /**
     * @param role the table's role for tests
     * @param stretch the column given the rest of the width (a sentence), or -1: every column packed, the table
     *        scrolls sideways (a run's name is never cut)
     */
    public RunTable(Composite parent, String role, int stretch) {
        this.stretch = stretch;
        table = new org.eclipse.swt.widgets.Table(parent,
                SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE | SWT.V_SCROLL | SWT.H_SCROLL);
        table.setData(TracesView.ROLE, role);
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        GridDataFactory.fillDefaults().grab(true, true).applyTo(table);
        table.addListener(SWT.Resize, e -> fit());
    }

    /** Shows {@code rows} (columns rebuilt when they differ from those shown). */
    public void show(Table<R> rows) {
        table.setRedraw(false);
        try {
            List<Column<R>> columns = rows.def().columns();
            Table<R> before = shown;
            if (before == null || !before.def().headers().equals(rows.def().headers())) {
                for (TableColumn c : table.getColumns()) {
                    c.dispose();
                }
                for (Column<R> c : columns) {
                    boolean right = c.rightAligned() || rightAligned.contains(c.header());
                    TableColumn tc = new TableColumn(table, right ? SWT.RIGHT : SWT.LEFT);
                    tc.setText(c.header());
                    tc.setToolTipText(c.unit().isEmpty() ? c.header() : c.header() + " (" + c.unit() + ")");
                }
            }
            table.removeAll();
            for (R row : rows.rows()) {
                TableItem item = new TableItem(table, SWT.NONE);
                String[] cells = new String[columns.size()];
                for (int i = 0; i < cells.length; i++) {
                    cells[i] = columns.get(i).format(row);
                }
                item.setText(cells);
                item.setData(row);
            }
            shown = rows;
        } finally {
            table.setRedraw(true);
        }
        fit();
    }

    /** Every column as wide as its content; the stretched one, if any, also takes what is left of the width. */
    private void fit() {
        if (stretch >= 0) {
            ColumnFit.fill(table, Math.min(stretch, Math.max(0, table.getColumnCount() - 1)));
        } else {
            for (TableColumn c : table.getColumns()) {
                c.pack();
            }
        }
    }

    /** Right-aligns the text columns {@code headers} too (numbers written as text, as metrics.csv's values). */
    public void alignRight(String... headers) {
        rightAligned = java.util.Set.of(headers);
    }

    /** The table shown, or null. */
    public @Nullable Table<R> shown() {
        return shown;
    }

    /** The SWT table. */
    public org.eclipse.swt.widgets.Table control() {
        return table;
    }

    /** What is shown as the CLI's CSV, or "" when nothing is. */
    public String csv() {
        Table<R> t = shown;
        return t == null ? "" : new String(CsvExport.csv(t), StandardCharsets.UTF_8);
    }

    /** The row of table item {@code index}. */
    @SuppressWarnings("unchecked")
    public R row(int index) {
        return (R) table.getItem(index).getData();
    }
}
