package org.phos.workbench.internal.ui.timeline.cr;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.PlatformUI;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.internal.ui.timeline.LabelFit;
import org.phos.workbench.internal.ui.timeline.TimeFormat;
import org.phos.workbench.internal.ui.timeline.TimelineCanvas;
import org.phos.workbench.internal.ui.timeline.TimelinePainter;
import org.phos.workbench.internal.ui.timeline.TimelinePalette;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.ui.model.ExperimentSelection;

/**
 * One C/R timeline with its run picker: a head line (experiment, trace, the run's stalls) and a combo of the
 * experiment's runs (hidden when there is one), over a {@link TimelineCanvas} drawing the picked run's
 * {@link CrTimelineContent}. The content of a run is built in a Job (a 1M-launch run has millions of intervals to
 * sort once); {@link #isReady()} says when it is drawn. Used once by the C/R Timeline view, twice by C/R Compare.
 */
public final class CrTimelinePane {
    private final Composite root;
    private final Composite bar;
    private final Label head;
    private final Combo runs;
    private final TimelineCanvas canvas;
    private final List<Consumer<CrTimelinePane>> installed = new ArrayList<>();
    private @Nullable ExperimentSelection experiment;
    private @Nullable CrTimelineContent content;
    private @Nullable Job job;
    private int shownRun = -1;
    private String headText = ""; // ui-polish

    /** @param role the widgets' {@link TraceTimelineView#ROLE} prefix for tests ("cr", "left", "right") */
    public CrTimelinePane(Composite parent, String role, TimelineCanvas.Callbacks callbacks) {
        root = new Composite(parent, SWT.NONE);
        GridLayout gl = new GridLayout(1, false);
        gl.marginWidth = 0;
        gl.marginHeight = 0;
        gl.verticalSpacing = 2;
        root.setLayout(gl);
        bar = new Composite(root, SWT.NONE);
        GridLayout bl = new GridLayout(2, false);
        bl.marginWidth = 2;
        bl.marginHeight = 0;
        bar.setLayout(bl);
        bar.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        head = new Label(bar, SWT.NONE);
        GridData hd = new GridData(SWT.FILL, SWT.CENTER, true, false);
        hd.widthHint = 100; // the head is cut rather than widening the view; its tooltip has all of it
        head.setLayoutData(hd);
        head.setData(TraceTimelineView.ROLE, role + "-head");
        head.addListener(SWT.Resize, e -> fitHead()); // ui-polish
        runs = new Combo(bar, SWT.READ_ONLY | SWT.DROP_DOWN);
        runs.setData(TraceTimelineView.ROLE, role + "-runs");
        runs.setToolTipText("The experiment's run shown here");
        GridData rd = new GridData(SWT.RIGHT, SWT.CENTER, false, false);
        rd.widthHint = 220;
        runs.setLayoutData(rd);
        runs.addListener(SWT.Selection, e -> showRun(runs.getSelectionIndex()));
        var themes = PlatformUI.getWorkbench().getThemeManager();
        canvas = new TimelineCanvas(root, palette(), callbacks);
        canvas.control().setData(TraceTimelineView.ROLE, role + "-canvas");
        canvas.control().setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        canvas.setEmptyText("No C/R run: open an experiment in the Experiments view.");
        org.eclipse.jface.util.IPropertyChangeListener themeListener = e -> root.getDisplay().asyncExec(() -> {
            if (!root.isDisposed()) {
                canvas.setPalette(palette());
            }
        });
        themes.addPropertyChangeListener(themeListener);
        root.addDisposeListener(e -> {
            themes.removePropertyChangeListener(themeListener);
            Job j = job;
            if (j != null) {
                j.cancel();
            }
        });
        setHead("No experiment");
    }

    // ui-polish: begin
    /** The head's whole text (its tooltip); the label shows as much as fits, shortened at a word ({@link LabelFit}). */
    private void setHead(String text) {
        headText = text;
        head.setToolTipText(text);
        fitHead();
    }

    private void fitHead() {
        if (head.isDisposed()) {
            return;
        }
        int room = head.getSize().x;
        org.eclipse.swt.graphics.GC gc = new org.eclipse.swt.graphics.GC(head);
        try {
            String shown = room <= 0 ? headText : LabelFit.fit(headText, room - 2, t -> gc.textExtent(t).x);
            String text = shown == null ? "" : shown;
            if (!text.equals(head.getText())) {
                head.setText(text);
            }
        } finally {
            gc.dispose();
        }
    }
    // ui-polish: end

