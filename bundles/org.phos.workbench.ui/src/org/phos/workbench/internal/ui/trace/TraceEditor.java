package org.phos.workbench.internal.ui.trace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.resource.ColorRegistry;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.IEditorInput;
import org.eclipse.ui.IEditorSite;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.PlatformUI;
import org.phos.workbench.ui.model.ViewSelectionProvider;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.trace.core.TraceAnomaly;
import org.phos.workbench.trace.core.TraceFormatException;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWarning;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * One opened trace, as an editor tab: loads the file in a cancellable {@link Job}, shows what the load said (damage,
 * anomalies, or why the file could not be read) in a banner above the overview, and publishes the {@link LoadedTrace}
 * as its selection so the views follow the active editor.
 */
public final class TraceEditor extends ReadOnlyEditor {
    /** The editor id in plugin.xml. */
    public static final String ID = "org.phos.workbench.ui.traceEditor";
    /** Theme colour of the banner shown when a load reported damage or failed. */
    public static final String WARNING_BACKGROUND = "org.phos.workbench.ui.warningBackground";

    private final ViewSelectionProvider selection = new ViewSelectionProvider();
    private Label banner;
    private TraceOverview overview; // i11-buffers: the overview page (charts), was a StyledText
    private @org.eclipse.jdt.annotation.Nullable LoadedTrace loaded;
    private @org.eclipse.jdt.annotation.Nullable Job job;
    private @org.eclipse.jdt.annotation.Nullable Job overviewJob;
    private volatile long readNanos;
    private boolean overviewDone;

    @Override
    public void init(IEditorSite site, IEditorInput input) throws PartInitException {
        if (!(input instanceof TraceEditorInput)) {
            throw new PartInitException("Not a trace: " + input.getName());
        }
        setSite(site);
        setInput(input);
        setPartName(input.getName());
        setTitleToolTip(input.getToolTipText());
        site.setSelectionProvider(selection);
    }

    /** The trace file of this editor. */
    public Path file() {
        return ((TraceEditorInput) getEditorInput()).file();
    }

    /** The loaded trace, or null while loading or after a failed load. */
    public @org.eclipse.jdt.annotation.Nullable LoadedTrace loadedTrace() {
        return loaded;
    }

    @Override
    public void createPartControl(Composite parent) {
        GridLayoutFactory.fillDefaults().spacing(0, 0).applyTo(parent);
        banner = new Label(parent, SWT.WRAP);
        banner.setData(TracesView.ROLE, "banner");
        ColorRegistry colors = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry();
        banner.setBackground(colors.get(WARNING_BACKGROUND));
        GridDataFactory.fillDefaults().grab(true, false).exclude(true).applyTo(banner);
        banner.setVisible(false);
        overview = new TraceOverview(parent); // i11-buffers: the overview page with charts
        OpeningTimes.mark("editor created");
        overview.setText("Loading " + file() + " …");
        GridDataFactory.fillDefaults().grab(true, true).applyTo(overview);
        startLoad();
    }

