package org.phos.workbench.internal.ui.timeline.cr;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.internal.ui.timeline.SvgTimelineWriter;
import org.phos.workbench.internal.ui.timeline.TimeFormat;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineCanvas;
import org.phos.workbench.internal.ui.timeline.TimelineLane;
import org.phos.workbench.internal.ui.timeline.TimelinePainter;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.ui.PhoenixUi;
import org.phos.workbench.ui.model.ExperimentComparison;
import org.phos.workbench.ui.model.ExperimentSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.TimeSelection;
import org.phos.workbench.ui.model.ViewSelectionProvider;
import org.phos.workbench.ui.timeline.TimelineUi;
import org.phos.workbench.trace.core.Trace;

/**
 * The C/R Timeline view: the lanes of a simulated run (host with its stalls, streams, copy engines, CoW D2D, commit
 * D2H, restore H2D) and the checkpoint markers, for the experiment the page selects ({@link ExperimentSelection}; the
 * left one of an {@link ExperimentComparison}), with a run picker when it has several runs. The Trace Timeline's
 * navigation (W/S, A/D, Ctrl+wheel, drag, click). A click shows the item's details: buffer, bytes, the launch that
 * caused a copy-on-write, why a stall happened.
 * <p>
 * <b>Axis lock</b>: "Lock to Trace Timeline" moves the Trace Timeline with this one and back. The simulator's clock
 * starts at 0 at the first simulated call, so the mapping is an offset: trace time = simulated time + the host time of
 * that call in the trace ({@link TraceTimeMapping}). It is exact at the start; the stalls the policy adds are not in
 * the trace, so after each stall the same call lies later on the simulated clock than in the trace (by the stalls so
 * far), and the two timelines show the same span of time, not the same calls.
 */
public final class CrTimelineView extends ViewPart {
    private final ISelectionListener selectionListener = this::selectionChanged;
    private final ViewSelectionProvider selectionProvider = new ViewSelectionProvider();
    private CrTimelinePane pane;
    private Label details;
    private Button lock;
    private @Nullable TraceTimeMapping mapping;
    private @Nullable TraceTimelineView lockedTo;
    private boolean syncing;
    private final Consumer<TimeWindow> traceMoved = this::traceMoved;
    private final Consumer<TimeWindow> crMoved = this::crMoved;

    @Override
    public void createPartControl(Composite parent) {
        Composite root = new Composite(parent, SWT.NONE);
        GridLayout gl = new GridLayout(1, false);
        gl.marginWidth = 0;
        gl.marginHeight = 0;
        gl.verticalSpacing = 2;
        root.setLayout(gl);
        pane = new CrTimelinePane(root, "cr", new TimelineCanvas.Callbacks() {
            @Override
            public void picked(int item) {
                select(item);
            }

            @Override
            public void rangeSelected(long fromNs, long toNs) {
                publishRange(fromNs, toNs);
            }

            @Override
            public void step(int direction) {
                stepStall(direction);
            }
        });
        pane.control().setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        pane.onInstalled(p -> installed());
        pane.canvas().addWindowListener(crMoved);
        lock = pane.addToBar(bar -> new Button(bar, SWT.CHECK));
        lock.setText("Lock to Trace Timeline");
        lock.setData(TraceTimelineView.ROLE, "cr-lock");
        lock.setToolTipText(TraceTimeMapping.EXPLANATION);
        lock.addListener(SWT.Selection, e -> setAxisLocked(lock.getSelection()));
        // ui-polish: Export in the view's toolbar (the tab row, as the tables' Export CSV): the head row keeps the
        // height of a line, one more row of the canvas for the lanes and the markers' labels
        org.eclipse.jface.action.Action exportAction = new org.eclipse.jface.action.Action("Export...") {
            @Override
            public void run() {
                exportMenu();
            }
        };
        exportAction.setToolTipText("PNG, SVG, Chrome JSON (ui.perfetto.dev) or CSV of what is shown: the zoomed window");
        getViewSite().getActionBars().getToolBarManager().add(exportAction);
        getViewSite().getActionBars().updateActionBars();
        details = new Label(root, SWT.WRAP);
        details.setData(TraceTimelineView.ROLE, "cr-details");
        GridData dd = new GridData(SWT.FILL, SWT.CENTER, true, false);
        dd.widthHint = 200;
        org.eclipse.swt.graphics.GC gc = new org.eclipse.swt.graphics.GC(details);
        dd.heightHint = 2 * gc.getFontMetrics().getHeight(); // two lines; the tooltip holds a longer one whole
        gc.dispose();
        details.setLayoutData(dd);
        details.setText("W/S zoom, A/D pan, Ctrl+wheel zoom, drag: select a range, click: details (buffer, bytes, the "
                + "launch behind a copy-on-write, why a stall happened), . / , : next/previous stall");
        getSite().getPage().addSelectionListener(selectionListener);
        getSite().setSelectionProvider(selectionProvider); // ui-polish: a dragged range, as the Trace Timeline's
        // ui-polish: made after the page selected an experiment (brought to the top of its stack): show it
        if (getSite().getPage().getSelection() instanceof IStructuredSelection s && s.size() == 1) {
            if (s.getFirstElement() instanceof ExperimentSelection e) {
                show(e);
            } else if (s.getFirstElement() instanceof ExperimentComparison c) {
                show(c.left());
            }
        }
        root.addDisposeListener(e -> unlock());
    }

