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

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.analysis.core.LaunchQuery;
import org.phos.workbench.analysis.core.LaunchRow;
import org.phos.workbench.analysis.core.LaunchVerdict;
import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.TableRenderer;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accuracy.SpeculationTheme;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LiveTraces;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.TimeSelection;
import org.phos.workbench.ui.model.ViewSelectionProvider;

/**
 * The "Launches" view: every launch of the current trace (the active trace editor's) in a virtual table whose rows
 * are filled when painted. Filters as the {@code launches} command's options ({@link LaunchFilterBar}: kernel regex,
 * stream, verdict under an engine, host-time range, which follows a range dragged on the Trace Timeline), sort by
 * clicking a header, go to launch N (field or Ctrl+G), {@code .} and {@code ,} step the selection. Selecting a row
 * publishes a {@link LaunchSelection}; a LaunchSelection from elsewhere selects its row.
 * <p>
 * Rows are pages of the analysis layer's {@link LaunchQuery} (columns from {@link LaunchRow#TABLE}). Every query
 * that may walk the whole trace (the filter and sort, verdicts, finding a launch's row) runs in a {@link Job}; the
 * table keeps showing the previous answer until the new one is there. Export CSV renders the same query through
 * {@link TableRenderer#CSV}, as the CLI's {@code launches --format csv} does.
 */
public final class LaunchesView extends ViewPart {
    /** The view id in plugin.xml. */
    public static final String ID = "org.phos.workbench.ui.launchesView";

    /**
     * Rows decoded at a time, on the UI thread while scrolling: two screens. A page of a sorted order holds launches
     * from all over the trace, each decoded against its live allocations, so a larger page made a jump of the
     * slider slow (256 rows: 73 ms at worst on 10M launches sorted by GPU time).
     */
    private static final int PAGE = 64;
    /** Decoded pages kept (LRU): scrolling through millions of rows does not keep them all. */
    private static final int PAGES_KEPT = 256;
    private static final int VERDICT_WIDTH = 125;

