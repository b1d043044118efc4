package org.phos.workbench.internal.ui.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.IJobChangeEvent;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.core.runtime.jobs.JobChangeAdapter;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.IMenuManager;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.jface.action.Separator;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.TableEditor;
import org.eclipse.swt.dnd.Clipboard;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.program.Program;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.ProgressBar;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IPartListener2;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.IWorkbenchPartReference;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.analysis.core.experiment.SavedExperiment;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.ui.PhoenixUi;
import org.phos.workbench.ui.model.ExperimentComparison;
import org.phos.workbench.ui.model.ExperimentSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.ViewSelectionProvider;

/**
 * "Experiments": the C/R experiments saved beside the open traces (listed from each trace's
 * {@link ExperimentStore}, again when a trace opens or closes, and on F5), and the ones just run. Selecting one opens
 * it (from its saved files, no simulation) and publishes an {@link ExperimentSelection} (the C/R views show its
 * runs); selecting two publishes an {@link ExperimentComparison}. Enter opens, F2 renames in place, Delete asks in
 * the view's bar and then deletes the folder, Ctrl+R re-runs, Ctrl+C copies the folder's path; the context menu has
 * them all. An experiment whose trace changed since it ran is marked stale. A running experiment shows its progress
 * and a Cancel button at the bottom.
 */
public final class ExperimentsView extends ViewPart {
    /** The view id in plugin.xml. */
    public static final String ID = PhoenixUi.EXPERIMENTS_VIEW_ID;

    /** One row: an experiment of an opened trace, saved, run or both. */
    private static final class Row {
        final LoadedTrace trace;
        String name;
        @Nullable
        SavedExperiment saved;
        @Nullable
        ExperimentSelection opened;
        /** An open Job for this row is on its way (selection events can come twice). */
        boolean opening;

        Row(LoadedTrace trace, String name) {
            this.trace = trace;
            this.name = name;
        }

        @Nullable
        ExperimentConfig config() {
            ExperimentSelection o = opened;
            SavedExperiment s = saved;
            return o != null ? o.result().config() : s != null ? s.config() : null;
        }
    }

    private final ViewSelectionProvider selection = new ViewSelectionProvider();
    private final List<Row> rows = new ArrayList<>();
    private final Map<Path, ExperimentStore> stores = new HashMap<>();
    private final ISelectionListener traceListener = this::pageSelection;
    private final Set<LoadedTrace> listed = new HashSet<>();
    private final List<ExperimentJob> running = new ArrayList<>();
    private final List<ProgressGap> progressGaps = new ArrayList<>();
    private String lastProgressText = "";
    private Table table;
    private Label status;
    private Composite progressBar;
    private Label progressText;
    private ProgressBar bar;
    private Button cancel;
    private Composite confirmBar;
    private Label confirmText;
    private @Nullable Runnable confirmed;
    private @Nullable TableEditor renameEditor;
    private long lastMoves = -1;
    private long lastProgressNs;
    private Action openAction;
    private Action rerunAction;
    private Action renameAction;
    private Action deleteAction;
    private Action copyPathAction;
    private Action openFolderAction;