    @Override
    public void dispose() {
        getSite().getPage().removeSelectionListener(selectionListener);
        super.dispose();
    }

    @Override
    public void setFocus() {
        pane.canvas().control().setFocus();
    }

    /** The page's selection changed: an experiment (or the left of a comparison) is shown. */
    public void selectionChanged(IWorkbenchPart part, ISelection selection) {
        if (part == this || !(selection instanceof IStructuredSelection s) || s.size() != 1) {
            return;
        }
        Object o = s.getFirstElement();
        if (o instanceof ExperimentSelection e && e != pane.experiment()) {
            show(e);
        } else if (o instanceof ExperimentComparison c && c.left() != pane.experiment()) {
            show(c.left());
        }
    }

    /** Shows experiment {@code e}'s first run (built in a Job: {@link #isReady()}). */
    public void show(ExperimentSelection e) {
        // no content description: the pane's head line names experiment, trace and run (one line less above the lanes)
        mapping = null;
        pane.show(e, 0);
    }

    private void installed() {
        ExperimentSelection e = pane.experiment();
        CrTimelineContent c = pane.content();
        if (e == null || c == null) {
            return;
        }
        if (mapping == null || mapping.trace() != e.trace()) {
            mapping = TraceTimeMapping.of(e.trace());
        }
        details.setText(c.lanes().size() + " lanes, " + c.itemCount() + " intervals and stalls, "
                + c.marks().size() + " markers; W/S zoom, A/D pan, drag: range, click: details, . / , : stalls");
        if (lockedTo != null) {
            crMoved(pane.canvas().navigator().window());
        }
    }

    /**
     * Selects the next ({@code direction > 0}) or previous host stall after the selected item (or from the window's
     * start), revealing it: a researcher walks a run's stalls one by one.
     */
    private void stepStall(int direction) {
        CrTimelineContent c = pane.content();
        if (c == null) {
            return;
        }
        TimelineLane o = c.overlay(0);
        if (o == null || o.size() == 0) {
            details.setText("This run has no stalls.");
            return;
        }
        int selected = pane.canvas().marks().selectedEvent();
        long from = selected >= 0 ? c.itemStart(selected)
                : pane.canvas().navigator().window().fromNs() - (direction > 0 ? 1 : 0);
        int k = o.firstStartingAtOrAfter(from + (direction > 0 ? 1 : 0));
        int pick = direction > 0 ? k : k - 1;
        if (selected < 0 && direction < 0) {
            pick = o.firstStartingAtOrAfter(pane.canvas().navigator().window().toNs()) - 1;
        }
        pick = Math.clamp(pick, 0, o.size() - 1);
        int item = o.events()[pick];
        TimelineCanvas canvas = pane.canvas();
        TimeWindow before = canvas.navigator().window();
        canvas.navigator().reveal(c.itemStart(item), c.itemEnd(item));
        canvas.revealLane(0);
        select(item);
        if (!before.equals(canvas.navigator().window())) {
            crMoved(canvas.navigator().window());
        }
    }

