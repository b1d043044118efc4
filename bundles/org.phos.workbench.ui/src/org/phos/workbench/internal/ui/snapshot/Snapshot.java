package org.phos.workbench.internal.ui.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.PlatformUI;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.properties.PropertiesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.internal.ui.trace.TraceEditorInput;
import org.phos.workbench.ui.PhoenixUi;

/**
 * Headless screenshots: when system property {@code phos.snapshot.trace} is set, the workbench opens that trace,
 * selects launch {@code phos.snapshot.launch} (optional), writes {@code window.png} and one PNG per view named in
 * {@code phos.snapshot.views} (comma separated; names in {@link #VIEWS}) into {@code phos.snapshot.out}, and exits.
 * Exit code 0, or 1 with a message on stderr (for example an unknown view name or a trace that failed to load).
 */
public final class Snapshot {
    /** View names for {@code --view}, mapped to view ids ("overview" is the trace editor). Extend here. */
    public static final Map<String, String> VIEWS = new LinkedHashMap<>();
    static {
        VIEWS.put("traces", PhoenixUi.TRACES_VIEW_ID);
        VIEWS.put("launches", LaunchesView.ID);
        VIEWS.put("properties", PropertiesView.ID);
        VIEWS.put("overview", TraceEditor.ID);
        VIEWS.put("accesses", "org.phos.workbench.ui.accessesView");
        VIEWS.put("kernels", "org.phos.workbench.ui.kernelsView");
        VIEWS.put("accuracy", "org.phos.workbench.ui.accuracyView");
        VIEWS.put("timeline", "org.phos.workbench.ui.timeline.traceTimeline");
        VIEWS.put("buffers", "org.phos.workbench.ui.buffersView"); // i11-buffers
        // i12-crtimeline: begin (a small experiment is run for them: SnapshotExperiment)
        VIEWS.put("cr-timeline", PhoenixUi.CR_TIMELINE_VIEW_ID);
        VIEWS.put("cr-compare", PhoenixUi.CR_COMPARE_VIEW_ID);
        // i12-crtimeline: end
        // i12-crviews: begin
        VIEWS.put("cr-comparison", PhoenixUi.CR_COMPARISON_VIEW_ID);
        VIEWS.put("cr-dirty", PhoenixUi.CR_DIRTY_BYTES_VIEW_ID);
        VIEWS.put("cr-metrics", PhoenixUi.CR_METRICS_VIEW_ID);
        VIEWS.put("cr-consistency", PhoenixUi.CR_CONSISTENCY_VIEW_ID);
        // i12-crviews: end
        // i12-exp-ui: begin
        VIEWS.put("experiments", PhoenixUi.EXPERIMENTS_VIEW_ID);
        // i12-exp-ui: end
    }

    private static final long TIMEOUT_MS = 120_000;

    private final IWorkbenchWindow window;
    private final Path trace;
    private final Path out;
    private final int launch;
    private final List<String> views;
    private final long start = System.currentTimeMillis();
    private TraceEditor editor;
    private long usedBefore; // i11-launches
    private long startNanos; // i11-launches

    private Snapshot(IWorkbenchWindow window, Path trace, Path out, int launch, List<String> views) {
        this.window = window;
        this.trace = trace;
        this.out = out;
        this.launch = launch;
        this.views = views;
    }

    /** Starts a snapshot run if the system properties ask for one; called after the window opened. */
    public static void startIfRequested(IWorkbenchWindow window) {
        String trace = System.getProperty("phos.snapshot.trace");
        if (trace == null || trace.isBlank()) {
            return;
        }
        String views = System.getProperty("phos.snapshot.views", "");
        List<String> names = new ArrayList<>();
        for (String v : views.split(",")) {
            if (!v.isBlank()) {
                names.add(v.trim());
            }
        }
        new Snapshot(window, Path.of(trace).toAbsolutePath(),
                Path.of(System.getProperty("phos.snapshot.out", ".")).toAbsolutePath(),
                Integer.parseInt(System.getProperty("phos.snapshot.launch", "-1")), names).begin();
    }