    @Override
    public void createPartControl(Composite parent) {
        GridLayoutFactory.fillDefaults().spacing(0, 2).applyTo(parent);
        table = new Table(parent, SWT.BORDER | SWT.FULL_SELECTION | SWT.MULTI);
        table.setData(TracesView.ROLE, "experiments");
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        // name and state first: the view often sits in a narrow folder
        // i13-live2: "Run" says simulated, or live with the device and the date
        String[] headers = { "Experiment", "State", "Runs", "Point", "Policies", "Sets", "Trace", "Run" };
        int[] widths = { 160, 90, 45, 90, 170, 90, 130, 220 };
        for (int i = 0; i < headers.length; i++) {
            TableColumn c = new TableColumn(table, i == 2 ? SWT.RIGHT : SWT.LEFT);
            c.setText(headers[i]);
            c.setWidth(widths[i]);
        }
        GridDataFactory.fillDefaults().grab(true, true).applyTo(table);
        table.addListener(SWT.Selection, e -> selected());
        // the narrow folder hides most columns: the whole configuration in the row's tooltip
        table.addListener(SWT.MouseHover, e -> {
            TableItem item = table.getItem(new org.eclipse.swt.graphics.Point(e.x, e.y));
            table.setToolTipText(item != null && item.getData() instanceof Row r ? describe(r) : null);
        });
        table.addListener(SWT.DefaultSelection, e -> openSelected());
        table.addListener(SWT.KeyDown, e -> {
            if (e.keyCode == SWT.F2) {
                renameSelected();
            } else if (e.keyCode == SWT.DEL) {
                deleteSelected();
            } else if (e.keyCode == SWT.F5) {
                refresh();
            } else if ((e.stateMask & SWT.MOD1) != 0 && (e.keyCode == 'r' || e.keyCode == 'R')) {
                rerunSelected();
            } else if ((e.stateMask & SWT.MOD1) != 0 && (e.keyCode == 'c' || e.keyCode == 'C')) {
                copyPath();
            } else {
                return;
            }
            e.doit = false;
        });

        confirmBar = new Composite(parent, SWT.NONE);
        GridLayoutFactory.fillDefaults().numColumns(3).margins(4, 2).applyTo(confirmBar);
        GridDataFactory.fillDefaults().grab(true, false).exclude(true).applyTo(confirmBar);
        confirmBar.setVisible(false);
        confirmText = new Label(confirmBar, SWT.WRAP);
        confirmText.setData(TracesView.ROLE, "exp.confirmText");
        GridDataFactory.fillDefaults().grab(true, false).hint(200, SWT.DEFAULT).applyTo(confirmText);
        Button yes = new Button(confirmBar, SWT.PUSH);
        yes.setText("Delete");
        yes.setData(TracesView.ROLE, "exp.confirmDelete");
        yes.addListener(SWT.Selection, e -> confirm(true));
        Button no = new Button(confirmBar, SWT.PUSH);
        no.setText("Keep");
        no.setData(TracesView.ROLE, "exp.confirmKeep");
        no.addListener(SWT.Selection, e -> confirm(false));

        progressBar = new Composite(parent, SWT.NONE);
        GridLayoutFactory.fillDefaults().numColumns(3).margins(4, 2).applyTo(progressBar);
        GridDataFactory.fillDefaults().grab(true, false).exclude(true).applyTo(progressBar);
        progressBar.setVisible(false);
        progressText = new Label(progressBar, SWT.NONE);
        progressText.setData(TracesView.ROLE, "exp.progressText");
        GridDataFactory.fillDefaults().grab(true, false).hint(150, SWT.DEFAULT).applyTo(progressText);
        bar = new ProgressBar(progressBar, SWT.HORIZONTAL | SWT.SMOOTH);
        bar.setMaximum(1000);
        GridDataFactory.fillDefaults().hint(140, SWT.DEFAULT).applyTo(bar);
        cancel = new Button(progressBar, SWT.PUSH);
        cancel.setText("Cancel");
        cancel.setData(TracesView.ROLE, "exp.cancel");
        cancel.setToolTipText("Stop the experiment: nothing of it is saved, earlier results stay as they were");
        cancel.addListener(SWT.Selection, e -> cancelRunning());

        status = new Label(parent, SWT.WRAP);
        status.setData(TracesView.ROLE, "exp.status");
        GridDataFactory.fillDefaults().grab(true, false).hint(200, SWT.DEFAULT).applyTo(status);

        createActions();
        org.phos.workbench.internal.ui.theme.PhoenixThemes.onChange(table, this::fill); // the stale rows' colour
        getSite().setSelectionProvider(selection);
        getSite().getPage().addSelectionListener(traceListener);
        getSite().getPage().addPartListener(partListener);
        refresh();
    }

