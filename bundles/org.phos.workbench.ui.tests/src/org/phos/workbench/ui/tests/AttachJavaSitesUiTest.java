package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.attach.LiveTraceEditor;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.trace.core.javasites.JavaSiteLog;
import org.phos.workbench.ui.model.LiveTraces;

/**
 * i14-jsites: File &gt; Attach to GPU Process… on a JCuda program that runs with the JCuda agent under the real
 * recorder (its stand-in JCudaDriver calls the fake libcuda through FFM): the live Launches table's java_site column
 * fills as the launches arrive, each row naming the source line the program marks, in the light and the dark theme;
 * when the program exits, the received stream opens as an ordinary trace with the same sites.
 */
@Tag("slow")
class AttachJavaSitesUiTest extends LiveProcessUi {

    /** The line of the program marked {@code // site:NAME}, as the java_site column prints it. */
    private static String site(String name, String method) throws Exception {
        List<String> lines = Files.readAllLines(RecordingProcess.jcudaProgramFolder().resolve("LiveJCudaProgram.java"));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("// site:" + name)) {
                return "LiveJCudaProgram." + method + "(LiveJCudaProgram.java:" + (i + 1) + ")";
            }
        }
        throw new AssertionError("no line marked site:" + name);
    }

    /** launch number -> java_site of the rows the table shows now. */
    private static Map<String, String> shownSites(Table table) {
        List<String> headers = Arrays.stream(table.getColumns()).map(TableColumn::getText).toList();
        int launch = headers.indexOf("launch");
        int site = headers.indexOf("java_site");
        Map<String, String> m = new HashMap<>();
        int top = table.getTopIndex();
        int rows = Math.max(1, table.getClientArea().height / Math.max(1, table.getItemHeight()));
        for (int i = top; i < Math.min(table.getItemCount(), top + rows); i++) {
            m.put(table.getItem(i).getText(launch), table.getItem(i).getText(site));
        }
        return m;
    }

    private void awaitSites(Table table, LaunchesView view, int rows, String lastSite) {
        robot.waitUntil("the Launches table shows " + rows + " launches, the last one at " + lastSite, () -> {
                    if (view.rowCount() != rows || view.listedTrace() == null) {
                        return false;
                    }
                    int column = Arrays.stream(table.getColumns()).map(TableColumn::getText).toList().indexOf("java_site");
                    return table.getColumn(column).getWidth() > 0
                            && lastSite.equals(shownSites(table).get(Integer.toString(rows - 1)));
                }, Duration.ofSeconds(20));
    }

    /** The program's launches: 0-39 step, 40-69 burst, 70-74 step. */
    private static String expected(String launch, String step, String burst) {
        int n = Integer.parseInt(launch);
        return n >= 40 && n < 70 ? burst : step;
    }

    /** The Launches view maximized (as a double-click on its tab does), so that its java_site column is in sight. */
    private void screenshotMaximized(LaunchesView view, String name) throws Exception {
        IWorkbenchPage page = window.getActivePage();
        var ref = page.getReference(view);
        page.setPartState(ref, IWorkbenchPage.STATE_MAXIMIZED);
        robot.spin(500);
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "launches");
        TableColumn sites = Arrays.stream(table.getColumns()).filter(c -> c.getText().equals("java_site")).findFirst()
                .orElseThrow();
        assertTrue(sites.getWidth() >= 340, "the java_site column is wide enough for its sites: " + sites.getWidth());
        table.showColumn(sites); // scrolled to, as a person scrolls the table sideways
        robot.spin(300);
        robot.screenshot(shell, name);
        page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
        robot.spin(300);
    }

    @Test
    void theLiveLaunchesTableNamesEachLaunchsJavaLine() throws Exception {
        String step = site("step", "step");
        String burst = site("burst", "main");
        Path classes = RecordingProcess.compileJCudaProgram(tmp);
        try (RecordingProcess app = RecordingProcess.jcuda(build, classes, tmp.resolve("xdg"), tmp.resolve("app.phos"))) {
            LiveTraceEditor live = AttachDialog.attach(ui, app, 0, null);
            LaunchesView view = (LaunchesView) window.getActivePage().showView(LaunchesView.ID, null,
                    IWorkbenchPage.VIEW_VISIBLE);
            Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "launches");
            robot.waitUntil("the first snapshot", () -> live.loadedTrace() != null, Duration.ofSeconds(15));

            assertEquals(40, app.command("step 40"));
            awaitSites(table, view, 40, step);
            assertTrue(LiveTraces.of(view.listedTrace()) != null, "a live trace");
            assertTrue(app.alive(), "the sites came while the program runs");
            assertEquals(70, app.command("burst 30"));
            awaitSites(table, view, 70, burst);
            robot.spin(300);
            Map<String, String> shown = shownSites(table);
            for (var e : shown.entrySet()) {
                int n = Integer.parseInt(e.getKey());
                assertEquals(expected(e.getKey(), step, burst), e.getValue(), "launch " + n + " in " + shown);
            }
            assertTrue(shown.size() >= 5, "rows on screen: " + shown);
            assertEquals(JavaSiteLog.sideFileOf(app.traceFile()), live.javaSitesFile());
            robot.waitUntil("the live trace's status counts the launches with a Java site",
                    () -> live.statusText().contains("Java call sites: 70 launches received have one (JCuda agent, "
                            + JavaSiteLog.sideFileOf(app.traceFile()) + ")"), Duration.ofSeconds(10));
            screenshotMaximized(view, "attach-java-sites-light");

            var handlers = window.getService(IHandlerService.class);
            try {
                handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.DARK_COMMAND, null);
                robot.spin(800);
                assertEquals(75, app.command("step 5"));
                awaitSites(table, view, 75, step);
                robot.spin(300);
                screenshotMaximized(view, "attach-java-sites-dark");
            } finally {
                handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.LIGHT_COMMAND, null);
                robot.spin(500);
            }

            // the program exits: the received stream opens as an ordinary trace, with the same sites
            Path received = live.receivedFile();
            assertNotNull(received);
            app.send("exit");
            robot.waitUntil("the received stream reopened as an ordinary trace",
                    () -> window.getActivePage().getActiveEditor() instanceof TraceEditor te
                            && te.loadedTrace() != null && te.file().equals(received.toAbsolutePath().normalize()),
                    Duration.ofSeconds(20));
            TraceEditor ordinary = (TraceEditor) window.getActivePage().getActiveEditor();
            assertEquals(75, ordinary.loadedTrace().trace().launchCount());
            assertTrue(Files.isRegularFile(JavaSiteLog.sideFileOf(received)), "the sites were kept next to it");
            robot.waitUntil("the Launches table shows the received trace with its sites",
                    () -> view.trace() == ordinary.loadedTrace() && view.rowCount() == 75
                            && !shownSites(table).isEmpty() && shownSites(table).entrySet().stream()
                                    .allMatch(e -> e.getValue().equals(expected(e.getKey(), step, burst))),
                    Duration.ofSeconds(15));
            screenshotMaximized(view, "attach-java-sites-received");
        }
    }
}
