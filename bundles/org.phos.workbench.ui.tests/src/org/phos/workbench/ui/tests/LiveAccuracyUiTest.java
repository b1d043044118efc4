package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.widgets.Table;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.Test;
import org.phos.workbench.analysis.core.LiveAccuracy;
import org.phos.workbench.cli.BuiltinCommands;
import org.phos.workbench.cli.Main;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accuracy.AccuracyView;
import org.phos.workbench.internal.ui.attach.LiveAccuracyPanel;
import org.phos.workbench.internal.ui.attach.LiveTraceEditor;
import org.phos.workbench.internal.ui.theme.SwitchThemeHandler;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.speculation.core.validate.EngineValidation;
import org.phos.workbench.speculation.core.validate.ValidationReport;

/**
 * i14-liveacc: accuracy of a live trace. The process is native-hooks' {@code fake_app live} under the real recorder
 * with its fake observer, which hands observed accesses to the recorder through {@code phos_recorder_observed} as the
 * sanitizer tool does; attaching goes through File &gt; Attach to GPU Process… with real input. The live trace's
 * Accuracy section starts empty, shows the engines' figures once the first truth arrives and moves when more comes;
 * the Accuracy view follows; when the process exits the received stream opens as an ordinary trace whose accuracy
 * (the Accuracy view, and {@code validate} in-process) is what the section said last. Screenshots light and dark.
 */
class LiveAccuracyUiTest extends LiveProcessUi {

    private static LiveAccuracy.EngineFigures engine(LiveAccuracy.Figures f, String name) {
        return f.engines().stream().filter(e -> e.engine().equals(name)).findFirst().orElseThrow();
    }

    private static String row(Table t, String engine) {
        for (var item : t.getItems()) {
            if (item.getText(0).equals(engine)) {
                StringBuilder b = new StringBuilder();
                for (int c = 0; c < t.getColumnCount(); c++) {
                    b.append(c == 0 ? "" : " | ").append(item.getText(c));
                }
                return b.toString();
            }
        }
        return "";
    }