    private void createActions() {
        openAction = action("&Open", "Enter", this::openSelected);
        rerunAction = action("&Re-run", "Ctrl+R", this::rerunSelected);
        renameAction = action("Re&name...", "F2", this::renameSelected);
        deleteAction = action("&Delete...", "Delete", this::deleteSelected);
        copyPathAction = action("&Copy Folder Path", "Ctrl+C", this::copyPath);
        openFolderAction = action("Open &Folder", null, this::openFolder);
        Action newAction = action("&New Experiment...", "Ctrl+Shift+X", () -> NewExperimentHandler.open(
                getSite().getPage(), selectedRow() == null ? null : selectedRow().trace, null));
        Action refreshAction = action("Refresh", "F5", this::refresh);
        MenuManager menu = new MenuManager();
        menu.setRemoveAllWhenShown(true);
        menu.addMenuListener((IMenuManager m) -> {
            updateActions();
            m.add(openAction);
            m.add(rerunAction);
            m.add(renameAction);
            m.add(deleteAction);
            m.add(new Separator());
            m.add(copyPathAction);
            m.add(openFolderAction);
            m.add(new Separator());
            m.add(newAction);
            m.add(refreshAction);
        });
        table.setMenu(menu.createContextMenu(table));
        var toolbar = getViewSite().getActionBars().getToolBarManager();
        toolbar.add(newAction);
        toolbar.add(refreshAction);
        getViewSite().getActionBars().updateActionBars();
    }

    private static Action action(String text, @Nullable String key, Runnable run) {
        Action a = new Action(key == null ? text : text + "\t" + key) {
            @Override
            public void run() {
                run.run();
            }
        };
        return a;
    }

    private void updateActions() {
        Row r = selectedRow();
        boolean one = r != null;
        openAction.setEnabled(one);
        rerunAction.setEnabled(one && r.saved != null && r.saved.config() != null);
        renameAction.setEnabled(one && r.saved != null);
        deleteAction.setEnabled(one && r.saved != null);
        copyPathAction.setEnabled(one && r.saved != null);
        openFolderAction.setEnabled(one && r.saved != null);
    }

    // listing

    private final IPartListener2 partListener = new IPartListener2() {
        @Override
        public void partClosed(IWorkbenchPartReference ref) {
            if (ref.getPart(false) instanceof TraceEditor) {
                table.getDisplay().asyncExec(ExperimentsView.this::refresh);
            }
        }
    };

    /** A trace published by an editor that this view has not listed yet: list its experiments. */
    private void pageSelection(IWorkbenchPart part, ISelection s) {
        if (s instanceof IStructuredSelection ss && ss.getFirstElement() instanceof LoadedTrace t
                && !listed.contains(t)) {
            refresh();
        }
    }

    /** Lists the saved experiments of every opened trace again (in a Job: the store checks each trace's hash). */
    public void refresh() {
        if (table.isDisposed()) {
            return;
        }
        List<LoadedTrace> traces = NewExperimentHandler.openedTraces(getSite().getPage());
        Set<LoadedTrace> before = new HashSet<>(listed);
        listed.clear();
        listed.addAll(traces);
        Display display = table.getDisplay();
        Job job = Job.create("Listing the experiments of the open traces", (IProgressMonitor m) -> {
            Map<LoadedTrace, List<SavedExperiment>> found = new LinkedHashMap<>();
            Map<LoadedTrace, String> problems = new LinkedHashMap<>();
            for (LoadedTrace t : traces) {
                try {
                    found.put(t, store(t).list());
                } catch (ExperimentException e) {
                    problems.put(t, e.problem().message());
                }
            }
            display.asyncExec(() -> listed(traces, before, found, problems));
            return Status.OK_STATUS;
        });
        job.setSystem(true);
        job.schedule();
    }

    private synchronized ExperimentStore store(LoadedTrace t) {
        return stores.computeIfAbsent(t.file().toAbsolutePath().normalize(), ExperimentStore::of);
    }