    private void begin() {
        for (String v : views) {
            if (!VIEWS.containsKey(v)) {
                fail("unknown view '" + v + "'; known: " + String.join(", ", VIEWS.keySet()));
                return;
            }
        }
        window.getShell().setSize(1500, 950); // room for every view in the pictures
        IWorkbenchPage page = window.getActivePage();
        try {
            for (String v : views) {
                if (!v.equals("overview")) {
                    page.showView(VIEWS.get(v), null, IWorkbenchPage.VIEW_VISIBLE);
                }
            }
            // Launches on top of its stack (the timeline shares it): the opening time is read from its first paint,
            // and a hidden table never paints; each view is brought to the top again for its own picture
            page.bringToTop(page.showView(LaunchesView.ID, null, IWorkbenchPage.VIEW_VISIBLE));
        } catch (PartInitException e) {
            fail("cannot open the view: " + e.getMessage());
            return;
        }
        // i11-launches: the trace is opened in a workbench that has finished starting (as a person opens one), so
        // the opening figure does not count the window's own start-up work; phos.snapshot.settle ms, default 2000
        window.getShell().getDisplay().timerExec(Integer.getInteger("phos.snapshot.settle", 2000), this::openTrace);
    }

    /** i11-launches: opens the trace (the opening figure is timed from here). */
    private void openTrace() {
        usedBefore = usedAfterGc(); // the heap before the trace, for the opening figure
        window.getShell().getDisplay().setCursorLocation(0, 0); // no tooltip where the pointer happens to rest
        startNanos = System.nanoTime();
        try {
            editor = (TraceEditor) window.getActivePage().openEditor(new TraceEditorInput(trace), TraceEditor.ID);
        } catch (PartInitException e) {
            fail("cannot open " + trace + ": " + e.getMessage());
            return;
        }
        window.getShell().getDisplay().timerExec(200, this::poll);
    }

    private void poll() {
        Display display = window.getShell().getDisplay();
        if (editor.loadedTrace() == null) {
            if (!editor.bannerText().isEmpty()) {
                fail(editor.bannerText());
            } else if (System.currentTimeMillis() - start > TIMEOUT_MS) {
                fail("timed out loading " + trace);
            } else {
                display.timerExec(200, this::poll);
            }
            return;
        }
        IWorkbenchPage page = window.getActivePage();
        IViewPart shown = page.findView(LaunchesView.ID);
        // i11-launches: the opening figure is the Launches table's first paint with rows (the view stamps it in its
        // paint listener, so the polling interval does not count); the overview comes after it
        if (shown instanceof LaunchesView lv && (lv.paintedAtNanos() == 0 || !editor.overviewShown())) {
            if (System.currentTimeMillis() - start > TIMEOUT_MS) {
                fail("timed out waiting for the Launches table of " + trace);
            } else {
                display.timerExec(50, this::poll);
            }
            return;
        }
        if (shown instanceof LaunchesView lv) {
            long painted = (lv.paintedAtNanos() - startNanos) / 1_000_000;
            long read = editor.readNanos() / 1_000_000;
            System.out.println(String.format(java.util.Locale.ROOT, "snapshot: %s: Launches table painted %d ms after "
                    + "the editor was opened; the trace reader took %d ms of it (in the load job); painted/read %.2f",
                    trace.getFileName(), painted, read, read == 0 ? Double.NaN : (double) painted / read));
            long model = editor.loadedTrace().trace().heapFootprintBytes();
            long used = usedAfterGc();
            System.out.println(String.format(java.util.Locale.ROOT, "snapshot: heap used after GC %,d MiB before "
                    + "opening, %,d MiB with the trace open (+%,d MiB); the model's columns %,d MiB; opening cost / "
                    + "model %.3f", usedBefore >> 20, used >> 20, (used - usedBefore) >> 20, model >> 20,
                    (double) (used - usedBefore) / model));
        }
        // end i11-launches
        if (launch >= 0) {
            if (launch >= editor.loadedTrace().trace().launchCount()) {
                fail("launch " + launch + " is not in [0, " + editor.loadedTrace().trace().launchCount() + ") of "
                        + trace);
                return;
            }
            IViewPart v = page.findView(LaunchesView.ID);
            if (v instanceof LaunchesView lv) {
                page.activate(lv); // the selection service reports the active part's selection
                lv.selectAndPublish(launch);
            }
        }
        // i12-crtimeline: begin
        try {
            SnapshotExperiment.publishIfAsked(window, editor.loadedTrace(), views);
        } catch (PartInitException | RuntimeException e) {
            fail("cannot run the experiment for the C/R views: " + e);
            return;
        }
        // i12-crtimeline: end
        display.timerExec(800, this::shoot);
    }