    /**
     * A range dragged on the simulated clock: said in the details line and published as the Trace Timeline publishes
     * its drag, a {@link TimeSelection} of the experiment's trace (the range on the trace's clock through the
     * {@link TraceTimeMapping}), so the Launches view keeps the launches issued in it, Properties shows it and the New
     * Experiment dialog's picker takes its start.
     */
    private void publishRange(long fromNs, long toNs) {
        ExperimentSelection e = pane.experiment();
        CrTimelineContent c = pane.content();
        TraceTimeMapping map = mapping;
        String text = "Range " + TimeFormat.duration(toNs - fromNs) + " from " + TimeFormat.duration(fromNs)
                + " (simulated clock)";
        if (e == null || c == null || map == null) {
            details.setText(text);
            return;
        }
        long from = map.toTrace(fromNs);
        long to = map.toTrace(toNs);
        Trace t = e.trace().trace();
        long start = t.eventCount() == 0 ? from : t.hostNs(0);
        details.setText(text + "; in the trace from +" + TimeFormat.duration(from - start) + " (published to the "
                + "other views: Launches, Properties)");
        details.setToolTipText(details.getText());
        selectionProvider.setSelection(new StructuredSelection(new TimeSelection(e.trace(), from, to)));
    }

    /** The selection this view publishes (a dragged range), for tests. */
    public ISelection publishedSelection() {
        return selectionProvider.getSelection();
    }

    private void select(int item) {
        CrTimelineContent c = pane.content();
        if (c == null) {
            return;
        }
        TimelinePainter.Marks m = pane.canvas().marks();
        pane.canvas().setMarks(new TimelinePainter.Marks(item, m.rangeFrom(), m.rangeTo()));
        if (item < 0) {
            details.setText("Nothing under the mouse.");
            return;
        }
        ExperimentSelection e = pane.experiment();
        details.setText(CrItemDetails.describe(c, item, e == null ? null : e.trace().trace()));
        details.setToolTipText(details.getText());
    }

    // axis lock

    /**
     * Locks (or unlocks) this timeline's time axis to the Trace Timeline's: the Trace Timeline is opened (and shows the
     * experiment's trace), then each zoom or pan of either moves the other by the {@link TraceTimeMapping}.
     */
    public void setAxisLocked(boolean locked) {
        lock.setSelection(locked);
        if (!locked) {
            unlock();
            return;
        }
        IWorkbenchPage page = getSite().getPage();
        try {
            IViewPart v = page.showView(TimelineUi.VIEW_ID, null, IWorkbenchPage.VIEW_VISIBLE);
            if (v instanceof TraceTimelineView t) {
                unlock();
                lockedTo = t;
                t.timelineCanvas().addWindowListener(traceMoved);
                ExperimentSelection e = pane.experiment();
                if (e != null && t.shownTrace() != e.trace()) {
                    t.show(e.trace());
                }
                if (pane.isReady()) {
                    crMoved(pane.canvas().navigator().window());
                }
            }
        } catch (PartInitException ex) {
            lock.setSelection(false);
            details.setText("Cannot open the Trace Timeline: " + ex.getMessage());
        }
    }

    private void unlock() {
        TraceTimelineView t = lockedTo;
        lockedTo = null;
        if (t != null && !t.timelineCanvas().control().isDisposed()) {
            t.timelineCanvas().removeWindowListener(traceMoved);
        }
    }

    public boolean isAxisLocked() {
        return lockedTo != null;
    }