    private void listed(List<LoadedTrace> traces, Set<LoadedTrace> before,
            Map<LoadedTrace, List<SavedExperiment>> found, Map<LoadedTrace, String> problems) {
        if (table.isDisposed()) {
            return;
        }
        List<Row> next = new ArrayList<>();
        for (LoadedTrace t : traces) {
            for (SavedExperiment s : found.getOrDefault(t, List.of())) {
                Row r = find(t, s.name());
                Row row = r != null ? r : new Row(t, s.name());
                row.saved = s;
                next.add(row);
            }
        }
        // results shown but not saved (handed to show()) stay, unless their trace's editor was closed
        for (Row r : rows) {
            boolean closed = before.contains(r.trace) && !traces.contains(r.trace);
            if (r.saved == null && r.opened != null && !closed && !next.contains(r)) {
                next.add(r);
            }
        }
        rows.clear();
        rows.addAll(next);
        fill();
        if (!problems.isEmpty()) {
            message(String.join("\n", problems.values()), true);
        }
    }

    private void fill() {
        List<Row> before = selectedRows();
        table.setRedraw(false);
        table.removeAll();
        for (Row r : rows) {
            TableItem item = new TableItem(table, SWT.NONE);
            item.setText(columns(r));
            item.setData(r);
            if (stale(r)) {
                item.setForeground(ExperimentColors.get(ExperimentColors.STALE));
            }
        }
        List<Integer> keep = new ArrayList<>();
        for (Row r : before) {
            int i = rows.indexOf(r);
            if (i >= 0) {
                keep.add(i);
            }
        }
        table.setSelection(keep.stream().mapToInt(Integer::intValue).toArray());
        table.setRedraw(true);
    }

    private static boolean stale(Row r) {
        SavedExperiment s = r.saved;
        return s != null && s.state() != SavedExperiment.State.READY;
    }

    private static String[] columns(Row r) {
        ExperimentConfig c = r.config();
        ExperimentSelection o = r.opened;
        SavedExperiment s = r.saved;
        String runs = o != null ? Integer.toString(o.result().runs().size()) : "";
        String state;
        if (s == null) {
            state = "not saved";
        } else {
            state = switch (s.state()) {
                case READY -> o != null ? "open" : "saved";
                case TRACE_CHANGED -> "\u26a0 stale";
                case TRACE_MISSING -> "\u26a0 no trace";
                case NOT_RUN -> "not run";
                case DAMAGED -> "\u26a0 damaged";
            };
        }
        return new String[] { (stale(r) ? "\u26a0 " : "") + r.name, state, runs, c == null || c.at() == null ? ""
                : c.at(), c == null ? "?" : c.policies(), c == null ? "" : c.sets(), r.trace.name(), runKind(r) };
    }

    /** i13-live2: {@code live, NVIDIA H100 80GB HBM3, 2026-11-25} or {@code simulated} (blank while unknown). */
    private static String runKind(Row r) {
        SavedExperiment s = r.saved;
        if (s != null && s.live() != null) {
            return s.live().label();
        }
        return s == null || s.config() == null ? "" : "simulated";
    }

    /** The row's configuration in simulate's words, and where it is saved. */
    private static String describe(Row r) {
        ExperimentConfig c = r.config();
        String config = c == null ? "configuration unreadable"
                : "--policy " + c.policies() + (c.at() == null ? "" : " --at " + c.at()) + " --machine " + c.machine()
                        + " --sets " + c.sets() + " --width " + c.widthPx();
        String kind = runKind(r); // i13-live2
        return r.name + " on " + r.trace.name() + (kind.isEmpty() ? "" : " (" + kind + ")") + "\n" + config + "\n"
                + explain(r);
    }

    /** What the state of {@code r} means, for the status line when it is selected. */
    private static String explain(Row r) {
        SavedExperiment s = r.saved;
        if (s == null) {
            return r.name + ": shown, not saved";
        }
        return switch (s.state()) {
            case READY -> r.name + (s.live() != null ? " (" + s.live().label() + ")" : "") + ": saved in " // i13-live2
                    + s.folder();
            case TRACE_CHANGED -> r.name + " is stale: " + s.problem() + ". Re-run it (Ctrl+R); Enter opens the old "
                    + "numbers anyway";
            case TRACE_MISSING -> r.name + ": " + s.problem();
            case NOT_RUN -> r.name + " never ran to the end: " + s.problem() + ". Re-run it (Ctrl+R)";
            case DAMAGED -> r.name + " is damaged: " + s.problem();
        };
    }

