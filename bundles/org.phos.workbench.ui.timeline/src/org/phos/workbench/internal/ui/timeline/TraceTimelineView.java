package org.phos.workbench.internal.ui.timeline;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.part.ViewPart;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.ui.model.ViewSelectionProvider;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.TimeSelection;

/**
 * The Trace Timeline view: shows the trace that the active part selects ({@link LoadedTrace}, or the trace of a
 * {@link LaunchSelection}, whose slice it also reveals and outlines), or one given to {@link #show(LoadedTrace)}.
 * A picked kernel and {@code .}/{@code ,} publish a {@link LaunchSelection}; a dragged range a {@link TimeSelection}.
 * The lane index is built in a Job; painting and input are the {@link TimelineCanvas}'s.
 */
public final class TraceTimelineView extends ViewPart {
    /** Key of the widgets' role ({@code Widget.setData(ROLE, ...)}) for tests: "canvas", "details". */
    public static final String ROLE = "org.phos.workbench.ui.timeline.role";

    private final ViewSelectionProvider selectionProvider = new ViewSelectionProvider();
    private final ISelectionListener selectionListener = this::selectionChanged;
    private TimelineCanvas canvas;
    private Label details;
    private @Nullable LoadedTrace loaded;
    private @Nullable LaunchSelection pendingReveal;
    private int selectedLaunch = -1;
    private @Nullable LoadedTrace indexed; // i14-attachui: the trace whose index the canvas draws
    private @Nullable Job indexJob;

    @Override
    public void createPartControl(Composite parent) {
        Composite root = new Composite(parent, SWT.NONE);
        GridLayout gl = new GridLayout(1, false);
        gl.marginWidth = 0;
        gl.marginHeight = 0;
        gl.verticalSpacing = 2;
        root.setLayout(gl);
        var themes = PlatformUI.getWorkbench().getThemeManager();
        TimelinePalette palette = new TimelinePalette(themes.getCurrentTheme().getColorRegistry());
        canvas = new TimelineCanvas(root, palette, new TimelineCanvas.Callbacks() {
            @Override
            public void picked(int event) {
                selectEvent(event, false);
            }

            @Override
            public void rangeSelected(long fromNs, long toNs) {
                LoadedTrace t = loaded;
                if (t != null) {
                    details.setText("Range " + TimeFormat.duration(toNs - fromNs) + " from +"
                            + TimeFormat.duration(fromNs - canvas.index().origin()));
                    selectionProvider.setSelection(new StructuredSelection(new TimeSelection(t, fromNs, toNs)));
                }
            }

            @Override
            public void step(int direction) {
                stepLaunch(direction);
            }
        });
        canvas.control().setData(ROLE, "canvas");
        // i14-attachui: begin (panning or zooming a live trace away from its end stops following; to the end resumes)
        canvas.addWindowListener(w -> {
            var live = org.phos.workbench.ui.model.LiveTraces.of(loaded);
            TimelineContent c = canvas.index();
            if (live != null && c != null) {
                live.setFollowing(w.toNs() >= c.end());
            }
        });
        // i14-attachui: end
        // a new theme (Window > Theme) or a changed colour: paint with the registry's colours from now on
        org.eclipse.jface.util.IPropertyChangeListener themeListener = e -> root.getDisplay().asyncExec(() -> {
            if (!root.isDisposed()) {
                canvas.setPalette(new TimelinePalette(themes.getCurrentTheme().getColorRegistry()));
            }
        });
        themes.addPropertyChangeListener(themeListener);
        root.addDisposeListener(e -> themes.removePropertyChangeListener(themeListener));
        canvas.control().setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        details = new Label(root, SWT.WRAP);
        details.setData(ROLE, "details");
        details.setText("W/S zoom, A/D pan, Ctrl+wheel zoom, drag: select a range, click: details, . / , : next/previous launch, double-click the ruler: whole trace");
        GridData dd = new GridData(SWT.FILL, SWT.CENTER, true, false);
        dd.widthHint = 200; // wrap inside the view instead of widening it
        org.eclipse.swt.graphics.GC gc = new org.eclipse.swt.graphics.GC(details);
        dd.heightHint = 3 * gc.getFontMetrics().getHeight(); // three lines: a launch's details fit at 500 px
        gc.dispose();
        details.setLayoutData(dd);
        getSite().setSelectionProvider(selectionProvider);
        // i12-exp-ui: begin: context menu (New Experiment at the Selected Launch...)
        org.phos.workbench.internal.ui.experiment.ExperimentMenus.attach(getSite(), canvas.control(), selectionProvider);
        // i12-exp-ui: end
        getSite().getPage().addSelectionListener(selectionListener);
        org.phos.workbench.ui.model.LiveTraces.addGenerationListener(generations); // i14-attachui
    }

