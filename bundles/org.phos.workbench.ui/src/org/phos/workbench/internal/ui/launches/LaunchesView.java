package org.phos.workbench.internal.ui.launches;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.trace.SimpleSelectionProvider;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * The "Launches" view: every launch of the current trace (the active trace editor's) in a virtual table whose rows
 * are filled when painted. Filter by kernel regex, sort by clicking a header, {@code .} and {@code ,} step the
 * selection. Selecting a row publishes a {@link LaunchSelection}; a LaunchSelection from elsewhere selects its row.
 * Interim: rows come from trace.core directly until the analysis layer's LaunchQuery is merged.
 */
public final class LaunchesView extends ViewPart {
    /** The view id in plugin.xml. */
    public static final String ID = "org.phos.workbench.ui.launchesView";

    private static final String[] COLUMNS = { "#", "Host ns", "GPU µs", "Stream", "Kernel", "Grid", "Block" };
    private static final int[] WIDTHS = { 70, 130, 90, 110, 420, 110, 110 };

    private final SimpleSelectionProvider selectionProvider = new SimpleSelectionProvider();
    private Text kernelFilter;
    private Table table;
    private Label status;
    private @org.eclipse.jdt.annotation.Nullable LoadedTrace current;
    private int[] rows = new int[0];
    private int sortColumn = 0;
    private boolean ascending = true;
    private final ISelectionListener listener = this::selectionChanged;

    @Override
    public void createPartControl(Composite parent) {
        GridLayoutFactory.fillDefaults().numColumns(3).margins(4, 4).applyTo(parent);
        new Label(parent, SWT.NONE).setText("Kernel regex:");
        kernelFilter = new Text(parent, SWT.BORDER | SWT.SINGLE);
        kernelFilter.setData(TracesView.ROLE, "kernelFilter");
        kernelFilter.setMessage("e.g. gemm|reduce");
        kernelFilter.addListener(SWT.DefaultSelection, e -> refilter());
        kernelFilter.addListener(SWT.Modify, e -> refilter());
        GridDataFactory.fillDefaults().grab(true, false).applyTo(kernelFilter);
        status = new Label(parent, SWT.NONE);
        status.setData(TracesView.ROLE, "launchesStatus");
        GridDataFactory.fillDefaults().hint(360, SWT.DEFAULT).applyTo(status);

        table = new Table(parent, SWT.VIRTUAL | SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE);
        table.setData(TracesView.ROLE, "launches");
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        for (int c = 0; c < COLUMNS.length; c++) {
            TableColumn col = new TableColumn(table, c == 4 ? SWT.LEFT : SWT.RIGHT);
            col.setText(COLUMNS[c]);
            col.setWidth(WIDTHS[c]);
            int index = c;
            col.addListener(SWT.Selection, e -> sortBy(index));
        }
        table.addListener(SWT.SetData, e -> {
            TableItem item = (TableItem) e.item;
            int row = table.indexOf(item);
            LoadedTrace t = current;
            if (t != null && row < rows.length) {
                item.setText(cells(t.trace(), rows[row]));
            }
        });
        table.addListener(SWT.Selection, e -> publishSelection());
        table.addListener(SWT.KeyDown, e -> {
            if (e.character == '.') {
                step(1);
                e.doit = false;
            } else if (e.character == ',') {
                step(-1);
                e.doit = false;
            }
        });
        GridDataFactory.fillDefaults().grab(true, true).span(3, 1).applyTo(table);
        getSite().setSelectionProvider(selectionProvider);
        getSite().getPage().addSelectionListener(listener);
        IEditorPart editor = getSite().getPage().getActiveEditor();
        if (editor instanceof TraceEditor te && te.loadedTrace() != null) {
            show(te.loadedTrace());
        } else {
            show(null);
        }
    }

    private void selectionChanged(IWorkbenchPart part, ISelection selection) {
        if (part == this || !(selection instanceof IStructuredSelection s) || s.size() != 1) {
            return;
        }
        Object o = s.getFirstElement();
        if (o instanceof LoadedTrace t && t != current) {
            show(t);
        } else if (o instanceof LaunchSelection ls) {
            if (ls.trace() != current) {
                show(ls.trace());
            }
            reveal(ls.launch());
        }
    }

    /** Shows the launches of {@code trace} (null: none). */
    public void show(@org.eclipse.jdt.annotation.Nullable LoadedTrace trace) {
        current = trace;
        refilter();
    }

    /** The trace shown, or null. */
    public @org.eclipse.jdt.annotation.Nullable LoadedTrace trace() {
        return current;
    }

    /** The launch indices of the rows, in display order (a copy). */
    public int[] rows() {
        return rows.clone();
    }

    private void refilter() {
        LoadedTrace t = current;
        if (t == null) {
            rows = new int[0];
            table.setItemCount(0);
            status.setText("No trace: open one from the Traces view or File > Open Trace…");
            return;
        }
        Pattern pattern;
        try {
            String regex = kernelFilter.getText().trim();
            pattern = regex.isEmpty() ? null : Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            status.setText("Bad regex: " + e.getDescription());
            return;
        }
        Trace trace = t.trace();
        int n = trace.launchCount();
        int[] kept = new int[n];
        int count = 0;
        for (int l = 0; l < n; l++) {
            if (pattern == null || pattern.matcher(kernelName(trace, trace.launchEvent(l))).find()) {
                kept[count++] = l;
            }
        }
        rows = Arrays.copyOf(kept, count);
        sortRows();
        table.clearAll();
        table.setItemCount(rows.length);
        status.setText(String.format(Locale.ROOT, "%,d of %,d launches of %s", rows.length, n, t.name()));
    }

    private void sortBy(int column) {
        if (column == sortColumn) {
            ascending = !ascending;
        } else {
            sortColumn = column;
            ascending = true;
        }
        table.setSortColumn(table.getColumn(column));
        table.setSortDirection(ascending ? SWT.UP : SWT.DOWN);
        int selected = selectedLaunch();
        sortRows();
        table.clearAll();
        if (selected >= 0) {
            reveal(selected);
        }
    }

    private void sortRows() {
        LoadedTrace t = current;
        if (t == null || (sortColumn == 0 && ascending)) {
            if (t != null) {
                Arrays.sort(rows);
            }
            return;
        }
        Trace trace = t.trace();
        IntFunction<Comparable<?>> key = switch (sortColumn) {
            case 1 -> l -> trace.hostNs(trace.launchEvent(l));
            case 2 -> l -> gpuNs(trace, trace.launchEvent(l));
            case 3 -> l -> trace.stream(trace.launchEvent(l));
            case 4 -> l -> kernelName(trace, trace.launchEvent(l));
            default -> l -> l;
        };
        @SuppressWarnings({ "unchecked", "rawtypes" })
        Comparator<Integer> cmp = Comparator.comparing(l -> (Comparable) key.apply(l));
        cmp = cmp.thenComparingInt(l -> l);
        if (!ascending) {
            cmp = cmp.reversed();
        }
        rows = Arrays.stream(rows).boxed().sorted(cmp).mapToInt(Integer::intValue).toArray();
    }

    private static long gpuNs(Trace trace, int i) {
        long s = trace.gpuStartNs(i);
        return s == 0 ? -1 : trace.gpuEndNs(i) - s;
    }

    private static String kernelName(Trace trace, int i) {
        FunctionInfo f = trace.functionById(trace.functionId(i));
        return f == null ? "function " + trace.functionId(i) : f.displayName();
    }

    private static String[] cells(Trace trace, int launch) {
        int i = trace.launchEvent(launch);
        long gpu = gpuNs(trace, i);
        return new String[] { Integer.toString(launch), String.format(Locale.ROOT, "%,d", trace.hostNs(i)),
                gpu < 0 ? "—" : String.format(Locale.ROOT, "%.3f", gpu / 1000.0), "0x" + Long.toHexString(trace.stream(i)),
                kernelName(trace, i), dim(trace.grid(i)), dim(trace.block(i)) };
    }

    private static String dim(org.phos.workbench.trace.core.Dim3 d) {
        return d.x() + "×" + d.y() + "×" + d.z();
    }

    /** The launch of the selected row, or -1. */
    public int selectedLaunch() {
        int row = table.getSelectionIndex();
        return row < 0 || row >= rows.length ? -1 : rows[row];
    }

    private void step(int delta) {
        int row = table.getSelectionIndex();
        int next = row < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, row + delta));
        if (rows.length > 0) {
            table.setSelection(next);
            publishSelection();
        }
    }

    /** Selects the row of {@code launch} if it passes the filter. */
    public void reveal(int launch) {
        for (int r = 0; r < rows.length; r++) {
            if (rows[r] == launch) {
                table.setSelection(r);
                table.showSelection();
                return;
            }
        }
    }

    private void publishSelection() {
        LoadedTrace t = current;
        int launch = selectedLaunch();
        selectionProvider.setSelection(t == null || launch < 0 ? StructuredSelection.EMPTY
                : new StructuredSelection(new LaunchSelection(t, launch)));
    }

    @Override
    public void dispose() {
        getSite().getPage().removeSelectionListener(listener);
        super.dispose();
    }

    @Override
    public void setFocus() {
        if (!kernelFilter.isFocusControl()) { // a click into the filter activates the view: keep the caret there
            table.setFocus();
        }
    }
}