    private @Nullable Row find(LoadedTrace trace, String name) {
        for (Row r : rows) {
            if (r.trace == trace && r.name.equals(name)) {
                return r;
            }
        }
        return null;
    }

    // the contract with the C/R views and their tests

    /**
     * Shows an experiment's result: adds its row (or fills the row of the same trace and name), selects it, and
     * publishes it to the C/R views.
     */
    public void show(LoadedTrace trace, ExperimentResult result) {
        Row r = find(trace, result.name());
        if (r == null) {
            r = new Row(trace, result.name());
            rows.add(r);
        }
        r.opened = new ExperimentSelection(trace, result);
        fill();
        table.setSelection(rows.indexOf(r));
        // ui-polish: begin: the C/R Timeline (stacked with Accesses at the top right) comes to the top of its stack,
        // made if not yet, without taking the focus; then it gets the experiment. Not while the user looks at C/R
        // Compare or has a part maximized: the layout stays as they made it
        if (mayBringUpTimeline()) {
            try {
                getSite().getPage().showView(org.phos.workbench.ui.PhoenixUi.CR_TIMELINE_VIEW_ID, null,
                        org.eclipse.ui.IWorkbenchPage.VIEW_VISIBLE);
            } catch (org.eclipse.ui.PartInitException e) {
                message("Cannot show the C/R Timeline: " + e.getMessage(), false);
            }
        }
        // ui-polish: end
        publish();
    }

    // ui-polish: begin
    private boolean mayBringUpTimeline() {
        org.eclipse.ui.IWorkbenchPage page = getSite().getPage();
        var compare = page.findView(org.phos.workbench.ui.PhoenixUi.CR_COMPARE_VIEW_ID);
        if (compare != null && page.isPartVisible(compare)) {
            return false;
        }
        for (org.eclipse.ui.IWorkbenchPartReference r : page.getViewReferences()) {
            if (page.getPartState(r) == org.eclipse.ui.IWorkbenchPage.STATE_MAXIMIZED) {
                return false;
            }
        }
        for (org.eclipse.ui.IWorkbenchPartReference r : page.getEditorReferences()) {
            if (page.getPartState(r) == org.eclipse.ui.IWorkbenchPage.STATE_MAXIMIZED) {
                return false;
            }
        }
        return true;
    }
    // ui-polish: end

    /** Selects two shown experiments and publishes their comparison ({@code right} minus {@code left}). */
    public void compare(ExperimentSelection left, ExperimentSelection right) {
        int l = indexOf(left);
        int r = indexOf(right);
        if (l < 0 || r < 0) {
            throw new IllegalArgumentException("compare shown experiments only");
        }
        table.setSelection(new int[] { l, r });
        selection.setSelection(new StructuredSelection(new ExperimentComparison(left, right)));
    }

    /** The experiments shown with their runs (opened or just run), in row order. */
    public List<ExperimentSelection> experiments() {
        List<ExperimentSelection> out = new ArrayList<>();
        for (Row r : rows) {
            if (r.opened != null) {
                out.add(r.opened);
            }
        }
        return out;
    }

    /** The saved experiments listed, in row order (null entries are results not saved). */
    public List<@Nullable SavedExperiment> saved() {
        return rows.stream().map(r -> r.saved).toList();
    }