    /** i14-attachui: a live trace shown here moves on to its newest generation, whichever part is active. */
    private final java.util.function.Consumer<LoadedTrace> generations = t -> {
        if (t != loaded && org.phos.workbench.ui.model.LiveTraces.sameSession(loaded, t) && !details.isDisposed()) {
            show(t);
        }
    };

    @Override
    public void dispose() {
        getSite().getPage().removeSelectionListener(selectionListener);
        org.phos.workbench.ui.model.LiveTraces.removeGenerationListener(generations); // i14-attachui
        Job j = indexJob;
        if (j != null) {
            j.cancel();
        }
        super.dispose();
    }

    @Override
    public void setFocus() {
        canvas.control().setFocus();
    }

    /** The page's selection changed: a trace or launch selected by another part is shown (and revealed). */
    public void selectionChanged(IWorkbenchPart part, ISelection selection) {
        if (part == this || !(selection instanceof IStructuredSelection s) || s.size() != 1) {
            return;
        }
        Object o = s.getFirstElement();
        if (o instanceof LoadedTrace t && t != loaded) {
            show(t);
        } else if (o instanceof LaunchSelection ls) {
            if (ls.trace() != loaded) {
                pendingReveal = ls;
                show(ls.trace());
            } else if (canvas.index() != null) {
                reveal(ls);
            } else {
                pendingReveal = ls;
            }
        }
    }

    /** Shows {@code trace} (indexing it in a Job; {@link #isReady()} says when it is drawn). */
    public void show(LoadedTrace trace) {
        boolean continuing = org.phos.workbench.ui.model.LiveTraces.sameSession(loaded, trace); // i14-attachui
        loaded = trace;
        if (!continuing) {
            selectedLaunch = -1;
        }
        Job previous = indexJob;
        if (previous != null) {
            previous.cancel();
        }
        setContentDescription(trace.name());
        if (!continuing) {
            details.setText("Indexing " + trace.name() + " ...");
        }
        Job job = Job.create("Indexing the timeline of " + trace.name(), (IProgressMonitor m) -> {
            try {
                TimelineIndex index = TimelineIndex.build(trace.trace(), m);
                details.getDisplay().asyncExec(() -> installed(trace, index));
                return Status.OK_STATUS;
            } catch (OperationCanceledException e) {
                return Status.CANCEL_STATUS;
            } catch (RuntimeException | OutOfMemoryError e) {
                return Status.error("Cannot draw the timeline of " + trace.file() + ": " + e, e);
            }
        });
        job.setUser(false);
        indexJob = job;
        job.schedule();
    }

    private void installed(LoadedTrace trace, TimelineIndex index) {
        if (details.isDisposed() || trace != loaded) {
            return;
        }
        // i14-attachui: begin (a live trace's next generation keeps the zoom; following, it shows the newest events)
        var live = org.phos.workbench.ui.model.LiveTraces.of(trace);
        boolean continuing = live != null && canvas.index() != null
                && org.phos.workbench.ui.model.LiveTraces.sameSession(indexed, trace);
        TimeWindow before = continuing ? canvas.navigator().window() : null;
        indexed = trace;
        if (live != null) { // i14-ckpt: the live session's marks (driver checkpoint phases) over the lanes
            long base = trace.trace().header().startMonoNs(); // the trace's host times count from its start
            index.setMarks(() -> live.marks().stream().map(m -> new TimelineContent.Mark(m.hostNs() - base, m.label(),
                    SliceCategory.SYNC.ordinal())).toList());
        }
        canvas.setIndex(index);
        if (before != null) {
            long span = before.span();
            if (live.following()) {
                canvas.showWindow(Math.max(index.start(), index.end() - span), index.end());
            } else {
                canvas.showWindow(before.fromNs(), before.toNs());
            }
        }
        if (live != null) {
            details.setText(live.note() + (live.following() ? "; following the newest events (pan back to stop)"
                    : "; not following (Follow in the live trace's editor, or pan to the end)"));
        } else
        // i14-attachui: end
        details.setText(trace.name() + ": " + index.lanes().size() + " lanes, "
                + TimeFormat.duration(index.end() - index.start()) + "; W/S zoom, A/D pan, drag: range, click: details, . / , : launches");
        LaunchSelection r = pendingReveal;
        pendingReveal = null;
        if (r != null && r.trace() == trace) {
            reveal(r);
        }
    }

