package org.phos.workbench.internal.ui.launches;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
import org.phos.workbench.ui.model.ViewSelectionProvider;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.analysis.core.LaunchQuery;
import org.phos.workbench.analysis.core.LaunchRow;
import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.TableRenderer;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * The "Launches" view: every launch of the current trace (the active trace editor's) in a virtual table whose rows
 * are filled when painted. Filter by kernel regex, sort by clicking a header, {@code .} and {@code ,} step the
 * selection. Selecting a row publishes a {@link LaunchSelection}; a LaunchSelection from elsewhere selects its row.
 * Rows are pages of the analysis layer's {@link LaunchQuery} (columns from {@link LaunchRow#TABLE}); Export CSV
 * renders the same query through {@link TableRenderer#CSV}, as the CLI's {@code launches --format csv} does.
 */
public final class LaunchesView extends ViewPart {
    /** The view id in plugin.xml. */
    public static final String ID = "org.phos.workbench.ui.launchesView";

    private static final int PAGE = 256;

    private final ViewSelectionProvider selectionProvider = new ViewSelectionProvider();
    private Text kernelFilter;
    private Table table;
    private Label status;
    private @org.eclipse.jdt.annotation.Nullable LoadedTrace current;
    private @org.eclipse.jdt.annotation.Nullable LaunchQuery query;
    private int total;
    private final Map<Integer, List<LaunchRow>> pages = new HashMap<>();
    private String sortKey = "launch";
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
        List<Column<LaunchRow>> columns = LaunchRow.TABLE.columns();
        for (int c = 0; c < columns.size(); c++) {
            Column<LaunchRow> def = columns.get(c);
            TableColumn col = new TableColumn(table, def.rightAligned() ? SWT.RIGHT : SWT.LEFT);
            col.setText(def.header());
            col.setWidth(switch (def.header()) {
                case "kernel" -> 340;
                case "params" -> 300;
                case "stream" -> 140;
                case "launch" -> 90;
                case "event", "function", "grid", "block" -> 70;
                default -> 110;
            });
            col.setMoveable(true);
            int index = c;
            col.addListener(SWT.Selection, e -> sortBy(index));
        }
        // shown first what a person scans for (kernel, GPU time); the columns themselves stay the CLI's
        List<String> headers = LaunchRow.TABLE.headers();
        int[] order = java.util.stream.Stream.of("launch", "kernel", "gpu_ns", "host_ns", "stream", "grid", "block",
                "params", "verdict", "event", "function", "gpu_start_ns", "gpu_end_ns").mapToInt(headers::indexOf)
                .filter(i -> i >= 0).toArray();
        if (order.length == headers.size()) {
            table.setColumnOrder(order);
        }
        table.addListener(SWT.SetData, e -> {
            TableItem item = (TableItem) e.item;
            LaunchRow r = row(table.indexOf(item));
            if (r != null) {
                List<Column<LaunchRow>> cs = LaunchRow.TABLE.columns();
                for (int c = 0; c < cs.size(); c++) {
                    item.setText(c, cs.get(c).format(r));
                }
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
        org.eclipse.jface.action.Action export = new org.eclipse.jface.action.Action("Export CSV") {
            @Override
            public void run() {
                exportWithDialog();
            }
        };
        export.setToolTipText("Export the filtered launches as CSV (as the CLI's launches --format csv)");
        org.eclipse.jface.action.Action copy = new org.eclipse.jface.action.Action("Copy") {
            @Override
            public void run() {
                org.eclipse.swt.dnd.Clipboard clipboard = new org.eclipse.swt.dnd.Clipboard(table.getDisplay());
                try {
                    clipboard.setContents(new Object[] { csv() },
                            new org.eclipse.swt.dnd.Transfer[] { org.eclipse.swt.dnd.TextTransfer.getInstance() });
                } finally {
                    clipboard.dispose();
                }
            }
        };
        copy.setToolTipText("Copy the filtered launches as CSV");
        getViewSite().getActionBars().getToolBarManager().add(export);
        getViewSite().getActionBars().getToolBarManager().add(copy);
        getViewSite().getActionBars().updateActionBars();
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

    /** The query of the table's rows (all of them: offset 0, limit = total), or null without a trace. */
    public @org.eclipse.jdt.annotation.Nullable LaunchQuery query() {
        return query;
    }

    /** The launch indices of the rows, in display order. */
    public int[] rows() {
        LaunchQuery q = query;
        if (q == null) {
            return new int[0];
        }
        return Analysis.session().launches(q.withPage(0, total), null).rows().stream()
                .mapToInt(LaunchRow::launch).toArray();
    }

    private void refilter() {
        LoadedTrace t = current;
        pages.clear();
        if (t == null) {
            query = null;
            total = 0;
            table.setItemCount(0);
            status.setText("No trace: open one from the Traces view or File > Open Trace…");
            return;
        }
        String regex = kernelFilter.getText().trim();
        LaunchQuery.Filter filter;
        try {
            filter = new LaunchQuery.Filter(regex.isEmpty() ? null : regex, null, Long.MIN_VALUE, Long.MAX_VALUE,
                    null);
        } catch (PatternSyntaxException e) {
            status.setText("Bad regex: " + e.getDescription());
            return;
        }
        LaunchQuery q = new LaunchQuery(t.trace(), filter, new LaunchQuery.Sort(sortKey, !ascending), null, null, 0,
                0);
        int n = (int) Analysis.session().launches(q, null).total();
        query = q.withPage(0, n);
        total = n;
        table.clearAll();
        table.setItemCount(n);
        status.setText(String.format(Locale.ROOT, "%,d of %,d launches of %s", n, t.trace().launchCount(),
                t.name()));
    }

    private void sortBy(int column) {
        String key = LaunchRow.TABLE.columns().get(column).header();
        if (!LaunchQuery.Sort.COLUMNS.contains(key)) {
            status.setText("Cannot sort by " + key + "; sortable: " + String.join(", ", LaunchQuery.Sort.COLUMNS));
            return;
        }
        if (key.equals(sortKey)) {
            ascending = !ascending;
        } else {
            sortKey = key;
            ascending = true;
        }
        table.setSortColumn(table.getColumn(column));
        table.setSortDirection(ascending ? SWT.UP : SWT.DOWN);
        int selected = selectedLaunch();
        refilter();
        if (selected >= 0) {
            reveal(selected);
        }
    }

    /** The row at display position {@code row}, fetched a page at a time. */
    private @org.eclipse.jdt.annotation.Nullable LaunchRow row(int row) {
        LaunchQuery q = query;
        if (q == null || row < 0 || row >= total) {
            return null;
        }
        int page = row / PAGE;
        List<LaunchRow> rows = pages.computeIfAbsent(page,
                p -> Analysis.session().launches(q.withPage(p * PAGE, PAGE), null).rows());
        int i = row - page * PAGE;
        return i < rows.size() ? rows.get(i) : null;
    }

    /** Writes the table's rows (current filter and sort) as the CLI's {@code launches --format csv} would. */
    public void exportCsv(Path file) throws IOException {
        LaunchQuery q = query;
        if (q == null) {
            throw new IOException("no trace to export");
        }
        org.phos.workbench.analysis.core.table.Table<LaunchRow> rows = Analysis.session().launches(q, null);
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            TableRenderer.CSV.render(rows, out);
        }
    }

    private void exportWithDialog() {
        LoadedTrace t = current;
        if (t == null) {
            status.setText("No trace to export");
            return;
        }
        org.eclipse.swt.widgets.FileDialog dialog = new org.eclipse.swt.widgets.FileDialog(table.getShell(), SWT.SAVE);
        dialog.setFilterExtensions(new String[] { "*.csv" });
        dialog.setFileName(t.name().replaceFirst("\\.phos$", "") + "-launches.csv");
        dialog.setOverwrite(true);
        String chosen = dialog.open();
        if (chosen == null) {
            return;
        }
        try {
            exportCsv(Path.of(chosen));
            status.setText("Exported " + total + " launches to " + chosen);
        } catch (IOException | RuntimeException e) {
            status.setText("Cannot write " + chosen + ": " + e.getMessage());
        }
    }

    /** The table's rows as CSV text. */
    public String csv() {
        LaunchQuery q = query;
        if (q == null) {
            return "";
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        TableRenderer.CSV.render(Analysis.session().launches(q, null), out);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The launch of the selected row, or -1. */
    public int selectedLaunch() {
        LaunchRow r = row(table.getSelectionIndex());
        return r == null ? -1 : r.launch();
    }

    private void step(int delta) {
        int row = table.getSelectionIndex();
        int next = row < 0 ? 0 : Math.max(0, Math.min(total - 1, row + delta));
        if (total > 0) {
            table.setSelection(next);
            publishSelection();
        }
    }

    /** Selects the row of {@code launch} and publishes it as the selection (as a click would). */
    public void selectAndPublish(int launch) {
        reveal(launch);
        publishSelection();
    }

    /** Selects the row of {@code launch} if it passes the filter. */
    public void reveal(int launch) {
        int[] rows = rows();
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