    private int indexOf(ExperimentSelection e) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).opened == e || e.equals(rows.get(i).opened)) {
                return i;
            }
        }
        return -1;
    }

    private void selected() {
        List<Row> picked = selectedRows();
        if (picked.size() == 1) {
            message(explain(picked.get(0)), stale(picked.get(0)));
        }
        if (picked.size() == 1 && picked.get(0).opened == null && picked.get(0).saved != null
                && picked.get(0).saved.ready()) {
            open(picked.get(0), false); // a saved experiment opens when selected: a quick read of its runs file
            return;
        }
        publish();
    }

    private void publish() {
        List<Row> picked = selectedRows();
        if (picked.size() == 1 && picked.get(0).opened != null) {
            selection.setSelection(new StructuredSelection(picked.get(0).opened));
        } else if (picked.size() == 2 && picked.get(0).opened != null && picked.get(1).opened != null) {
            selection.setSelection(
                    new StructuredSelection(new ExperimentComparison(picked.get(0).opened, picked.get(1).opened)));
        }
    }

    private List<Row> selectedRows() {
        List<Row> out = new ArrayList<>();
        if (table == null || table.isDisposed()) {
            return out;
        }
        for (int i : table.getSelectionIndices()) {
            if (i < rows.size()) {
                out.add(rows.get(i));
            }
        }
        out.sort((a, b) -> Integer.compare(rows.indexOf(a), rows.indexOf(b)));
        return out;
    }

    private @Nullable Row selectedRow() {
        List<Row> s = selectedRows();
        return s.size() == 1 ? s.get(0) : null;
    }

    // actions

    private void openSelected() {
        Row r = selectedRow();
        if (r == null) {
            return;
        }
        if (r.opened != null) {
            publish();
        } else if (r.saved != null) {
            open(r, true);
        }
    }

    /** Reads a saved experiment back from its files in a Job, then shows and publishes it. */
    private void open(Row r, boolean evenIfStale) {
        SavedExperiment s = r.saved;
        if (s == null) {
            return;
        }
        if (!s.ready() && !evenIfStale) {
            message(r.name + ": " + s.problem(), true);
            return;
        }
        if (r.opening) {
            return;
        }
        r.opening = true;
        ExperimentStore store = store(r.trace);
        Display display = table.getDisplay();
        message("Opening " + r.name + " ...", false);
        Job job = Job.create("Opening experiment " + r.name, (IProgressMonitor m) -> {
            try {
                ExperimentResult result = store.open(r.name, evenIfStale);
                display.asyncExec(() -> {
                    r.opening = false;
                    if (!table.isDisposed() && rows.contains(r)) {
                        r.opened = new ExperimentSelection(r.trace, result);
                        fill();
                        message(s.ready() ? "Opened " + r.name + " (" + runs(result) + ") from "
                                + s.folder() : "Opened " + r.name + " although " + s.problem()
                                        + ": its numbers describe the trace as it was; re-run it (Ctrl+R)",
                                !s.ready());
                        if (selectedRows().contains(r)) {
                            publish();
                        }
                    }
                });
            } catch (ExperimentException e) {
                display.asyncExec(() -> {
                    r.opening = false;
                    message(e.problem().message(), true);
                });
            }
            return Status.OK_STATUS;
        });
        job.setRule(ExperimentJob.rule(r.trace.file()));
        job.schedule();
    }

    private void rerunSelected() {
        Row r = selectedRow();
        if (r == null || r.saved == null || r.saved.config() == null) {
            message("Select a saved experiment to re-run it.", false);
            return;
        }
        // i13-live2: a live experiment is re-run live (on a machine with a CUDA GPU; elsewhere the Job says why)
        run(new ExperimentJob(r.trace, r.name, null, r.saved.live() != null));
    }

    /** Starts {@code job}, shows its progress at the bottom, and the result (or why it failed) when it ends. */
    void run(ExperimentJob job) {
        running.add(job);
        Display display = table.getDisplay();
        job.addJobChangeListener(new JobChangeAdapter() {
            @Override
            public void done(IJobChangeEvent event) {
                display.asyncExec(() -> finished(job, event.getResult()));
            }
        });
        showProgress(true);
        message("Running " + job.experimentName() + " on " + job.trace().name() + " ...", false);
        job.schedule();
        if (running.size() == 1) {
            lastMoves = 0; // no report yet: the first one measures the gap from the start
            lastProgressNs = System.nanoTime();
            lastProgressText = "(start)";
        }
        display.timerExec(PROGRESS_PERIOD_MS, this::pollProgress);
    }

    /** How often the view looks at the running experiment's reports. */
    public static final int PROGRESS_PERIOD_MS = 50;

    private void pollProgress() {
        if (table.isDisposed() || running.isEmpty()) {
            return;
        }
        ExperimentJob job = running.get(0);
        ExperimentProgress p = job.progress();
        long moves = p.moves();
        if (moves != lastMoves) {
            long now = System.nanoTime();
            if (lastMoves >= 0) {
                progressGaps.add(new ProgressGap(now - lastProgressNs, lastProgressText));
            }
            lastProgressNs = now;
            lastMoves = moves;
            double f = p.fraction();
            bar.setState(SWT.NORMAL);
            bar.setSelection(f < 0 ? 0 : (int) Math.round(f * 1000));
            String text = p.text();
            lastProgressText = String.format("%.1f%% %s", f * 100, text);
            progressText.setText(job.experimentName() + (f < 0 ? "" : String.format(" %.0f%%", f * 100))
                    + (text.isEmpty() ? "" : " \u2014 " + text));
            progressText.setToolTipText(progressText.getText());
            progressBar.layout(true); // the label's text grew
        }
        table.getDisplay().timerExec(PROGRESS_PERIOD_MS, this::pollProgress);
    }

    private void finished(ExperimentJob job, IStatus result) {
        if (!running.isEmpty() && running.get(0) == job && lastMoves >= 0) {
            // the last report to the end is a gap too
            progressGaps.add(new ProgressGap(System.nanoTime() - lastProgressNs, lastProgressText + " (to the end)"));
        }
        running.remove(job);
        if (table.isDisposed()) {
            return;
        }
        showProgress(!running.isEmpty());
        if (!running.isEmpty()) {
            lastMoves = 0;
            lastProgressNs = System.nanoTime();
        }
        ExperimentResult r = job.result();
        if (result.getSeverity() == IStatus.CANCEL) {
            message(job.experimentName() + " was cancelled: nothing of it was saved, earlier results are as they "
                    + "were.", false);
        } else if (r != null) {
            show(job.trace(), r);
            message("Saved " + job.experimentName() + " (" + runs(r) + ") in "
                    + store(job.trace()).folder(job.experimentName()), false);
            refresh();
        } else {
            message(job.experimentName() + " failed: " + job.failure(), true);
        }
    }

    private static String runs(ExperimentResult r) {
        return r.runs().size() + (r.runs().size() == 1 ? " run" : " runs");
    }

    private void cancelRunning() {
        for (ExperimentJob j : running) {
            j.cancel();
        }
        progressText.setText("Cancelling ...");
    }

    private void showProgress(boolean on) {
        ((org.eclipse.swt.layout.GridData) progressBar.getLayoutData()).exclude = !on;
        progressBar.setVisible(on);
        progressBar.getParent().layout(true, true);
    }

    private void renameSelected() {
        Row r = selectedRow();
        if (r == null || r.saved == null) {
            message("Select a saved experiment to rename it.", false);
            return;
        }
        int index = rows.indexOf(r);
        TableEditor editor = new TableEditor(table);
        editor.grabHorizontal = true;
        Text field = new Text(table, SWT.SINGLE);
        field.setData(TracesView.ROLE, "exp.rename");
        field.setText(r.name);
        field.selectAll();
        editor.setEditor(field, table.getItem(index), 0);
        renameEditor = editor;
        field.setFocus();
        message("New name for " + r.name + ": Enter renames, Esc keeps it.", false);
        field.addListener(SWT.Modify, e -> {
            String problem = ExperimentStore.nameProblem(field.getText());
            message(problem == null ? "Enter renames " + r.name + " to " + field.getText() : problem,
                    problem != null);
        });
        field.addListener(SWT.Traverse, e -> {
            if (e.detail == SWT.TRAVERSE_ESCAPE) {
                e.doit = false;
                endRename();
                message("", false);
            } else if (e.detail == SWT.TRAVERSE_RETURN) {
                e.doit = false;
                String to = field.getText();
                if (to.equals(r.name)) {
                    endRename();
                    return;
                }
                try {
                    store(r.trace).rename(r.name, to);
                    r.name = to;
                    r.saved = null;
                    if (r.opened != null) { // the result carries its name
                        ExperimentResult o = r.opened.result();
                        r.opened = new ExperimentSelection(r.trace,
                                new ExperimentResult(to, o.traceFile(), o.config(), o.runs()));
                    }
                    endRename();
                    message("Renamed to " + to, false);
                    refresh();
                } catch (ExperimentException ex) {
                    message(ex.problem().message(), true); // the field stays for another name
                }
            }
        });
        field.addListener(SWT.FocusOut, e -> table.getDisplay().asyncExec(this::endRename));
    }

    private void endRename() {
        TableEditor e = renameEditor;
        renameEditor = null;
        if (e != null && e.getEditor() != null && !e.getEditor().isDisposed()) {
            e.getEditor().dispose();
            e.dispose();
            table.setFocus();
        }
    }

    private void deleteSelected() {
        Row r = selectedRow();
        if (r == null || r.saved == null) {
            message("Select a saved experiment to delete it.", false);
            return;
        }
        Path folder = r.saved.folder();
        Path shown = folder.getParent() == null ? folder : folder.getParent().getFileName().resolve(folder.getFileName());
        ask("Delete " + r.name + " and its folder " + shown + "?", () -> {
            try {
                store(r.trace).delete(r.name);
                rows.remove(r);
                fill();
                message("Deleted " + r.name + " (" + folder + ")", false);
                refresh();
            } catch (ExperimentException e) {
                message(e.problem().message(), true);
            }
        });
    }

    /** The question in the bar above the status line, answered with its Delete or Keep button. */
    private void ask(String question, Runnable onYes) {
        confirmText.setText(question);
        confirmed = onYes;
        ((org.eclipse.swt.layout.GridData) confirmBar.getLayoutData()).exclude = false;
        confirmBar.setVisible(true);
        confirmBar.getParent().layout(true, true);
        confirmBar.getChildren()[2].setFocus(); // Keep has the focus: Enter does not delete by accident
    }

    private void confirm(boolean yes) {
        Runnable r = confirmed;
        confirmed = null;
        ((org.eclipse.swt.layout.GridData) confirmBar.getLayoutData()).exclude = true;
        confirmBar.setVisible(false);
        confirmBar.getParent().layout(true, true);
        if (yes && r != null) {
            r.run();
        } else {
            message("Kept.", false);
        }
        table.setFocus();
    }

    private void copyPath() {
        Row r = selectedRow();
        if (r == null || r.saved == null) {
            return;
        }
        String path = r.saved.folder().toString();
        Clipboard clipboard = new Clipboard(table.getDisplay());
        try {
            clipboard.setContents(new Object[] { path }, new Transfer[] { TextTransfer.getInstance() });
        } finally {
            clipboard.dispose();
        }
        message("Copied " + path, false);
    }

    private void openFolder() {
        Row r = selectedRow();
        if (r == null || r.saved == null) {
            return;
        }
        String path = r.saved.folder().toString();
        message(Program.launch(path) ? "Opened " + path
                : "No program opens folders here; the folder is " + path + " (Ctrl+C copies it)", false);
    }

    private void message(String text, boolean problem) {
        if (status.isDisposed()) {
            return;
        }
        status.setText(text);
        status.setForeground(problem ? ExperimentColors.get(ExperimentColors.PROBLEM) : null);
        status.getParent().layout(true, true);
    }

    // accessors for tests and benchmarks

    /** The status line's text. */
    public String statusText() {
        return status.getText();
    }

    /** Whether an experiment Job of this view is running. */
    public boolean isRunning() {
        return !running.isEmpty();
    }

    /**
     * A gap between two moments this view saw the running experiment's reports change.
     *
     * @param ns its length
     * @param during what the progress said when the gap began (fraction and task)
     */
    public record ProgressGap(long ns, String during) {
    }

    /**
     * The gaps between consecutive moments this view saw the running experiment's reports change (polled every
     * {@value #PROGRESS_PERIOD_MS} ms on the UI thread), from the start to the end; cleared by
     * {@link #clearProgressGaps()}.
     */
    public List<ProgressGap> progressGaps() {
        return List.copyOf(progressGaps);
    }

    public void clearProgressGaps() {
        progressGaps.clear();
    }

    @Override
    public void dispose() {
        getSite().getPage().removeSelectionListener(traceListener);
        getSite().getPage().removePartListener(partListener);
        super.dispose();
    }

    @Override
    public void setFocus() {
        table.setFocus();
    }
}