    private void reveal(LaunchSelection ls) {
        selectedLaunch = ls.launch();
        markAndReveal(ls.event());
    }

    private void stepLaunch(int direction) {
        LoadedTrace t = loaded;
        if (t == null || t.trace().launchCount() == 0) {
            return;
        }
        Trace trace = t.trace();
        int next;
        if (selectedLaunch < 0) {
            next = firstLaunchInWindow(trace, direction);
        } else {
            next = Math.clamp(selectedLaunch + direction, 0, trace.launchCount() - 1);
        }
        selectEvent(trace.launchEvent(next), true);
    }

    private int firstLaunchInWindow(Trace trace, int direction) {
        TimeWindow w = canvas.navigator().window();
        int n = trace.launchCount();
        if (direction > 0) {
            for (int l = 0; l < n; l++) {
                if (trace.hostNs(trace.launchEvent(l)) >= w.fromNs()) {
                    return l;
                }
            }
            return n - 1;
        }
        for (int l = n - 1; l >= 0; l--) {
            if (trace.hostNs(trace.launchEvent(l)) < w.toNs()) {
                return l;
            }
        }
        return 0;
    }

    /** Selects event {@code event} (-1: nothing), shows its details, publishes a LaunchSelection for kernels. */
    private void selectEvent(int event, boolean reveal) {
        LoadedTrace t = loaded;
        if (t == null) {
            return;
        }
        if (event < 0) {
            selectedLaunch = -1;
            canvas.setMarks(new TimelinePainter.Marks(-1, canvas.marks().rangeFrom(), canvas.marks().rangeTo()));
            details.setText("Nothing under the mouse.");
            return;
        }
        int launch = t.trace().launchIndex(event);
        selectedLaunch = launch;
        if (reveal) {
            markAndReveal(event);
        } else {
            canvas.setMarks(new TimelinePainter.Marks(event, canvas.marks().rangeFrom(), canvas.marks().rangeTo()));
            details.setText(SliceDetails.describe(traceIndex(), event));
        }
        if (launch >= 0) {
            selectionProvider.setSelection(new StructuredSelection(new LaunchSelection(t, launch)));
        }
    }

    private void markAndReveal(int event) {
        TimelineIndex index = traceIndex();
        Trace trace = index.trace();
        canvas.navigator().reveal(TimelineIndex.startNs(trace, event), TimelineIndex.endNs(trace, event));
        canvas.revealLane(index.lanes().indexOf(index.laneOf(event)));
        canvas.setMarks(new TimelinePainter.Marks(event, canvas.marks().rangeFrom(), canvas.marks().rangeTo()));
        details.setText(SliceDetails.describe(index, event));
    }

    // accessors for tests and benchmarks

    /** The index drawn: this view only ever gives its canvas a trace's. */
    private TimelineIndex traceIndex() {
        return (TimelineIndex) canvas.index();
    }

    /** Whether a trace is indexed and drawn. */
    public boolean isReady() {
        return canvas.index() != null && loaded != null && traceIndex().trace() == loaded.trace();
    }

    /** The trace drawn, or null. */
    public @Nullable LoadedTrace shownTrace() {
        return isReady() ? loaded : null;
    }

    /** The visible window. */
    public TimeWindow visibleRange() {
        return canvas.navigator().window();
    }

    /** The selected launch's dense index, or -1. */
    public int selectedLaunch() {
        return selectedLaunch;
    }

    public TimelineCanvas timelineCanvas() {
        return canvas;
    }

    /** The details line's text. */
    public String detailsText() {
        return details.getText();
    }

    /** Canvas point at the middle of event {@code event}'s slice in its stream lane, or null when not visible. */
    public @Nullable Point pointOf(int event) {
        TimelineIndex index = traceIndex();
        TimelineLayout l = canvas.layout();
        int lane = index.lanes().indexOf(index.laneOf(event));
        TimeWindow w = visibleRange();
        long mid = (TimelineIndex.startNs(index.trace(), event) + TimelineIndex.endNs(index.trace(), event)) / 2;
        if (!w.contains(mid)) {
            return null;
        }
        return new Point(l.labelWidth() + (int) w.x(mid, l.dataWidth()), l.laneTop(lane) + l.laneHeight() / 2);
    }
}
