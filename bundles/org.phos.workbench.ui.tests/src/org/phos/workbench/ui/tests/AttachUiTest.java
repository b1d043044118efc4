package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Table;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.attach.LiveTraceEditor;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.ui.model.LiveTraces;

/**
 * File &gt; Attach to GPU Process… against a real recording process (native-hooks' fake-libcuda {@code fake_app live}
 * under the real recorder, over the real Unix socket): the dialog lists it, a click on its row and on Attach opens the
 * live trace, the Launches table grows as the process launches, Detach leaves the process running, a second attach
 * follows it again, and after SIGKILL the live trace ends and what was received opens as an ordinary trace.
 */
class AttachUiTest extends LiveProcessUi {

    /** The File menu offers Attach to GPU Process… (the tests then run its command, as the menu item does). */
    private void fileMenuHasAttach() {
        MenuItem file = Arrays.stream(shell.getMenuBar().getItems()).filter(i -> i.getText().contains("File"))
                .findFirst().orElseThrow();
        file.getMenu().notifyListeners(SWT.Show, new Event());
        assertTrue(Arrays.stream(file.getMenu().getItems()).anyMatch(i -> i.getText().startsWith("&Attach to GPU")),
                "File has Attach to GPU Process…");
        file.getMenu().notifyListeners(SWT.Hide, new Event());
    }