    private void startLoad() {
        Path file = file();
        Display display = getSite().getShell().getDisplay();
        Job load = Job.create("Loading trace " + file.getFileName(), (IProgressMonitor monitor) -> {
            try {
                OpeningTimes.mark("load job started");
                long started = System.nanoTime();
                TraceLoadResult r = TraceReader.read(file, monitor);
                readNanos = System.nanoTime() - started;
                OpeningTimes.mark("trace read");
                // i14-agent: begin
                try {
                    org.phos.workbench.internal.ui.launches.Analysis.session().javaSites(r.trace(),
                            org.phos.workbench.trace.core.javasites.JavaSites.nextTo(r.trace(), file));
                } catch (IOException e) {
                    org.eclipse.core.runtime.ILog.of(TraceEditor.class).warn(e.getMessage() + "; no Java call sites shown");
                }
                // i14-agent: end
                LoadedTrace t = new LoadedTrace(file, r.trace(), r.warnings(), r.anomalies());
                // the views get the trace first; the overview walks every event and comes after them, in a job
                // that waits for the Launches view's first listing (same scheduling rule), so it never delays it
                display.asyncExec(() -> showLoaded(t));
                return Status.OK_STATUS;
            } catch (OperationCanceledException e) {
                display.asyncExec(() -> showFailure("Loading " + file + " was cancelled."));
                return Status.CANCEL_STATUS;
            } catch (TraceFormatException e) {
                display.asyncExec(() -> showFailure(
                        "Cannot read " + e.file() + " at offset " + e.offset() + ": " + e.reason()));
                return Status.OK_STATUS;
            } catch (IOException | RuntimeException e) {
                display.asyncExec(() -> showFailure("Cannot read " + file + ": " + e.getMessage()));
                return Status.OK_STATUS;
            }
        });
        load.setUser(true);
        job = load;
        load.schedule();
    }

    private void showLoaded(LoadedTrace t) {
        if (overview.isDisposed()) {
            return;
        }
        OpeningTimes.mark("trace handed to the UI thread");
        loaded = t;
        overview.setText("Loaded " + t.name() + "; computing the overview…");
        RecentTraces.standard().add(t.file());
        List<String> lines = new ArrayList<>();
        for (TraceWarning w : t.warnings()) {
            lines.add("⚠ " + w);
        }
        for (TraceAnomaly a : t.anomalies()) {
            lines.add("⚠ " + a.message());
        }
        if (!lines.isEmpty()) {
            showBanner(t.name() + ": " + lines.size() + (lines.size() == 1 ? " problem" : " problems")
                    + " found while loading\n" + String.join("\n", lines));
        }
        selection.setSelection(new StructuredSelection(t));
        OpeningTimes.mark("trace published to the views");
        startOverview(t);
    }

    /** Builds the overview text in a Job after the views' first work on the trace ({@link TraceJobs#opening}). */
    private void startOverview(LoadedTrace t) {
        Display display = overview.getDisplay();
        Job job = Job.create("Overview of " + t.name(), (IProgressMonitor monitor) -> {
            OpeningTimes.mark("overview started");
            org.phos.workbench.analysis.core.Overview o = TraceOverview.compute(t.trace(), monitor);
            OpeningTimes.mark("overview computed");
            display.asyncExec(() -> {
                if (!overview.isDisposed() && loaded == t) {
                    overview.show(t.file().toString(), o);
                    overviewDone = true;
                }
            });
            return Status.OK_STATUS;
        });
        job.setRule(TraceJobs.opening(t));
        job.setPriority(Job.DECORATE);
        overviewJob = job;
        job.schedule();
    }

    /** Nanoseconds the trace reader took in the load job (0 before the trace loaded). */
    public long readNanos() {
        return readNanos;
    }

    /** Whether the overview text is there (false while it is computed). */
    public boolean overviewShown() {
        return overviewDone;
    }

    private void showFailure(String message) {
        if (overview.isDisposed()) {
            return;
        }
        overview.setText("");
        showBanner(message);
    }

    private void showBanner(String text) {
        banner.setText(text);
        banner.setVisible(true);
        ((org.eclipse.swt.layout.GridData) banner.getLayoutData()).exclude = false;
        banner.getParent().layout(true);
    }

    /** The banner's text (empty when the load was clean). */
    public String bannerText() {
        return banner.isVisible() ? banner.getText() : "";
    }

    @Override
    public void dispose() {
        Job j = job;
        if (j != null) {
            j.cancel();
        }
        Job o = overviewJob;
        if (o != null) {
            o.cancel();
        }
        LoadedTrace t = loaded;
        if (t != null) {
            Job.getJobManager().cancel(t); // the views' jobs about this trace (their family is the trace)
        }
        super.dispose();
    }

    @Override
    public void setFocus() {
        overview.setFocus();
    }
}
