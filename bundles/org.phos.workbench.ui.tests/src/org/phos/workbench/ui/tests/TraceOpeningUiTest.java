package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.eclipse.core.runtime.Platform;
import org.eclipse.core.runtime.preferences.InstanceScope;
import org.eclipse.swt.SWT;
import org.eclipse.swt.dnd.DND;
import org.eclipse.swt.dnd.DropTarget;
import org.eclipse.swt.dnd.FileTransfer;
import org.eclipse.swt.dnd.TransferData;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.IEditorReference;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.trace.RecentTraces;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.internal.ui.trace.TraceEditorInput;
import org.phos.workbench.ui.PhoenixUi;

/**
 * Opening traces by dropping files and from the recent list.
 * <p>
 * Drops: a real drag and drop needs a drag source in another X client (a file manager), and there is none under Xvfb,
 * so the drop is delivered through SWT's own drop path: the {@link DropTarget} the view or the editor area installed
 * gets {@code DND.DragEnter} and {@code DND.Drop} events (an SWT {@code DNDEvent} holding the file names as
 * {@link FileTransfer} data), which its listeners receive as a real drop would be received.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class TraceOpeningUiTest {
    // a new instance per test, made on the UI thread: the window is brought to the front before each test
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @BeforeEach
    void forgetRecentTraces() {
        RecentTraces.standard().clear();
    }

    @AfterEach
    void closeEditors() {
        window.getActivePage().closeAllEditors(false);
        RecentTraces.standard().clear();
    }

    private Set<Path> openFiles() {
        return Arrays.stream(window.getActivePage().getEditorReferences()).map(r -> {
            try {
                return ((TraceEditorInput) r.getEditorInput()).file();
            } catch (org.eclipse.ui.PartInitException e) {
                throw new AssertionError(e);
            }
        }).collect(Collectors.toSet());
    }

    /** Sends a drag-enter and a drop of {@code files} to {@code target}; @return the operation the target chose. */
    private static int drop(DropTarget target, List<Path> files) throws Exception {
        TransferData type = FileTransfer.getInstance().getSupportedTypes()[0];
        int detail = DND.DROP_NONE;
        for (int kind : new int[] { DND.DragEnter, DND.Drop }) {
            Class<?> dndEvent = Class.forName("org.eclipse.swt.dnd.DNDEvent", true, DropTarget.class.getClassLoader());
            Constructor<?> make = dndEvent.getDeclaredConstructor();
            make.setAccessible(true);
            Event e = (Event) make.newInstance();
            e.widget = target;
            e.time = (int) System.currentTimeMillis();
            e.detail = kind == DND.Drop ? detail : DND.DROP_COPY;
            e.data = kind == DND.Drop ? files.stream().map(Path::toString).toArray(String[]::new) : null;
            set(dndEvent, e, "dataType", type);
            set(dndEvent, e, "dataTypes", new TransferData[] { type });
            set(dndEvent, e, "operations", DND.DROP_COPY | DND.DROP_MOVE | DND.DROP_LINK);
            target.notifyListeners(kind, e);
            if (kind == DND.DragEnter) {
                detail = e.detail;
            }
        }
        return detail;
    }

    private static void set(Class<?> type, Object event, String name, Object value) throws Exception {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        f.set(event, value);
    }

    private static DropTarget dropTarget(Control c) {
        Object t = c.getData(DND.DROP_TARGET_KEY);
        assertTrue(t instanceof DropTarget, c + " takes drops");
        return (DropTarget) t;
    }

    @Test
    void droppedTraceFilesOpenOnTheTracesViewAndTheEditorArea(@TempDir Path dir) throws Exception {
        Path samples = LaunchFiltersUiTest.samples();
        Path cuda = samples.resolve("cuda-suite.phos");
        Path ptx = samples.resolve("ptx-driver.phos");
        Path cupy = samples.resolve("cupy-ops.phos");
        Path notes = Files.writeString(dir.resolve("notes.txt"), "not a trace");

        // two files at once onto the Traces view's list: two editors
        Table traces = robot.findByData(shell, Table.class, TracesView.ROLE, "traces");
        assertEquals(DND.DROP_COPY, drop(dropTarget(traces), List.of(cuda, ptx)), "the view accepts files as a copy");
        robot.waitUntil("both dropped traces are open", () -> openFiles().containsAll(List.of(cuda, ptx)));
        IWorkbenchPage page = window.getActivePage();
        for (IEditorReference r : page.getEditorReferences()) {
            TraceEditor editor = (TraceEditor) r.getEditor(true);
            robot.waitUntil(editor.getTitle() + " loads", () -> editor.loadedTrace() != null, Duration.ofSeconds(30));
        }

        // a file that is not a trace: said in the view's status line, nothing opens
        TracesView view = (TracesView) page.findView(PhoenixUi.TRACES_VIEW_ID);
        drop(dropTarget(traces), List.of(notes));
        robot.waitUntil("the view says why notes.txt did not open",
                () -> view.statusText().equals("Cannot open " + notes + ": not a .phos trace"));
        assertEquals(2, page.getEditorReferences().length);
        robot.screenshot(shell, "drop-not-a-trace");

        // onto the editor area (the workbench window's drop target there)
        List<Control> areas = UiRobot.findAll(shell, Control.class, c -> c.getData(DND.DROP_TARGET_KEY) != null
                && !isInside(c, traces.getParent().getParent()) && Arrays.stream(dropTarget(c).getDropListeners())
                        .anyMatch(l -> l.getClass().getName().startsWith("org.phos.workbench.internal.ui.trace.TraceOpening")));
        assertEquals(1, areas.size(), "one drop target of ours outside the Traces view (the editor area): " + areas);
        assertEquals(DND.DROP_COPY, drop(dropTarget(areas.get(0)), List.of(cupy)));
        robot.waitUntil("the trace dropped on the editor area is open", () -> openFiles().contains(cupy));
        robot.waitUntil("and active", () -> page.getActiveEditor() instanceof TraceEditor e && e.file().equals(cupy));
        robot.screenshot(shell, "drop-editor-area");
    }

    private static boolean isInside(Control c, Control ancestor) {
        for (Control p = c; p != null; p = p.getParent()) {
            if (p == ancestor) {
                return true;
            }
        }
        return false;
    }

    @Test
    void recentTracesSurviveReopeningTheListAndForgetMissingFiles(@TempDir Path dir) throws Exception {
        Path samples = LaunchFiltersUiTest.samples();
        Path copy = Files.copy(samples.resolve("ptx-driver.phos"), dir.resolve("soon-gone.phos"));
        IWorkbenchPage page = window.getActivePage();
        LaunchFiltersUiTest.openThroughTracesView(robot, shell, samples, "cuda-suite.phos");
        robot.waitUntil("cuda-suite.phos is recent", () -> RecentTraces.standard().list().size() == 1,
                Duration.ofSeconds(30));
        LaunchFiltersUiTest.openThroughTracesView(robot, shell, dir, "soon-gone.phos");
        robot.waitUntil("two recent traces", () -> RecentTraces.standard().list().size() == 2, Duration.ofSeconds(30));
        assertEquals(List.of(copy.toAbsolutePath().normalize(), samples.resolve("cuda-suite.phos")),
                RecentTraces.standard().list(), "newest first");

        // written through to the workspace's preference file (what a restart reads)
        Path prefs = Path.of(Platform.getInstanceLocation().getURL().getPath()).resolve(
                ".metadata/.plugins/org.eclipse.core.runtime/.settings/" + RecentTraces.NODE + ".prefs");
        assertTrue(Files.readString(prefs).contains("soon-gone.phos"), "saved in " + prefs);
        assertEquals(RecentTraces.standard().list(),
                new RecentTraces(InstanceScope.INSTANCE.getNode(RecentTraces.NODE)).list(), "read back");

        // close the Traces view and open it again: its recent list shows both
        page.hideView(page.findView(PhoenixUi.TRACES_VIEW_ID));
        robot.spin(200);
        TracesView view = (TracesView) page.showView(PhoenixUi.TRACES_VIEW_ID);
        Table recent = robot.findByData(shell, Table.class, TracesView.ROLE, "recentTraces");
        assertEquals(List.of("soon-gone.phos", "cuda-suite.phos"),
                Arrays.stream(recent.getItems()).map(i -> i.getText(0)).toList());
        robot.screenshot(shell, "recent-traces");

        // File > Recent Traces lists them too
        MenuItem file = Arrays.stream(shell.getMenuBar().getItems())
                .filter(i -> i.getText().replace("&", "").equals("File")).findFirst().orElseThrow();
        file.getMenu().notifyListeners(SWT.Show, new Event());
        MenuItem recentMenu = Arrays.stream(file.getMenu().getItems())
                .filter(i -> i.getText().replace("&", "").startsWith("Recent Traces")).findFirst()
                .orElseThrow(() -> new AssertionError("File > Recent Traces"));
        Menu sub = recentMenu.getMenu();
        assertNotNull(sub);
        sub.notifyListeners(SWT.Show, new Event());
        List<String> items = Arrays.stream(sub.getItems()).map(MenuItem::getText).toList();
        file.getMenu().notifyListeners(SWT.Hide, new Event());
        assertTrue(items.size() == 2 && items.get(0).contains("soon-gone.phos") && items.get(1).contains("cuda-suite.phos"),
                "menu items " + items);

        // a recent trace whose file is gone: opening it says so and removes it
        page.closeAllEditors(false);
        Files.delete(copy);
        TableItem gone = recent.getItem(0);
        Rectangle r = gone.getBounds(0);
        robot.click(recent, r.x + 10, r.y + r.height / 2);
        robot.key(SWT.CR);
        robot.waitUntil("the view says the file is gone", () -> view.statusText()
                .equals("Cannot open " + copy.toAbsolutePath().normalize() + ": no such file; removed from the recent traces"));
        assertEquals(List.of(samples.resolve("cuda-suite.phos")), RecentTraces.standard().list());
        assertEquals(List.of("cuda-suite.phos"), Arrays.stream(recent.getItems()).map(i -> i.getText(0)).toList());
        assertFalse(Files.readString(prefs).contains("soon-gone.phos"), "removed from " + prefs);
        assertEquals(0, page.getEditorReferences().length, "nothing opened");
        robot.screenshot(shell, "recent-trace-missing");
    }
}