    private final ViewSelectionProvider selectionProvider = new ViewSelectionProvider();
    private LaunchFilterBar filters;
    private WindowedTable rowsTable;
    private Table table;
    private Label status;
    private @Nullable LoadedTrace current;
    private @Nullable LaunchQuery query;
    private int total;
    private final Map<Integer, List<LaunchRow>> pages = new java.util.LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, List<LaunchRow>> eldest) {
            return size() > PAGES_KEPT;
        }
    };
    // i14-attachui: begin
    /** The trace whose rows the table shows (a live trace's generation being listed may be newer). */
    private @Nullable LoadedTrace listedTrace;
    /** System.nanoTime() when the last listing's rows were handed to the table. */
    private volatile long rowsShownAtNanos;
    // i14-attachui: end
    private String sortKey = "launch";
    private boolean ascending = true;
    private final ISelectionListener listener = this::selectionChanged;
    /** i14-attachui: a live trace shown here moves on to its newest generation, whichever part is active. */
    private final java.util.function.Consumer<LoadedTrace> generations = t -> {
        if (t != current && LiveTraces.sameSession(current, t) && !table.isDisposed()) {
            show(t);
        } else if (t == current && t == listedTrace && this.speculatedColumn >= 0 && !table.isDisposed()) {
            rowsTable.refresh(); // i14-livebest: its speculation came after its rows: refill the rows on screen
        }
    };
    private int verdictColumn = -1;
    private int javaSiteColumn = -1; // i14-agent
    private long javaSourceByKeyMs; // i14-jsrc: when Enter opened a Java line (its DefaultSelection then does not)
    private int javaSitePressCell = -1; // i14-jsrc: the table row index of the last press on a java_site cell
    private long javaSitePressMs; // i14-jsrc
    // i14-incr: begin
    /** The view's own column after LaunchRow's: a live launch's speculation (made for a live trace, removed for an
     * ordinary one: -1 then). */
    private int speculatedColumn = -1;
    private int launchColumn = -1;
    /**
     * "Older events are in FILE — Open": made for the first live trace whose window left events out (a hidden link
     * among the filter bar's controls upset choosing in its combos by keyboard under Xvfb), hidden for other traces.
     */
    private org.eclipse.swt.widgets.@Nullable Link older;
    // i14-incr: end
    /** Counts queries asked; an answer for an older one is dropped. */
    private int generation;
    /** The generation whose answer the table shows. */
    private int listed;
    private @Nullable Job listing;
    private @Nullable Job locating;
    /** A launch to select once the rows of the query being listed are there (-1: none). */
    private int pendingLaunch = -1;
    private boolean pendingPublish;
    private long shownAtNanos;
    private long paintedAtNanos;

    @Override
    public void createPartControl(Composite parent) {
        GridLayoutFactory.fillDefaults().margins(4, 4).spacing(0, 3).applyTo(parent);
        filters = new LaunchFilterBar(parent, this::refilter, launch -> goTo(launch, true), this::message);
        status = new Label(parent, SWT.NONE);
        status.setData(TracesView.ROLE, "launchesStatus");
        GridDataFactory.fillDefaults().grab(true, false).applyTo(status);

        rowsTable = new WindowedTable(parent, this::fill, row -> publishSelection());
        table = rowsTable.table();
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
                case "verdict" -> 0; // shown when an engine is chosen
                case "java_site" -> 0; // i14-agent: shown when the trace has Java call sites (JCuda agent)
                case "launch" -> 90;
                case "event", "function", "grid", "block" -> 70;
                default -> 110;
            });
            col.setMoveable(true);
            if (def.header().equals("verdict")) {
                verdictColumn = c;
                col.setResizable(false);
            }
            // i14-agent: begin
            if (def.header().equals("java_site")) {
                javaSiteColumn = c;
                col.setResizable(false);
            }
            // i14-agent: end
            int index = c;
            col.addListener(SWT.Selection, e -> sortBy(index));
            // SWT on GTK reports a click on the same header within the double-click time as DefaultSelection (and
            // under XTest every posted click is within it): each click toggles the order all the same
            col.addListener(SWT.DefaultSelection, e -> sortBy(index));
        }
        launchColumn = LaunchRow.TABLE.headers().indexOf("launch"); // i14-incr
        // shown first what a person scans for (kernel, GPU time); the columns themselves stay the CLI's
        List<String> headers = LaunchRow.TABLE.headers();
        // the verdict next to the launch, so that choosing an engine shows it without scrolling (hidden without one)
        int[] order = java.util.stream.Stream.of("launch", "verdict", "kernel", "java_site" /* i14-agent */, "gpu_ns",
                "host_ns", "stream", "grid", "block", "params", "event", "function", "gpu_start_ns", "gpu_end_ns")
                .mapToInt(headers::indexOf)
                .filter(i -> i >= 0).toArray();
        if (order.length == headers.size()) {
            table.setColumnOrder(order);
        }
        table.addListener(SWT.Paint, e -> {
            if (paintedAtNanos == 0 && query != null && total > 0) {
                paintedAtNanos = System.nanoTime();
                org.phos.workbench.internal.ui.trace.OpeningTimes.mark("Launches table painted");
            }
        });
        table.addListener(SWT.KeyDown, e -> {
            if (e.character == '.') {
                step(1);
                e.doit = false;
            } else if (e.character == ',') {
                step(-1);
                e.doit = false;
            } else if ((e.stateMask & SWT.MOD1) != 0 && (e.keyCode == 'g' || e.keyCode == 'G')) {
                filters.focusGoTo();
                e.doit = false;
            } else if ((e.keyCode == SWT.CR || e.keyCode == SWT.KEYPAD_CR) && openJavaSource()) { // i14-jsrc
                javaSourceByKeyMs = System.currentTimeMillis();
                e.doit = false;
            }
        });
        // i14-jsrc: begin (a double click on a java_site cell opens that Java line)
        // (detected from the presses too: GTK makes no double click of presses posted through XTest)
        table.addListener(SWT.MouseDown, e -> {
            int cell = e.button == 1 ? siteCellUnderPointer() : -1;
            long now = System.currentTimeMillis();
            boolean second = cell >= 0 && cell == javaSitePressCell
                    && now - javaSitePressMs <= table.getDisplay().getDoubleClickTime();
            javaSitePressCell = second ? -1 : cell;
            javaSitePressMs = now;
            if (second) {
                // after the press's own selection: the row pressed is the row opened
                table.getDisplay().asyncExec(() -> {
                    if (!table.isDisposed() && openJavaSource()) {
                        javaSourceByKeyMs = System.currentTimeMillis();
                    }
                });
            }
        });
        table.addListener(SWT.DefaultSelection, e -> {
            if (siteCellUnderPointer() >= 0 && System.currentTimeMillis() - javaSourceByKeyMs > 500) {
                openJavaSource();
            }
        });
        // i14-jsrc: end
        GridDataFactory.fillDefaults().grab(true, true).applyTo(rowsTable.control());
        // i14-attachui: begin (scrolling back in a live trace stops following; scrolling to the end resumes it)
        rowsTable.onUserScroll(() -> {
            LiveTraces.Session live = LiveTraces.of(current);
            if (live != null) {
                live.setFollowing(rowsTable.atEnd());
            }
        });
        // i14-attachui: end
        org.eclipse.jface.action.Action export = new org.eclipse.jface.action.Action("Export CSV") {
            @Override
            public void run() {
                exportWithDialog();
            }
        };
        export.setToolTipText("Export the filtered launches as CSV (as the CLI's launches --format csv)");
        org.eclipse.jface.action.Action copy = org.phos.workbench.internal.ui.accuracy.CsvExport.copyAction(table,
                "Copy the filtered launches as CSV", this::csv);
        getViewSite().getActionBars().getToolBarManager().add(export);
        getViewSite().getActionBars().getToolBarManager().add(copy);
        getViewSite().getActionBars().updateActionBars();
        getSite().setSelectionProvider(selectionProvider);
        // i12-exp-ui: begin: context menu (New Experiment at This Launch...)
        org.phos.workbench.internal.ui.experiment.ExperimentMenus.attach(getSite(), table, selectionProvider);
        // i12-exp-ui: end
        getSite().getPage().addSelectionListener(listener);
        LiveTraces.addGenerationListener(generations); // i14-attachui
        IEditorPart editor = getSite().getPage().getActiveEditor();
        if (editor instanceof TraceEditor te && te.loadedTrace() != null) {
            show(te.loadedTrace());
        } else {
            show(null);
        }
    }

    private void fill(TableItem item, int position) {
        LaunchRow r = row(position);
        List<Column<LaunchRow>> cs = LaunchRow.TABLE.columns();
        for (int c = 0; c < cs.size(); c++) {
            item.setText(c, r == null ? "" : cs.get(c).format(r));
        }
        // i14-incr: begin (a live trace: the stream's launch numbers, and what was speculated when the launch came)
        LaunchQuery q = query;
        if (r != null && q != null && LiveTraces.of(listedTrace) != null) {
            item.setText(launchColumn, Long.toString(Analysis.session().launchNumber(q.trace(), r.launch())));
            if (speculatedColumn >= 0) {
                item.setText(speculatedColumn, org.phos.workbench.internal.ui.attach.LiveAnalysis
                        .summary(Analysis.session(), q.trace(), r.launch()));
            }
        } else if (speculatedColumn >= 0) {
            item.setText(speculatedColumn, "");
        }
        // i14-incr: end
        LaunchVerdict v = r == null ? null : r.verdict();
        if (verdictColumn >= 0) {
            item.setForeground(verdictColumn, v == null ? null : verdictColor(v));
        }
    }

    /** The theme colour of a launch verdict (grey for launches nothing can be judged on). */
    static Color verdictColor(LaunchVerdict v) {
        return v.access() != null ? SpeculationTheme.verdict(v.access()) : SpeculationTheme.color("unreliable");
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
        } else if (o instanceof TimeSelection ts) {
            showRange(ts);
        }
    }

    /** Shows the launches of {@code trace} (null: none). */
    public void show(@Nullable LoadedTrace trace) {
        if (trace != current && LiveTraces.sameSession(current, trace)) {
            current = trace; // i14-attachui: the next generation of a live trace: keep filter and place
        } else if (trace != current) {
            current = trace;
            shownAtNanos = System.nanoTime();
            paintedAtNanos = 0;
            filters.setStreams(new long[0], new long[0]); // streams and host times belong to one trace
            filters.setRange(null, null);
            query = null;
            total = 0;
            pages.clear();
            rowsTable.select(-1);
            rowsTable.setRowCount(0);
        }
        gpuTimeTooltip(trace); // i15-cost
        refilter();
    }

    // i15-cost: begin
    /** The GPU-time columns say how this trace's GPU times were taken (every launch, or a sample of them). */
    private void gpuTimeTooltip(@Nullable LoadedTrace trace) {
        String how = trace == null ? "" : gpuTimeHow(trace.trace());
        for (org.eclipse.swt.widgets.TableColumn col : table.getColumns()) {
            String h = col.getText();
            if (h.equals("gpu_ns") || h.equals("gpu_start_ns") || h.equals("gpu_end_ns")) {
                col.setToolTipText(how);
            }
        }
    }

    /** One paragraph for the tooltips of the GPU-time columns. */
    public static String gpuTimeHow(org.phos.workbench.trace.core.Trace trace) {
        if (!trace.header().gpuTiming()) {
            return "GPU times: not recorded (the recorder ran with PHOS_TIMING=0)";
        }
        org.phos.workbench.trace.core.GpuTimingSampling p = trace.header().timingSampling();
        if (!p.sampled()) {
            return "GPU times measured for every launch (empty: not measured)";
        }
        return "GPU times of a sample of launches: " + p.describe() + ". Empty cells are launches that were not "
                + "timed; kernel GPU times (info, Kernels) are estimated per launch shape (function, grid, block) "
                + "from the timed launches";
    }
    // i15-cost: end

    /** Keeps only the launches issued in the selected time range (a range dragged on the Trace Timeline). */
    public void showRange(TimeSelection range) {
        if (range.trace() != current) {
            show(range.trace());
        }
        filters.setRange(range.fromNs(), range.toNs());
        refilter();
    }

    // i14-attachui: begin
    /** System.nanoTime() when the rows of the last listing reached the table (live latency figures), 0 before. */
    public long rowsShownAtNanos() {
        return rowsShownAtNanos;
    }

    /** The trace whose rows the table shows now. */
    public @Nullable LoadedTrace listedTrace() {
        return listedTrace;
    }
    // i14-attachui: end

    /** The trace shown, or null. */
    public @Nullable LoadedTrace trace() {
        return current;
    }

    /** The query of the table's rows (all of them: offset 0, limit = total), or null without a trace. */
    public @Nullable LaunchQuery query() {
        return query;
    }

    /** The number of rows (launches that pass the filter). */
    public int rowCount() {
        return total;
    }

    /** The first row on screen. */
    public int topRow() {
        return rowsTable.topRow();
    }

    /** The rows that fit on screen. */
    public int visibleRows() {
        return rowsTable.visibleRows();
    }

    /** The table's width in pixels. */
    public int tableWidth() {
        return table.getSize().x;
    }

    /**
     * Scrolls so that row {@code row} is the first on screen, as the wheel and the slider do, and paints the table at
     * once (for the scrolling benchmark: the time of this call is the time of one scroll's repaint).
     */
    public void scrollToRow(int row) {
        rowsTable.scrollTo(row);
        table.update();
    }

    /** Sorts by the column with header {@code header}, as a click on that header does (a second call reverses). */
    public void sortByHeader(String header) {
        int column = LaunchRow.TABLE.columns().stream().map(c -> c.header()).toList().indexOf(header);
        if (column < 0) {
            throw new IllegalArgumentException("no column " + header);
        }
        sortBy(column);
    }

    /** The status line: counts, or what was wrong with the input. */
    public String statusText() {
        return status.getText();
    }

    /**
     * Nanoseconds from the moment the current trace was handed to the view to the first paint of the table with its
     * rows, or 0 while not yet painted.
     */
    public long firstPaintNanos() {
        return paintedAtNanos == 0 ? 0 : paintedAtNanos - shownAtNanos;
    }

    /** System.nanoTime() of that first paint, 0 while not painted. */
    public long paintedAtNanos() {
        return paintedAtNanos;
    }

    /** The launch indices of the rows, in display order (reads every row: for small traces and tests). */
    public int[] rows() {
        LaunchQuery q = query;
        if (q == null) {
            return new int[0];
        }
        return Analysis.session().launches(q.withPage(0, total), null).rows().stream()
                .mapToInt(LaunchRow::launch).toArray();
    }

    /** Runs the query the controls describe, in a Job; the table keeps the previous rows until the answer. */
    private void refilter() {
        LoadedTrace t = current;
        if (t == null) {
            cancel(listing);
            listed = ++generation;
            listedTrace = null; // i14-attachui
            query = null;
            total = 0;
            pages.clear();
            rowsTable.setRowCount(0);
            status.setText("No trace: open one from the Traces view or File > Open Trace…");
            return;
        }
        LaunchFilterBar.Request request;
        try {
            request = filters.read();
        } catch (LaunchFilterBar.BadFilterException e) {
            message(e.getMessage() + " (the table still shows the previous filter)");
            return;
        }
        int asked = ++generation;
        cancel(listing);
        LaunchQuery q = new LaunchQuery(t.trace(), request.filter(), new LaunchQuery.Sort(sortKey, !ascending),
                request.engine(), null, 0, 0);
        boolean needStreams = filters.streamsMissing();
        Display display = table.getDisplay();
        if (LiveTraces.sameSession(listedTrace, t)) {
            // i14-attachui: a live trace's next generation: the status line keeps the last counts meanwhile
        } else if (query != null) {
            status.setText(request.engine() == null ? "Filtering…"
                    : "Filtering (validating " + request.engine() + " over the trace the first time)…");
        } else {
            status.setText("Listing the launches of " + t.name() + "…");
        }
        Job job = new TraceJob("Listing launches of " + t.name(), t) {
            @Override
            protected IStatus run(IProgressMonitor monitor) {
                try {
                    org.phos.workbench.internal.ui.trace.OpeningTimes.mark("listing started");
                    org.phos.workbench.analysis.core.table.Table<LaunchRow> first = Analysis.session()
                            .launches(q.withPage(0, PAGE), monitor);
                    org.phos.workbench.internal.ui.trace.OpeningTimes.mark("first page listed");
                    display.asyncExec(() -> showRows(asked, t, q, first));
                    if (needStreams) {
                        long[][] streams = streams(t.trace(), monitor);
                        display.asyncExec(() -> {
                            if (t == current && !table.isDisposed()) {
                                filters.setStreams(streams[0], streams[1]);
                            }
                        });
                    }
                    return Status.OK_STATUS;
                } catch (OperationCanceledException e) {
                    return Status.CANCEL_STATUS;
                } catch (RuntimeException e) {
                    display.asyncExec(() -> {
                        if (asked == generation && !table.isDisposed()) {
                            message("Cannot list the launches of " + t.name() + ": " + e.getMessage());
                        }
                    });
                    return Status.OK_STATUS;
                }
            }
        };
        if (query == null) { // the trace's first listing: the editor's overview waits for it
            job.setRule(org.phos.workbench.internal.ui.trace.TraceJobs.opening(t));
        }
        listing = job;
        job.schedule();
    }

    private void showRows(int asked, LoadedTrace t, LaunchQuery q,
            org.phos.workbench.analysis.core.table.Table<LaunchRow> first) {
        if (asked != generation || t != current || table.isDisposed()) {
            return;
        }
        int n = (int) first.total();
        listed = asked;
        query = q.withPage(0, n);
        total = n;
        pages.clear();
        pages.put(0, first.rows());
        // i14-attachui: begin (a live trace's next generation keeps the place, or follows the newest rows)
        LiveTraces.Session live = LiveTraces.of(t);
        boolean continuing = LiveTraces.sameSession(listedTrace, t);
        listedTrace = t;
        if (!continuing) {
            rowsTable.select(-1);
            rowsTable.scrollTo(0);
        }
        rowsTable.setRowCount(n);
        if (live != null && live.following()) {
            rowsTable.scrollTo(Math.max(0, n - rowsTable.visibleRows()));
        }
        rowsShownAtNanos = System.nanoTime();
        // i14-attachui: end
        org.phos.workbench.internal.ui.trace.OpeningTimes.mark("rows handed to the table");
        String engine = q.verdictEngine();
        TableColumn verdicts = table.getColumn(verdictColumn);
        if ((verdicts.getWidth() > 0) != (engine != null)) {
            verdicts.setWidth(engine == null ? 0 : VERDICT_WIDTH);
            verdicts.setResizable(engine != null);
        }
        // i14-agent: begin
        TableColumn sites = table.getColumn(javaSiteColumn);
        boolean hasSites = first.rows().stream().anyMatch(r -> r.javaSite() != null);
        if ((sites.getWidth() > 0) != hasSites) {
            sites.setWidth(hasSites ? siteWidth(first.rows()) : 0); // i14-jsites: wide enough for the line number
            sites.setResizable(hasSites);
        }
        // i14-agent: end
        // i14-incr: begin
        if (live != null && speculatedColumn < 0) {
            // made for the first live trace only (a hidden extra column upset choosing in the filter bar's combos by
            // keyboard under Xvfb in LaunchFiltersUiTest), placed after the verdict
            TableColumn col = new TableColumn(table, SWT.LEFT);
            col.setText("speculated");
            col.setToolTipText("A live trace's launches are speculated as they arrive: per engine, the allocations it "
                    + "says the launch reads (r) and writes (w); a dash: the engine cannot speak for the launch (the "
                    + "Accesses view shows the byte ranges)");
            col.setMoveable(true);
            col.setWidth(0);
            speculatedColumn = table.getColumnCount() - 1;
            int[] now = table.getColumnOrder();
            int[] order = new int[now.length];
            int k = 0;
            for (int c : now) {
                if (c == speculatedColumn) {
                    continue;
                }
                order[k++] = c;
                if (c == verdictColumn) {
                    order[k++] = speculatedColumn;
                }
            }
            if (k == now.length) {
                table.setColumnOrder(order);
            }
        }
        if (live == null && speculatedColumn >= 0) {
            // an ordinary trace: the view's columns are the launch table's again (the CLI's, as tests compare)
            table.getColumn(speculatedColumn).dispose();
            speculatedColumn = -1;
        }
        if (speculatedColumn >= 0) {
            TableColumn spec = table.getColumn(speculatedColumn);
            if ((spec.getWidth() > 0) != (live != null)) {
                spec.setWidth(live != null ? 480 : 0); // five engines: "phos 3r 3w · arg-scan 3r 3w · ... · best 3r 3w"
                spec.setResizable(live != null);
            }
        }
        java.nio.file.Path olderFile = live == null ? null : live.olderEventsFile();
        String olderText = olderFile == null ? "" : "Older events are in " + olderFile + " — <a>Open</a>";
        org.eclipse.swt.widgets.Link link = older;
        if (link == null && olderFile != null) {
            link = new org.eclipse.swt.widgets.Link(status.getParent(), SWT.NONE);
            link.setData(TracesView.ROLE, "olderEvents");
            link.moveBelow(status);
            GridDataFactory.fillDefaults().grab(true, false).applyTo(link);
            link.addListener(SWT.Selection, e -> {
                LiveTraces.Session s = LiveTraces.of(current);
                if (s != null) {
                    s.openOlderEvents();
                }
            });
            older = link;
        }
        if (link != null && (!olderText.equals(link.getText()) || link.getVisible() != (olderFile != null))) {
            link.setText(olderText);
            link.setVisible(olderFile != null);
            ((org.eclipse.swt.layout.GridData) link.getLayoutData()).exclude = olderFile == null;
            link.getParent().layout(true);
        }
        // i14-incr: end
        status.setText(String.format(Locale.ROOT, "%,d of %,d launches of %s%s", n, t.trace().launchCount(),
                t.name(), engine == null ? "" : "; verdicts under " + engine)
                + (live == null ? "" : " — " + live.note())); // i14-attachui
        if (pendingLaunch >= 0) {
            int launch = pendingLaunch;
            pendingLaunch = -1;
            goTo(launch, pendingPublish);
        }
    }

    /** The distinct streams of the trace's launches and their launch counts, by handle (unsigned). */
    static long[][] streams(Trace trace, IProgressMonitor monitor) {
        Map<Long, long[]> counts = new HashMap<>();
        long last = 0;
        long[] lastCount = null;
        for (int l = 0; l < trace.launchCount(); l++) {
            if ((l & 0xfffff) == 0 && monitor.isCanceled()) {
                throw new OperationCanceledException();
            }
            long s = trace.stream(trace.launchEvent(l));
            if (lastCount == null || s != last) {
                last = s;
                lastCount = counts.computeIfAbsent(s, k -> new long[1]);
            }
            lastCount[0]++;
        }
        // unsigned order: handles are addresses
        Long[] boxed = counts.keySet().toArray(Long[]::new);
        java.util.Arrays.sort(boxed, Long::compareUnsigned);
        long[] handles = java.util.Arrays.stream(boxed).mapToLong(Long::longValue).toArray();
        long[] n = new long[handles.length];
        for (int i = 0; i < handles.length; i++) {
            n[i] = counts.get(handles[i])[0];
        }
        return new long[][] { handles, n };
    }

    private void sortBy(int column) {
        String key = LaunchRow.TABLE.columns().get(column).header();
        if (!LaunchQuery.Sort.COLUMNS.contains(key)) {
            message("Cannot sort by " + key + "; sortable: " + String.join(", ", LaunchQuery.Sort.COLUMNS));
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
        if (selected >= 0) {
            pendingLaunch = selected;
            pendingPublish = false;
        }
        refilter();
    }

    /** The row at display position {@code row}, fetched a page at a time. */
    private @Nullable LaunchRow row(int row) {
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
        org.phos.workbench.analysis.core.table.Table<LaunchRow> rows = numberedAsTheStream(q.trace(),
                Analysis.session().launches(q, null)); // i14-livebest
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            TableRenderer.CSV.render(rows, out);
        }
    }

    private void exportWithDialog() {
        LoadedTrace t = current;
        if (t == null) {
            message("No trace to export");
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
            message("Cannot write " + chosen + ": " + e.getMessage());
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
        TableRenderer.CSV.render(numberedAsTheStream(q.trace(), Analysis.session().launches(q, null)), out); // i14-livebest
        return bytes.toString(StandardCharsets.UTF_8);
    }

    // i14-livebest: begin
    /**
     * The rows with the launch column of the table on screen: a live trace's generation numbers its launches from the
     * window's start, a person and {@code speculate --launch N} on the saved stream count them from the stream's
     * start ({@link org.phos.workbench.analysis.core.AnalysisSession#launchNumber}); for any other trace the numbers
     * are the trace's own.
     */
    static org.phos.workbench.analysis.core.table.Table<LaunchRow> numberedAsTheStream(Trace trace,
            org.phos.workbench.analysis.core.table.Table<LaunchRow> rows) {
        List<Column<LaunchRow>> columns = new java.util.ArrayList<>();
        for (Column<LaunchRow> c : rows.def().columns()) {
            columns.add(!c.header().equals("launch") ? c
                    : Column.integer("launch", c.unit(), r -> Analysis.session().launchNumber(trace, r.launch())));
        }
        return new org.phos.workbench.analysis.core.table.Table<>(
                new org.phos.workbench.analysis.core.table.TableDef<>(rows.def().name(), columns), rows.rows(),
                rows.offset(), rows.total());
    }
    // i14-livebest: end

    /** The launch of the selected row, or -1. */
    public int selectedLaunch() {
        LaunchRow r = row(rowsTable.selectedRow());
        return r == null ? -1 : r.launch();
    }

    private void step(int delta) {
        int row = rowsTable.selectedRow();
        int next = row < 0 ? 0 : Math.max(0, Math.min(total - 1, row + delta));
        if (total > 0) {
            rowsTable.select(next);
            publishSelection();
        }
    }

    /** Selects the row of {@code launch} and publishes it as the selection (as a click would). */
    public void selectAndPublish(int launch) {
        goTo(launch, true);
    }

    /** Selects the row of {@code launch} if it passes the filter (found in a Job). */
    public void reveal(int launch) {
        goTo(launch, false);
    }

    /**
     * Selects and reveals launch {@code launch}: its row is found in a Job ({@link LaunchLocator}); a launch outside
     * the trace or hidden by the filter is said in the status line.
     */
    public void goTo(int launch, boolean publish) {
        LoadedTrace t = current;
        if (t == null) {
            message("Go to launch " + launch + ": no trace is open");
            return;
        }
        int count = t.trace().launchCount();
        if (launch < 0 || launch >= count) {
            message(String.format(Locale.ROOT, "Launch %,d is not in %s: its launches are 0 to %,d", launch, t.name(),
                    count - 1));
            return;
        }
        LaunchQuery q = query;
        if (q == null || listed != generation) {
            pendingLaunch = launch; // the rows being listed: select it when they are there
            pendingPublish = publish;
            return;
        }
        int asked = generation;
        LaunchRow known = row(rowsTable.selectedRow());
        if (known != null && known.launch() == launch) {
            rowsTable.select(rowsTable.selectedRow());
            if (publish) {
                publishSelection();
            }
            return;
        }
        cancel(locating);
        Display display = table.getDisplay();
        Job job = new TraceJob("Finding launch " + launch + " of " + t.name(), t) {
            @Override
            protected IStatus run(IProgressMonitor monitor) {
                try {
                    int row = LaunchLocator.row(Analysis.session(), q, launch, monitor);
                    display.asyncExec(() -> select(asked, launch, row, publish));
                    return Status.OK_STATUS;
                } catch (OperationCanceledException e) {
                    return Status.CANCEL_STATUS;
                }
            }
        };
        locating = job;
        job.schedule();
    }

    private void select(int asked, int launch, int row, boolean publish) {
        if (asked != generation || table.isDisposed() || current == null) {
            return;
        }
        if (row < 0) {
            message(String.format(Locale.ROOT, "Launch %,d is hidden by the filter (kernel, stream, verdict, time)",
                    launch));
            return;
        }
        rowsTable.select(row);
        if (publish) {
            publishSelection();
        }
    }

    private void message(String text) {
        if (!status.isDisposed()) {
            status.setText(text);
            status.setToolTipText(text);
        }
    }

    // i14-jsrc: begin
    /** The table row index whose java_site cell the pointer is over, or -1. */
    private int siteCellUnderPointer() {
        org.eclipse.swt.graphics.Point p = table.toControl(table.getDisplay().getCursorLocation());
        org.eclipse.swt.widgets.TableItem item = table.getItem(p);
        return item != null && javaSiteColumn >= 0 && table.getColumn(javaSiteColumn).getWidth() > 0
                && item.getBounds(javaSiteColumn).contains(p) ? table.indexOf(item) : -1;
    }

    /** Opens the Java line of the selected launch when it has a java_site; whether it had one. */
    private boolean openJavaSource() {
        LoadedTrace t = current;
        LaunchRow r = row(rowsTable.selectedRow());
        if (t == null || r == null || JavaSourceSite.parse(r.javaSite()) == null) {
            return false;
        }
        JavaSourceOpener.open(getSite().getWorkbenchWindow(), new LaunchSelection(t, r.launch()));
        return true;
    }
    // i14-jsrc: end

    private void publishSelection() {
        LoadedTrace t = current;
        int launch = selectedLaunch();
        selectionProvider.setSelection(t == null || launch < 0 ? StructuredSelection.EMPTY
                : new StructuredSelection(new LaunchSelection(t, launch)));
    }

    private static void cancel(@Nullable Job job) {
        if (job != null) {
            job.cancel();
        }
    }

    @Override
    public void dispose() {
        cancel(listing);
        cancel(locating);
        getSite().getPage().removeSelectionListener(listener);
        LiveTraces.removeGenerationListener(generations); // i14-attachui
        super.dispose();
    }

    @Override
    public void setFocus() {
        if (!filters.hasFocus()) { // a click into a filter activates the view: keep the caret there
            table.setFocus();
        }
    }

    /** A job about one trace: its family is the trace, so closing the trace can cancel its work. */
    private abstract static class TraceJob extends Job {
        private final LoadedTrace trace;

        TraceJob(String name, LoadedTrace trace) {
            super(name);
            this.trace = trace;
            setPriority(Job.INTERACTIVE);
        }

        @Override
        public boolean belongsTo(Object family) {
            return family == trace;
        }
    }

    // i14-jsites: begin
    /** A java_site column wide enough for the longest site among {@code rows} (a line number clipped says nothing). */
    private int siteWidth(List<LaunchRow> rows) {
        org.eclipse.swt.graphics.GC gc = new org.eclipse.swt.graphics.GC(table);
        try {
            int w = 200;
            for (LaunchRow r : rows) {
                if (r.javaSite() != null) {
                    w = Math.max(w, gc.textExtent(r.javaSite()).x + 24);
                }
            }
            return Math.min(w, 640);
        } finally {
            gc.dispose();
        }
    }
    // i14-jsites: end
}
