package org.phos.workbench.internal.ui.buffers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.analysis.core.AccessAnswer;
import org.phos.workbench.analysis.core.AccessQuery;
import org.phos.workbench.analysis.core.BufferOrder;
import org.phos.workbench.analysis.core.BufferQuery;
import org.phos.workbench.analysis.core.BufferRow;
import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.TableRenderer;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.launches.Analysis;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.ui.model.BufferSelection;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.ViewSelectionProvider;

/**
 * "Buffers": the allocations of the current trace as a memory map over time (address × event, see
 * {@link MemoryMapCanvas}) above a virtual table (the analysis layer's {@link BufferQuery}, columns of
 * {@link BufferRow#TABLE}, sortable by any column through {@link BufferOrder}). The selected launch
 * ({@link LaunchSelection}) draws its time marker and the {@code best} engine's speculated and the tools' observed
 * ranges on the map. Clicking an allocation in the map or the table selects it ({@link BufferSelection}). Export CSV
 * and Copy write the table as the CLI's {@code buffers --sort COL --format csv} does. The table and the layout are
 * built in a Job, the selected launch's accesses in another.
 */
public final class BuffersView extends ViewPart {
    /** The view id in plugin.xml. */
    public static final String ID = "org.phos.workbench.ui.buffersView";
    /** The engine whose speculation the map draws. */
    public static final String ENGINE = "best";

    private final ViewSelectionProvider selectionProvider = new ViewSelectionProvider();
    private final ISelectionListener listener = this::selectionChanged;
    private Label status;
    private MemoryMapCanvas map;
    private Table table;
    private @Nullable LoadedTrace current;
    private org.phos.workbench.analysis.core.table.@Nullable Table<BufferRow> all;
    private List<BufferRow> sorted = List.of();
    private BufferOrder order = BufferOrder.ALLOCATION;
    private @Nullable Job load;
    private @Nullable Job accesses;
    private @Nullable LaunchSelection pendingLaunch;
    private long showNanos;

    @Override
    public void createPartControl(Composite parent) {
        GridLayoutFactory.fillDefaults().margins(4, 4).applyTo(parent);
        status = new Label(parent, SWT.NONE);
        status.setData(TracesView.ROLE, "buffersStatus");
        GridDataFactory.fillDefaults().grab(true, false).applyTo(status);
        SashForm sash = new SashForm(parent, SWT.VERTICAL);
        GridDataFactory.fillDefaults().grab(true, true).applyTo(sash);
        map = new MemoryMapCanvas(sash);
        map.setData(TracesView.ROLE, "memoryMap");
        map.onSelect(this::select);
        table = new Table(sash, SWT.VIRTUAL | SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE);
        table.setData(TracesView.ROLE, "buffers");
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        sash.setWeights(58, 42);
        List<Column<BufferRow>> columns = BufferRow.TABLE.columns();
        for (int c = 0; c < columns.size(); c++) {
            Column<BufferRow> def = columns.get(c);
            TableColumn col = new TableColumn(table, def.rightAligned() ? SWT.RIGHT : SWT.LEFT);
            col.setText(def.header());
            col.setWidth(switch (def.header()) {
            case "allocation" -> 130;
            case "kind" -> 90;
            case "size", "allocated_at", "freed_at" -> 95;
            default -> 125;
            });
            int index = c;
            col.addListener(SWT.Selection, e -> sortBy(index));
        }
        table.addListener(SWT.SetData, e -> {
            TableItem item = (TableItem) e.item;
            int i = table.indexOf(item);
            if (i >= 0 && i < sorted.size()) {
                BufferRow r = sorted.get(i);
                for (int c = 0; c < columns.size(); c++) {
                    item.setText(c, columns.get(c).format(r));
                }
            }
        });
        table.addListener(SWT.Selection, e -> {
            int i = table.getSelectionIndex();
            if (i >= 0 && i < sorted.size()) {
                publish(sorted.get(i));
            }
        });
        Action export = new Action("Export CSV") {
            @Override
            public void run() {
                exportWithDialog();
            }
        };
        export.setToolTipText("Export the allocations as CSV (as the CLI's buffers --sort COL --format csv)");
        Action copy = org.phos.workbench.internal.ui.accuracy.CsvExport.copyAction(table,
                "Copy the allocations as CSV", this::csv);
        getViewSite().getActionBars().getToolBarManager().add(export);
        getViewSite().getActionBars().getToolBarManager().add(copy);
        getViewSite().getActionBars().updateActionBars();
        getSite().setSelectionProvider(selectionProvider);
        getSite().getPage().addSelectionListener(listener);
        IEditorPart editor = getSite().getPage().getActiveEditor();
        show(editor instanceof TraceEditor te ? te.loadedTrace() : null);
        ISelection now = getSite().getPage().getSelection();
        if (now != null) {
            selectionChanged(null, now);
        }
    }