    private LaunchesView launches() throws Exception {
        return (LaunchesView) window.getActivePage().showView(LaunchesView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
    }

    private void awaitRows(LaunchesView view, int rows) {
        robot.waitUntil("the Launches table shows " + rows + " launches (it shows " + view.rowCount() + ": "
                + view.statusText() + ")", () -> view.rowCount() == rows && view.listedTrace() != null
                        && LiveTraces.of(view.listedTrace()) != null,
                Duration.ofSeconds(15));
    }

    @Test
    void attachWatchDetachReattachAndSurviveSigkill() throws Exception {
        try (RecordingProcess app = new RecordingProcess(build, tmp.resolve("xdg"), tmp.resolve("app.phos"))) {
            app.command("launch 100");   // before attaching: not in the live stream (the trace file has them)
            fileMenuHasAttach();
            LiveTraceEditor live = AttachDialog.attach(ui, app, 0, "attach-dialog");
            LaunchesView view = launches();
            robot.waitUntil("the first snapshot", () -> live.loadedTrace() != null, Duration.ofSeconds(10));
            assertTrue(live.following(), "a live trace follows the newest events at first");

            // the table grows as the process launches
            app.command("launch 500");
            awaitRows(view, 500);
            app.command("launch 1500");
            awaitRows(view, 2000);
            assertTrue(view.topRow() + view.visibleRows() >= 2000, "following: the newest rows are on screen (top "
                    + view.topRow() + ")");
            assertTrue(view.statusText().contains("live, process " + app.pid()), view.statusText());
            assertTrue(live.statusText().contains("Java call sites: none (no " + app.traceFile() + ".java-sites"),
                    live.statusText()); // i14-jsites: fake_app is no JCuda program
            robot.screenshot(shell, "attach-live-following");

            // scrolling back stops following; the next generation keeps the place
            Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "launches");
            Rectangle first = table.getItem(0).getBounds();
            robot.click(table, first.x + 30, first.y + first.height / 2);
            for (int i = 0; i < 3; i++) {
                robot.key(SWT.PAGE_UP);
                robot.spin(30);
            }
            robot.waitUntil("scrolling back stopped following", () -> !live.following());
            int top = view.topRow();
            app.command("launch 300");
            awaitRows(view, 2300);
            assertEquals(top, view.topRow(), "not following: the table stays where it was scrolled to");

            // Detach: the stream ends, the process goes on
            Button detach = robot.findByData(shell, Button.class, TracesView.ROLE, "detach");
            robot.click(detach);
            robot.waitUntil("the live trace says it detached", () -> live.bannerText().startsWith("Detached"),
                    Duration.ofSeconds(10));
            assertTrue(app.alive(), "the process runs on after Detach");
            assertEquals(4 + 100 + 500 + 1500 + 300 + 7, app.command("launch 7"),
                    "the process still answers and launches after Detach");
            assertEquals(2300, view.rowCount(), "the detached trace keeps what it received");
            robot.screenshot(shell, "attach-detached");
            window.getActivePage().closeAllEditors(false);

            // attach again, then SIGKILL the process mid-stream
            LiveTraceEditor again = AttachDialog.attach(ui, app, 0, null);
            LaunchesView view2 = launches();
            app.command("launch 800");
            awaitRows(view2, 800);
            Path received = again.receivedFile();
            assertNotNull(received);
            app.kill();
            robot.waitUntil("the received stream reopened as an ordinary trace",
                    () -> window.getActivePage().getActiveEditor() instanceof TraceEditor te
                            && te.loadedTrace() != null && te.file().equals(received.toAbsolutePath().normalize()),
                    Duration.ofSeconds(15));
            TraceEditor ordinary = (TraceEditor) window.getActivePage().getActiveEditor();
            assertEquals(800, ordinary.loadedTrace().trace().launchCount(), "every launch received is kept");
            assertNull(ordinary.loadedTrace().trace().end(), "a killed process's stream has no TraceEnd");
            assertNull(LiveTraces.of(ordinary.loadedTrace()), "an ordinary trace, not a live one");
            robot.waitUntil("the Launches table shows the received trace",
                    () -> view2.trace() == ordinary.loadedTrace() && view2.rowCount() == 800, Duration.ofSeconds(10));
            assertTrue(Files.size(received) > 0);
            assertTrue(Arrays.stream(window.getActivePage().getEditorReferences())
                    .noneMatch(r -> r.getId().equals(LiveTraceEditor.ID)), "the live trace closed");
            robot.screenshot(shell, "attach-after-sigkill");
        }
    }
    /** The dialog and the live views in the dark and the light theme, with the Trace Timeline following (screenshots). */
    @Test
    void liveViewsInBothThemes() throws Exception {
        try (RecordingProcess app = new RecordingProcess(build, tmp.resolve("xdg"), tmp.resolve("app.phos"))) {
            app.command("launch 50");
            var handlers = window.getService(IHandlerService.class);
            try {
                handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.DARK_COMMAND, null);
                robot.spin(800);
                LiveTraceEditor live = AttachDialog.attach(ui, app, 0, "attach-dialog-dark");
                LaunchesView view = launches();
                window.getActivePage().showView("org.phos.workbench.ui.timeline.traceTimeline", null,
                        IWorkbenchPage.VIEW_VISIBLE);
                for (int i = 1; i <= 6; i++) {
                    app.command("launch 400");
                    robot.spin(150);
                }
                awaitRows(view, 2400);
                robot.spin(600);
                assertTrue(live.following());
                robot.screenshot(shell, "attach-live-timeline-dark");
                handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.LIGHT_COMMAND, null);
                robot.spin(800);
                app.command("launch 400");
                awaitRows(view, 2800);
                robot.spin(600);
                robot.screenshot(shell, "attach-live-timeline-light");
            } finally {
                handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.LIGHT_COMMAND, null);
            }
        }
    }
    /**
     * A window smaller than what arrives: the views hold about the window, say where the older events are, and after
     * SIGKILL the live trace stays (ended) and opens the process's own trace file on request.
     */
    @Test
    void aSmallWindowSaysWhereOlderEventsAreAndOpensTheTraceFile() throws Exception {
        Path traceFile = tmp.resolve("app.phos");
        try (RecordingProcess app = new RecordingProcess(build, tmp.resolve("xdg"), traceFile)) {
            var listing = org.phos.workbench.trace.core.attach.LiveProcesses.list(app.socketDir(), Duration.ofSeconds(2));
            org.phos.workbench.internal.ui.attach.AttachHandler.attach(window.getActivePage(),
                    new org.phos.workbench.internal.ui.attach.LiveTraceInput(app.socketDir(), listing.live().get(0),
                            1_000));
            LiveTraceEditor live = (LiveTraceEditor) window.getActivePage().getActiveEditor();
            LaunchesView view = launches();
            long events = 0;
            for (int i = 0; i < 10; i++) {
                events = app.command("launch 1000");
                robot.spin(60); // past the recorder's flush (PHOS_FLUSH_MS=20): one batch per command; the window
                                // keeps whole batches, so one batch of everything would stay whole
            }
            long issued = events;
            robot.waitUntil("the newest launches arrived and older ones left the window",
                    // i14-incr: the copy before the stream joined is in it or not, as the attach races the process's start
                    () -> live.lastSnapshot() != null && live.lastSnapshot().received() >= issued - 1
                            && view.trace() == live.loadedTrace() && view.listedTrace() == live.loadedTrace(),
                    Duration.ofSeconds(15));
            int rows = view.rowCount();
            // whole batches: under load (CI's clean clone) the writer put three commands' launches in one batch,
            // and the window kept it whole (3,000 rows)
            assertTrue(rows >= 1_000 && rows <= 6_000, rows + " rows: about the window, not all 10,000");
            assertTrue(view.statusText().contains("older events are not kept here: they are in " + traceFile),
                    view.statusText());
            robot.screenshot(shell, "attach-small-window");
            app.kill();
            robot.waitUntil("the live trace ended", live::isEnded, Duration.ofSeconds(10));
            assertTrue(live.bannerText().contains("ended without closing its trace"), live.bannerText());
            assertTrue(window.getActivePage().getActiveEditor() == live, "a trace larger than the window stays live-ended");
            Button open = robot.findByData(shell, Button.class, TracesView.ROLE, "openTraceFile");
            robot.click(open);
            robot.waitUntil("the process's trace file opened", () -> window.getActivePage()
                    .getActiveEditor() instanceof TraceEditor te && te.loadedTrace() != null, Duration.ofSeconds(10));
            TraceEditor whole = (TraceEditor) window.getActivePage().getActiveEditor();
            assertEquals(traceFile.toAbsolutePath().normalize(), whole.file());
            assertEquals(10_000, whole.loadedTrace().trace().launchCount(), "the trace file has every launch");
        }
    }
}