    @Test
    void accuracyAppearsAndMovesAsTheTruthArrivesThenEqualsValidate() throws Exception {
        var handlers = window.getService(IHandlerService.class);
        try (RecordingProcess app = new RecordingProcess(build, tmp.resolve("xdg"), tmp.resolve("app.phos"),
                Map.of("FAKE_OBSERVER", "1"))) {
            app.command("launch 8"); // before attaching, and never observed
            AccuracyView accuracyView = (AccuracyView) window.getActivePage().showView(AccuracyView.ID, null,
                    IWorkbenchPage.VIEW_VISIBLE);
            LiveTraceEditor live = AttachDialog.attach(ui, app, 0, null);
            robot.waitUntil("the first snapshot", () -> live.loadedTrace() != null, Duration.ofSeconds(10));
            LiveAccuracyPanel panel = live.accuracyPanel();
            assertNotNull(panel);
            Table table = panel.table();
            assertEquals(0, table.getItemCount(), "no truth yet: no figures");
            assertTrue(panel.headerText().contains("no observed accesses yet"), panel.headerText());
            assertTrue(!table.isVisible(), "no truth yet: the section is one line");
            robot.screenshot(shell, "live-accuracy-waiting");

            // the first truth: 40 launches observed, 30 of them with accesses (the fake observer's k % 4 == 3 touch none)
            app.command("forget"); // the 8 launches from before attaching are not observed
            app.command("launch 40");
            assertTrue(app.observe().endsWith("observed 40 rc 0"), "queued for the attached reader");
            robot.waitUntil("the accuracy section shows the first figures", () -> panel.figures() != null
                    && engine(panel.figures(), "phos").launchesJudged() == 30, Duration.ofSeconds(15));
            robot.spin(300);
            assertTrue(robot.findByData(shell, Table.class, TracesView.ROLE, "liveAccuracy") == table,
                    "the figures' table is shown");
            String first = row(table, "phos");
            assertTrue(first.startsWith("phos | 30 | "), first);
            assertEquals(LiveAccuracy.DEFAULT_ENGINES.size(), table.getItemCount(), "one row per engine");
            assertTrue(panel.headerText().contains("30 of 40 launches observed"), panel.headerText());
            robot.waitUntil("the Accuracy view follows the live trace", () -> accuracyView.result() != null
                    && accuracyView.result().report() != null
                    && accuracyView.result().report().observedLaunches() == 30, Duration.ofSeconds(15));
            // in the default layout the editor is shorter than its sections: they scroll together, and the table
            // keeps a row for every engine instead of being squeezed (it showed two and a half)
            int rowsHeight = table.getHeaderHeight() + table.getItemCount() * table.getItemHeight();
            assertTrue(table.getClientArea().height >= rowsHeight - table.getHeaderHeight(), "table squeezed to "
                    + table.getClientArea().height + " px of " + rowsHeight);
            org.eclipse.swt.custom.ScrolledComposite scroll = robot.findByData(shell,
                    org.eclipse.swt.custom.ScrolledComposite.class, TracesView.ROLE, "liveScroll");
            assertTrue(scroll.getContent().getSize().y >= table.getBounds().y + table.getBounds().height,
                    "the scroll reaches the table's last row");
            robot.screenshot(shell, "live-accuracy-light");
            screenshotEditor(live, "live-accuracy-editor-light");
            // scrolled to its end, the last engine's row and the status lines are in sight
            scroll.setOrigin(0, scroll.getContent().getSize().y);
            robot.spin(300);
            robot.screenshot(shell, "live-accuracy-scrolled");
            scroll.setOrigin(0, 0);

            // more truth, in the dark theme: the figures move, and say by how much
            handlers.executeCommand(SwitchThemeHandler.DARK_COMMAND, null);
            robot.spin(800);
            app.command("launch 60");
            assertTrue(app.observe().endsWith("observed 60 rc 0"));
            robot.waitUntil("the figures moved", () -> panel.figures() != null
                    && engine(panel.figures(), "phos").launchesJudged() == 75, Duration.ofSeconds(15));
            robot.spin(300);
            String second = row(table, "phos");
            assertTrue(second.startsWith("phos | 75 (+45) | "), second);
            assertTrue(panel.headerText().contains("75 of 100 launches observed") && panel.headerText().contains(
                    "judged 2 times"), panel.headerText());
            robot.waitUntil("the Accuracy view moved too", () -> accuracyView.result() != null
                    && accuracyView.result().report() != null
                    && accuracyView.result().report().observedLaunches() == 75, Duration.ofSeconds(15));
            robot.spin(300);
            robot.screenshot(shell, "live-accuracy-dark");
            screenshotEditor(live, "live-accuracy-editor-dark");
            handlers.executeCommand(SwitchThemeHandler.LIGHT_COMMAND, null);
            robot.spin(500);
            LiveAccuracy.Figures last = panel.figures();
            Path received = live.receivedFile();
            assertNotNull(received);

            // the process exits: the received stream opens as an ordinary trace; its accuracy is what the section said
            app.send("exit");
            robot.waitUntil("the received stream reopened as an ordinary trace",
                    () -> window.getActivePage().getActiveEditor() instanceof TraceEditor te
                            && te.loadedTrace() != null && te.file().equals(received.toAbsolutePath().normalize()),
                    Duration.ofSeconds(20));
            TraceEditor ordinary = (TraceEditor) window.getActivePage().getActiveEditor();
            assertEquals(100, ordinary.loadedTrace().trace().launchCount());
            accuracyView.show(ordinary.loadedTrace());
            robot.waitUntil("the Accuracy view judged the ordinary trace", () -> accuracyView.result() != null
                    && accuracyView.result().trace() == ordinary.loadedTrace() && accuracyView.result().report() != null,
                    Duration.ofSeconds(20));
            ValidationReport report = accuracyView.result().report();
            for (EngineValidation e : report.engines()) {
                LiveAccuracy.EngineFigures f = LiveAccuracy.EngineFigures.of(e);
                assertEquals(f, engine(last, e.engine()), "the ordinary trace's " + e.engine() + " = the live figures");
            }
            // and validate on the received stream prints the live figures (in-process command line)
            String validate = cli("validate", received.toString(), "--engine", String.join(",",
                    LiveAccuracy.DEFAULT_ENGINES));
            for (LiveAccuracy.EngineFigures f : last.engines()) {
                String line = validate.lines().filter(l -> l.startsWith(f.engine() + " ")).findFirst().orElse("");
                List<String> cells = List.of(line.substring(f.engine().length()).trim().split("\\s+"));
                assertEquals(List.of(Long.toString(f.launchesJudged()), Long.toString(f.unsafeLaunches()),
                        f.share(f.writeRecall())), cells.subList(0, 3), line);
                assertEquals(f.share(f.bytePrecision()), cells.get(4), line);
            }
            robot.screenshot(shell, "live-accuracy-ended");
        } finally {
            handlers.executeCommand(SwitchThemeHandler.LIGHT_COMMAND, null);
        }
    }

    /** The live trace's editor alone, maximized (its sections in full), then restored. */
    private void screenshotEditor(LiveTraceEditor live, String name) throws Exception {
        IWorkbenchPage page = window.getActivePage();
        var ref = page.getReference(live);
        page.setPartState(ref, IWorkbenchPage.STATE_MAXIMIZED);
        robot.spin(500);
        robot.screenshot(shell, name);
        page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
        robot.spin(300);
    }

    private static String cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(BuiltinCommands.all()).run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertEquals(0, code, String.join(" ", args) + " failed: " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