    private void selectionChanged(@Nullable IWorkbenchPart part, ISelection selection) {
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
            showLaunch(ls);
        } else if (o instanceof BufferSelection bs && bs.trace() == current) {
            reveal(bs.buffer());
        }
    }

    /** Shows the allocations of {@code trace} (null: none); the table and the map's layout are built in a Job. */
    public void show(@Nullable LoadedTrace trace) {
        Job previous = load;
        if (previous != null) {
            previous.cancel();
        }
        Job running = accesses;
        if (running != null) {
            running.cancel();
        }
        current = trace;
        all = null;
        sorted = List.of();
        pendingLaunch = null;
        table.setItemCount(0);
        if (trace == null) {
            status.setText("No trace: open one from the Traces view or File > Open Trace…");
            map.showMessage("No trace open.");
            return;
        }
        showNanos = System.nanoTime();
        status.setText("Listing the allocations of " + trace.name() + " …");
        map.showMessage("Listing the allocations of " + trace.name() + " …");
        Display display = table.getDisplay();
        Job job = Job.create("Listing allocations of " + trace.name(), (IProgressMonitor monitor) -> {
            try {
                org.phos.workbench.analysis.core.table.Table<BufferRow> rows = Analysis.session()
                        .buffers(new BufferQuery(trace.trace(), null), monitor);
                MemoryMapLayout layout = MemoryMapLayout.of(rows.rows(), trace.trace().eventCount());
                display.asyncExec(() -> loaded(trace, rows, layout));
                return Status.OK_STATUS;
            } catch (OperationCanceledException e) {
                return Status.CANCEL_STATUS;
            } catch (RuntimeException e) {
                display.asyncExec(() -> failed(trace, "Cannot list the allocations of " + trace.file() + ": " + e));
                return Status.OK_STATUS;
            }
        });
        job.setUser(false);
        load = job;
        job.schedule();
    }

    private void loaded(LoadedTrace trace, org.phos.workbench.analysis.core.table.Table<BufferRow> rows,
            MemoryMapLayout layout) {
        if (table.isDisposed() || trace != current) {
            return;
        }
        all = rows;
        sorted = order.sort(rows).rows();
        table.clearAll();
        table.setItemCount(sorted.size());
        map.setModel(rows.rows(), layout);
        long freed = rows.rows().stream().filter(r -> r.freedAt() >= 0).count();
        status.setText(String.format(Locale.ROOT, "%s: %,d allocations (%,d freed) in %,d address ranges", trace.name(),
                rows.rows().size(), freed, layout.segments().size()));
        LaunchSelection pending = pendingLaunch;
        if (pending != null && pending.trace() == trace) {
            showLaunch(pending);
        }
    }

    private void failed(LoadedTrace trace, String message) {
        if (!table.isDisposed() && trace == current) {
            status.setText(message);
            map.showMessage(message);
        }
    }

    /** Draws {@code ls}'s marker and ranges once its accesses are known (a Job asks the analysis layer). */
    public void showLaunch(LaunchSelection ls) {
        if (all == null) {
            pendingLaunch = ls; // drawn when the allocations are there
            return;
        }
        Job running = accesses;
        if (running != null) {
            running.cancel();
        }
        Display display = table.getDisplay();
        Job job = Job.create("Accesses of launch " + ls.launch() + " of " + ls.trace().name(), (IProgressMonitor m) -> {
            try {
                AccessAnswer answer = Analysis.session().accesses(
                        new AccessQuery(ls.trace().trace(), ls.launch(), List.of(ENGINE), List.of()), m);
                LaunchOverlay overlay = LaunchOverlay.of(answer, ls.event());
                display.asyncExec(() -> {
                    if (!table.isDisposed() && ls.trace() == current) {
                        map.setOverlay(overlay);
                        status.setText(launchStatus(overlay));
                    }
                });
                return Status.OK_STATUS;
            } catch (OperationCanceledException e) {
                return Status.CANCEL_STATUS;
            } catch (RuntimeException e) {
                display.asyncExec(() -> {
                    if (!table.isDisposed()) {
                        status.setText("Cannot compute the accesses of launch " + ls.launch() + " of "
                                + ls.trace().name() + ": " + e.getMessage());
                    }
                });
                return Status.OK_STATUS;
            }
        });
        accesses = job;
        job.schedule();
    }

    private String launchStatus(LaunchOverlay o) {
        String tools = o.tools().isEmpty() ? "no observed truth" : "observed by " + String.join(", ", o.tools());
        return String.format(Locale.ROOT, "%s: launch %,d names %d allocations (speculated by %s, %s)%s",
                current == null ? "" : current.name(), o.launch(), o.allocations().size(), o.engine(), tools,
                o.note() == null ? "" : "; truth unreliable: " + o.note());
    }

    private void sortBy(int column) {
        String key = BufferRow.TABLE.columns().get(column).header();
        order = new BufferOrder(key, key.equals(order.column()) && !order.descending());
        table.setSortColumn(table.getColumn(column));
        table.setSortDirection(order.descending() ? SWT.DOWN : SWT.UP);
        var rows = all;
        if (rows != null) {
            int i = table.getSelectionIndex();
            BufferRow selected = i >= 0 && i < sorted.size() ? sorted.get(i) : null;
            sorted = order.sort(rows).rows();
            table.clearAll();
            if (selected != null) {
                reveal(selected);
            }
        }
    }

    /** Selects {@code r} in the table and on the map and publishes it. */
    private void select(BufferRow r) {
        reveal(r);
        publish(r);
    }

    private void reveal(BufferRow r) {
        for (int i = 0; i < sorted.size(); i++) {
            if (sorted.get(i).allocatedAt() == r.allocatedAt()) {
                table.setSelection(i);
                table.showSelection();
                break;
            }
        }
        map.setSelected(r);
    }

    private void publish(BufferRow r) {
        LoadedTrace t = current;
        map.setSelected(r);
        if (t != null) {
            selectionProvider.setSelection(new StructuredSelection(new BufferSelection(t, r)));
        }
    }

    /** The rows as shown (sorted), empty while loading. */
    public List<BufferRow> rows() {
        return sorted;
    }

    /** The order of the rows. */
    public BufferOrder order() {
        return order;
    }

    /** The trace shown, or null. */
    public @Nullable LoadedTrace trace() {
        return current;
    }

    /** The selected allocation, or null. */
    public @Nullable BufferRow selectedBuffer() {
        int i = table.getSelectionIndex();
        return i >= 0 && i < sorted.size() ? sorted.get(i) : null;
    }

    /**
     * What the map draws for the selected launch: per named allocation (its Alloc event), the observed read and
     * written ranges as absolute {@code [begin, end)} pairs; empty before a launch's accesses arrive.
     */
    public List<long[]> observedRanges(boolean written) {
        LaunchOverlay o = map.overlay();
        List<long[]> out = new ArrayList<>();
        if (o != null) {
            for (LaunchOverlay.Named n : o.allocations()) {
                for (var r : written ? n.observedWritten() : n.observedRead()) {
                    out.add(new long[] { n.base(), r.begin(), r.end() });
                }
            }
        }
        return out;
    }

    /** The launch whose marker the map draws, or -1. */
    public int overlayLaunch() {
        LaunchOverlay o = map.overlay();
        return o == null ? -1 : o.launch();
    }

    /** The allocations the selected launch names (their base addresses), in the map's overlay. */
    public List<Long> overlayAllocations() {
        LaunchOverlay o = map.overlay();
        return o == null ? List.of() : o.allocations().stream().map(LaunchOverlay.Named::base).toList();
    }

    /** Writes the rows (current order) as the CLI's {@code buffers --sort COL --format csv} would. */
    public void exportCsv(Path file) throws IOException {
        if (all == null) {
            throw new IOException("no allocations to export: no trace, or still loading");
        }
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            TableRenderer.CSV.render(order.sort(all), out);
        }
    }

    /** The rows as CSV text, "" without a trace. */
    public String csv() {
        var rows = all;
        if (rows == null) {
            return "";
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        TableRenderer.CSV.render(order.sort(rows), out);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private void exportWithDialog() {
        LoadedTrace t = current;
        if (t == null || all == null) {
            status.setText("No allocations to export");
            return;
        }
        FileDialog dialog = new FileDialog(table.getShell(), SWT.SAVE);
        dialog.setFilterExtensions(new String[] { "*.csv" });
        dialog.setFileName(t.name().replaceFirst("\\.phos$", "") + "-buffers.csv");
        dialog.setOverwrite(true);
        String chosen = dialog.open();
        if (chosen == null) {
            return;
        }
        try {
            exportCsv(Path.of(chosen));
            status.setText("Exported " + sorted.size() + " allocations to " + chosen);
        } catch (IOException | RuntimeException e) {
            status.setText("Cannot write " + chosen + ": " + e.getMessage());
        }
    }

    /** The rows Properties shows for a selected allocation. */
    public static List<String[]> properties(BufferSelection selection) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] { "trace", selection.trace().name() });
        for (Column<BufferRow> c : BufferRow.TABLE.columns()) {
            rows.add(new String[] { c.header(), c.format(selection.buffer()) });
        }
        rows.add(new String[] { "end", "0x" + Long.toHexString(selection.buffer().base() + selection.buffer().size()) });
        return rows;
    }

    /** @return where the map draws the middle of {@code r}'s rectangle, in the map canvas's coordinates */
    public org.eclipse.swt.graphics.Point mapCentre(BufferRow r) {
        return map.centre(r);
    }

    /** @return the allocation the map draws at ({@code x}, {@code y}) of its canvas, or null */
    public @Nullable BufferRow mapHit(int x, int y) {
        return map.hit(x, y);
    }

    /** The map (for tests and the benchmark). */
    MemoryMapCanvas map() {
        return map;
    }

    /** Nanoseconds from the last {@link #show} to the end of the map's first paint with allocations, or -1. */
    public long firstPaintNanos() {
        long painted = map.firstPaintNanos();
        return painted == 0 ? -1 : painted - showNanos;
    }

    /** Repaints the whole map {@code times} into an offscreen image of {@code width} × {@code height}, each timed. */
    public long[] timeRepaints(int width, int height, int times, boolean dropCache) {
        long[] nanos = new long[times];
        org.eclipse.swt.graphics.Image image = new org.eclipse.swt.graphics.Image(map.getDisplay(), width, height);
        try {
            for (int i = 0; i < times; i++) {
                if (dropCache) {
                    map.dropCache();
                }
                org.eclipse.swt.graphics.GC gc = new org.eclipse.swt.graphics.GC(image);
                long t0 = System.nanoTime();
                map.paintInto(gc, width, height);
                gc.dispose();
                nanos[i] = System.nanoTime() - t0;
            }
        } finally {
            image.dispose();
            map.dropCache();
        }
        return nanos;
    }

    @Override
    public void setFocus() {
        table.setFocus();
    }

    @Override
    public void dispose() {
        getSite().getPage().removeSelectionListener(listener);
        for (Job j : new Job[] { load, accesses }) {
            if (j != null) {
                j.cancel();
            }
        }
        super.dispose();
    }
}