    private void crMoved(TimeWindow w) {
        TraceTimelineView t = lockedTo;
        TraceTimeMapping map = mapping;
        if (t != null && t.timelineCanvas().control().isDisposed()) { // the Trace Timeline was closed
            unlock();
            lock.setSelection(false);
            return;
        }
        if (t == null || map == null || syncing || t.timelineCanvas().index() == null) {
            return;
        }
        syncing = true;
        try {
            t.timelineCanvas().showWindow(map.toTrace(w.fromNs()), map.toTrace(w.toNs()));
        } finally {
            syncing = false;
        }
    }

    private void traceMoved(TimeWindow w) {
        TraceTimeMapping map = mapping;
        if (map == null || syncing || !pane.isReady()) {
            return;
        }
        syncing = true;
        try {
            pane.canvas().showWindow(map.toSimulated(w.fromNs()), map.toSimulated(w.toNs()));
        } finally {
            syncing = false;
        }
    }

    // export

    private void exportMenu() {
        org.eclipse.swt.widgets.Control export = pane.canvas().control();
        Menu menu = new Menu(export);
        for (CrTimelineExport.Format f : CrTimelineExport.Format.values()) {
            MenuItem item = new MenuItem(menu, SWT.PUSH);
            item.setText(f.label() + " ...");
            item.addListener(SWT.Selection, e -> exportTo(f));
        }
        menu.setLocation(export.getDisplay().getCursorLocation()); // under the toolbar item just clicked
        menu.setVisible(true);
    }

    private void exportTo(CrTimelineExport.Format f) {
        CrTimelineContent c = pane.content();
        if (c == null) {
            return;
        }
        FileDialog d = new FileDialog(details.getShell(), SWT.SAVE);
        d.setOverwrite(true);
        d.setFilterExtensions(new String[] { "*." + f.extension() });
        d.setFileName(fileName(c.run().name()) + "." + f.extension());
        String file = d.open();
        if (file != null) {
            try {
                Path p = export(f, Path.of(file));
                details.setText("Exported " + f.label() + " of " + c.run().name() + " to " + p);
            } catch (IOException | RuntimeException ex) {
                MessageDialog.openError(details.getShell(), "Export failed",
                        "Cannot write " + file + ": " + ex.getMessage());
            }
        }
    }

    static String fileName(String run) {
        return run.replaceAll("[^A-Za-z0-9._-]+", "_");
    }

    /** Writes what the view shows (its window) as {@code format} to {@code file} (extension added); returns the file. */
    public Path export(CrTimelineExport.Format format, Path file) throws IOException {
        CrTimelineContent c = pane.content();
        if (c == null) {
            throw new IllegalStateException("no C/R run is shown");
        }
        Path out = CrTimelineExport.withExtension(file, format);
        TimeWindow w = visibleRange();
        String title = pane.headText();
        switch (format) {
            case PNG -> CrTimelineExport.png(List.of(pane.canvas()), List.of(title), out);
            case SVG -> CrTimelineExport.svg(List.of(new SvgTimelineWriter.Panel(title, c, w, pane.canvas().palette())),
                    Math.max(800, pane.canvas().control().getSize().x), out);
            case CHROME_JSON -> CrTimelineExport.chromeJson(c, w, out);
            case CSV -> CrTimelineExport.csv(c, w, out);
        }
        return out;
    }

    // accessors for tests and benchmarks

    public boolean isReady() {
        return pane.isReady();
    }

    public CrTimelinePane pane() {
        return pane;
    }

    public TimelineCanvas timelineCanvas() {
        return pane.canvas();
    }

    public TimeWindow visibleRange() {
        return pane.canvas().navigator().window();
    }

    public @Nullable TraceTimeMapping mapping() {
        return mapping;
    }

    public String detailsText() {
        return details.getText();
    }

    /** The loaded trace of the experiment shown, or null. */
    public @Nullable LoadedTrace trace() {
        ExperimentSelection e = pane.experiment();
        return e == null ? null : e.trace();
    }

    /** The view id (the contract's). */
    public static final String ID = PhoenixUi.CR_TIMELINE_VIEW_ID;
}