    private static TimelinePalette palette() {
        return new TimelinePalette(PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry(),
                CrCategory.KEYS);
    }

    public Composite control() {
        return root;
    }

    /**
     * Adds a control made by {@code factory} (on the head bar) right of the run picker: a view's lock, export, ...
     */
    public <T extends org.eclipse.swt.widgets.Control> T addToBar(java.util.function.Function<Composite, T> factory) {
        T c = factory.apply(bar);
        ((GridLayout) bar.getLayout()).numColumns = bar.getChildren().length;
        c.setLayoutData(new GridData(SWT.RIGHT, SWT.CENTER, false, false));
        bar.layout(true);
        return c;
    }

    public TimelineCanvas canvas() {
        return canvas;
    }

    /** Called on the UI thread each time a run's content is installed and drawn. */
    public void onInstalled(Consumer<CrTimelinePane> listener) {
        installed.add(listener);
    }

    /** Shows {@code e}'s run {@code run} and offers all its runs in the combo. */
    public void show(ExperimentSelection e, int run) {
        experiment = e;
        runs.removeAll();
        for (CrRun r : e.result().runs()) {
            runs.add(r.name());
        }
        boolean several = e.result().runs().size() > 1;
        runs.setVisible(several);
        ((GridData) runs.getLayoutData()).exclude = !several;
        bar.layout(true);
        root.layout(true);
        int r = Math.clamp(run, 0, e.result().runs().size() - 1);
        runs.select(r);
        showRun(r);
    }

    /** Shows run {@code index} of the experiment. */
    public void showRun(int index) {
        ExperimentSelection e = experiment;
        if (e == null || index < 0 || index >= e.result().runs().size()) {
            return;
        }
        if (runs.getSelectionIndex() != index) {
            runs.select(index);
        }
        shownRun = index;
        content = null;
        CrRun run = e.result().runs().get(index);
        setHead("Building the timeline of " + run.name() + " ...");
        Job previous = job;
        if (previous != null) {
            previous.cancel();
        }
        Job j = Job.create("C/R timeline of " + run.name(), (IProgressMonitor m) -> {
            CrTimelineContent c = new CrTimelineContent(run);
            if (m.isCanceled()) {
                return Status.CANCEL_STATUS;
            }
            root.getDisplay().asyncExec(() -> install(e, index, c));
            return Status.OK_STATUS;
        });
        j.setUser(false);
        job = j;
        j.schedule();
    }

    private void install(ExperimentSelection e, int index, CrTimelineContent c) {
        if (root.isDisposed() || e != experiment || index != shownRun) {
            return;
        }
        content = c;
        canvas.setIndex(c);
        canvas.setMarks(TimelinePainter.Marks.NONE);
        setHead(headline(e, c));
        bar.layout(true);
        for (Consumer<CrTimelinePane> l : List.copyOf(installed)) {
            l.accept(this);
        }
    }

    /** "experiment · trace · run: stalls N, total T, longest L; end E". */
    static String headline(ExperimentSelection e, CrTimelineContent c) {
        var st = c.hostStalls();
        long total = st.stream().mapToLong(s -> s.durationNs()).sum();
        long longest = st.stream().mapToLong(s -> s.durationNs()).max().orElse(0);
        String stalls = st.size() + (st.size() == 1 ? " stall" : " stalls");
        return e.result().name() + " · " + e.trace().name() + " · " + c.run().name() + ": " + stalls + ", total "
                + TimeFormat.duration(total) + ", longest " + TimeFormat.duration(longest) + "; run ends at "
                + TimeFormat.duration(c.run().metrics().endNs());
    }

    /** Whether the picked run is drawn. */
    public boolean isReady() {
        return content != null && canvas.index() == content;
    }

    public @Nullable CrTimelineContent content() {
        return content;
    }

    public @Nullable ExperimentSelection experiment() {
        return experiment;
    }

    public Combo runCombo() {
        return runs;
    }

    /** The head's whole text (the label may show it shortened). */
    public String headText() {
        return headText;
    }
}