    private void shoot() {
        try {
            Files.createDirectories(out);
            Shell shell = window.getShell();
            shell.update();
            write(shell, out.resolve("window.png"));
            IWorkbenchPage page = window.getActivePage();
            for (String v : views) {
                IWorkbenchPart part = v.equals("overview") ? editor : page.findView(VIEWS.get(v));
                Control c = part == null ? null : control(part);
                settle(); // a part just brought to the top paints on later turns of the event loop
                if (c == null) {
                    fail("view " + v + " is not open");
                    return;
                }
                write(c, out.resolve(v + ".png"));
            }
            System.out.println("snapshot: wrote " + (views.size() + 1) + " PNG files to " + out);
            exit(0);
        } catch (IOException | RuntimeException e) {
            fail("cannot write the snapshots to " + out + ": " + e);
        }
    }

    /** The tab folder showing {@code part} (its tab selected), found by the part's title. */
    private Control control(IWorkbenchPart part) {
        window.getActivePage().bringToTop(part);
        for (org.eclipse.swt.custom.CTabFolder f : folders(window.getShell())) {
            org.eclipse.swt.custom.CTabItem item = f.getSelection();
            if (f.isVisible() && item != null && item.getText().equals(tabText(part))) {
                return f;
            }
        }
        return null;
    }

    /** Runs the event loop until it is idle and for 300 ms more, so what was brought to the top is painted. */
    private void settle() {
        Display d = display();
        long end = System.currentTimeMillis() + 300;
        while (System.currentTimeMillis() < end) {
            while (d.readAndDispatch()) {
                // drain
            }
            window.getShell().update();
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A tab shows the part's name; its title adds the content description (the timeline's trace name). */
    private static String tabText(IWorkbenchPart part) {
        return part instanceof org.eclipse.ui.IWorkbenchPart2 p2 ? p2.getPartName() : part.getTitle();
    }

    private static List<org.eclipse.swt.custom.CTabFolder> folders(Control root) {
        List<org.eclipse.swt.custom.CTabFolder> found = new ArrayList<>();
        if (root instanceof org.eclipse.swt.custom.CTabFolder f) {
            found.add(f);
        }
        if (root instanceof org.eclipse.swt.widgets.Composite c) {
            for (Control child : c.getChildren()) {
                found.addAll(folders(child));
            }
        }
        return found;
    }

    private static void write(Control control, Path file) {
        Display display = control.getDisplay();
        Point size = control.getSize();
        Rectangle where = display.map(control.getParent(), null, control.getBounds());
        if (control instanceof Shell shell) {
            // the menu bar and the client area: without a window manager (Xvfb) nobody draws the trim below and
            // beside them, which came out black
            Rectangle client = display.map(shell, null, shell.getClientArea());
            int top = Math.min(shell.getBounds().y, client.y);
            where = new Rectangle(client.x, top, client.width, client.y + client.height - top);
            size = new Point(where.width, where.height);
        }
        Image image = new Image(display, Math.max(1, size.x), Math.max(1, size.y));
        GC gc = new GC(display);
        try {
            gc.copyArea(image, where.x, where.y);
            ImageLoader loader = new ImageLoader();
            loader.data = new ImageData[] { image.getImageData() };
            loader.save(file.toString(), SWT.IMAGE_PNG);
        } finally {
            gc.dispose();
            image.dispose();
        }
    }

    /** i11-launches: the used heap after a full collection (the least of four tries). */
    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int k = 0; k < 4; k++) {
            System.gc();
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }

    private Display display() {
        return window.getShell().getDisplay();
    }

    private void fail(String message) {
        System.err.println("snapshot: " + message);
        exit(1);
    }

    private void exit(int code) {
        System.setProperty("phos.snapshot.exit", Integer.toString(code));
        PlatformUI.getWorkbench().close();
    }
}
