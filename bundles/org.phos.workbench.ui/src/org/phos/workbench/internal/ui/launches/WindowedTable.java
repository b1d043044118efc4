package org.phos.workbench.internal.ui.launches;

import java.util.function.IntConsumer;

import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Slider;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;

/**
 * A table over any number of rows whose native widget only ever holds the rows on screen, with a slider for the
 * position. Needed because an SWT {@code VIRTUAL} table on GTK still appends one native row per item when its item
 * count is set: 1 million launches took 2.8 s on the UI thread (profiled), 10 million about ten times that, before
 * anything was painted. Here setting the row count is O(1) and each repaint fills about a screenful of rows.
 * <p>
 * The caller fills items ({@link Rows}) and learns about selections a person makes (click, arrow and page keys, Home,
 * End) through a callback with the row; the wheel and the slider scroll. Row numbers are the caller's (0 to
 * {@link #rowCount()} - 1); the native table's items are a window starting at {@link #topRow()}.
 */
final class WindowedTable {
    /** Fills the native item showing row {@code row}. */
    interface Rows {
        void fill(TableItem item, int row);
    }

    private final Composite root;
    private final Table table;
    private final Slider slider;
    private final Rows rows;
    private final IntConsumer onSelect;
    private int rowCount;
    private int top;
    private int selected = -1;
    private int visible = 1;

    WindowedTable(Composite parent, Rows rows, IntConsumer onSelect) {
        this.rows = rows;
        this.onSelect = onSelect;
        root = new Composite(parent, SWT.NONE);
        GridLayoutFactory.fillDefaults().numColumns(2).spacing(0, 0).applyTo(root);
        // no vertical scroll bar of its own: the slider stands for all the rows
        table = new Table(root, SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE | SWT.H_SCROLL | SWT.NO_SCROLL);
        GridDataFactory.fillDefaults().grab(true, true).hint(200, 100).applyTo(table);
        slider = new Slider(root, SWT.VERTICAL);
        GridDataFactory.fillDefaults().grab(false, true).applyTo(slider);
        slider.addListener(SWT.Selection, e -> {
            scrollTo(slider.getSelection());
            userScrolled.run();
        });
        table.addListener(SWT.Resize, e -> refresh());
        root.addListener(SWT.Resize, e -> refresh());
        // a part brought back to the top of its stack is not always resized: check the window at each paint
        table.addListener(SWT.Paint, e -> {
            if (fittingRows() != visible) {
                table.getDisplay().asyncExec(this::refresh);
            }
        });
        table.addListener(SWT.MouseWheel, e -> {
            scrollTo(top - e.count);
            e.doit = false;
            userScrolled.run();
        });
        table.addListener(SWT.Selection, e -> {
            int i = table.indexOf((TableItem) e.item);
            if (i >= 0 && top + i < rowCount) {
                selected = top + i;
                onSelect.accept(selected);
            }
        });
        table.addListener(SWT.KeyDown, this::key);
        root.setTabList(new Control[] { table });
    }

    private void key(Event e) {
        int page = Math.max(1, visible - 1);
        int from = selected < 0 ? top : selected;
        int to = switch (e.keyCode) {
        case SWT.ARROW_DOWN -> from + 1;
        case SWT.ARROW_UP -> from - 1;
        case SWT.PAGE_DOWN -> from + page;
        case SWT.PAGE_UP -> from - page;
        case SWT.HOME -> 0;
        case SWT.END -> rowCount - 1;
        default -> Integer.MIN_VALUE;
        };
        if (to == Integer.MIN_VALUE || rowCount == 0) {
            return;
        }
        e.doit = false;
        select(Math.max(0, Math.min(rowCount - 1, to)));
        onSelect.accept(selected);
        userScrolled.run();
    }

    // i14-attachui: begin
    private Runnable userScrolled = () -> {
    };

    /** Called after a person scrolled (wheel, slider, keys), not after {@link #scrollTo} from code. */
    void onUserScroll(Runnable r) {
        userScrolled = r;
    }

    /** Whether the last row is on screen. */
    boolean atEnd() {
        return top + visible >= rowCount;
    }
    // i14-attachui: end

    /** The native table (columns, header, focus, listeners). */
    Table table() {
        return table;
    }

    /** The composite holding the table and its slider (for layout data). */
    Control control() {
        return root;
    }

    /** The number of rows. */
    int rowCount() {
        return rowCount;
    }

    /** The first row on screen. */
    int topRow() {
        return top;
    }

    /** The rows that fit fully on screen. */
    int visibleRows() {
        return visible;
    }

    /** Sets the number of rows (keeps the position where it can) and fills the window again. */
    void setRowCount(int count) {
        rowCount = Math.max(0, count);
        if (selected >= rowCount) {
            selected = -1;
        }
        refresh();
    }

    /** The selected row, or -1. */
    int selectedRow() {
        return selected;
    }

    /** Selects {@code row} (-1: none) and scrolls so that it is on screen; no callback. */
    void select(int row) {
        selected = row >= 0 && row < rowCount ? row : -1;
        if (selected >= 0 && (selected < top || selected >= top + visible)) {
            // a step just past the edge scrolls by that much; a jump (go to launch N) puts the row mid-screen
            boolean near = selected >= top - visible && selected < top + 2 * visible;
            top = !near ? selected - visible / 2 : selected < top ? selected : selected - visible + 1;
        }
        refresh();
    }

    /** Shows rows from {@code row} on. */
    void scrollTo(int row) {
        top = row;
        refresh();
    }

    /**
     * The rows that fit, from the widget's size, not its client area: without a vertical scroll bar GTK sizes the
     * client area to the rows the table holds, so a window of 7 rows would stay 7 rows in a taller table.
     */
    private int fittingRows() {
        int itemHeight = Math.max(1, table.getItemHeight());
        int height = table.getSize().y - table.getHeaderHeight() - 2 * table.getBorderWidth();
        org.eclipse.swt.widgets.ScrollBar bar = table.getHorizontalBar();
        if (bar != null && bar.isVisible()) {
            height -= bar.getSize().y;
        }
        return Math.max(1, height / itemHeight);
    }

    /** Fills the window of native items from the rows again (after the caller's rows changed). */
    void refresh() {
        if (table.isDisposed()) {
            return;
        }
        visible = fittingRows();
        top = Math.max(0, Math.min(top, rowCount - visible));
        int shown = Math.max(0, Math.min(visible + 1, rowCount - top)); // +1: the partly visible last row
        if (table.getItemCount() != shown) {
            table.setItemCount(shown);
        }
        for (int i = 0; i < shown; i++) {
            rows.fill(table.getItem(i), top + i);
        }
        if (selected >= top && selected < top + shown) {
            table.setSelection(selected - top);
        } else {
            table.deselectAll();
        }
        slider.setValues(top, 0, Math.max(1, rowCount), Math.max(1, Math.min(visible, rowCount)), 1,
                Math.max(1, visible - 1));
        slider.setEnabled(rowCount > visible);
    }
}
