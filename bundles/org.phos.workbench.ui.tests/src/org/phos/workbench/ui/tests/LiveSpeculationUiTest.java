package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Link;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.Test;
import org.phos.workbench.analysis.core.LiveSpeculation;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.attach.LiveAnalysis;
import org.phos.workbench.internal.ui.attach.LiveTraceEditor;
import org.phos.workbench.internal.ui.launches.Analysis;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/**
 * A live trace whose window (1,000 events, typed into the Attach dialog) is much smaller than what a fake-libcuda
 * process launches: the Launches table numbers its rows as the saved stream numbers its launches (not from the
 * window's start), fills the {@code speculated} column of new launches as a walk of the saved stream speculates them,
 * says where the older events are with a link that opens the process's trace file, and the temporary received stream
 * is gone once the live trace closes while the copy a person kept stays.
 */
class LiveSpeculationUiTest extends LiveProcessUi {

    private static int column(Table table, String header) {
        TableColumn[] cs = table.getColumns();
        for (int i = 0; i < cs.length; i++) {
            if (cs[i].getText().equals(header)) {
                return i;
            }
        }
        throw new AssertionError("no column " + header);
    }

    @Test
    void launchNumbersAndSpeculationOfALiveTraceAreThoseOfTheSavedStream() throws Exception {
        Path traceFile = tmp.resolve("app.phos");
        try (RecordingProcess app = new RecordingProcess(build, tmp.resolve("xdg"), traceFile)) {
            LiveTraceEditor live = AttachDialog.attach(ui, app, 1_000, null);
            LaunchesView view = (LaunchesView) window.getActivePage().showView(LaunchesView.ID, null,
                    IWorkbenchPage.VIEW_VISIBLE);
            long events = 0;
            for (int i = 0; i < 8; i++) {
                events = app.command("launch 1000");
                // a snapshot of each command's batch before the next: a batch that came and left the window of 1,000
                // between two snapshots would never be in a view, nor speculated (the stream holds the copy before the
                // launches or not, as the attach races the process's start: events - 1 or events)
                long seen = events - 1;
                robot.waitUntil("a snapshot holds the " + seen + " events received", () -> live.lastSnapshot() != null
                        && live.lastSnapshot().received() >= seen, Duration.ofSeconds(10));
            }
            long issued = events;
            assertEquals(4 + 8_000, issued, "3 allocations, a copy and the launches");
            try {
                robot.waitUntil("every launch arrived and was speculated",
                        () -> live.liveSpeculation().speculated() == 8_000, Duration.ofSeconds(20));
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + ": " + live.liveSpeculation().speculated() + " speculated; "
                        + live.statusText(), e);
            }
            robot.waitUntil("the table lists the newest generation", () -> view.listedTrace() == live.loadedTrace(),
                    Duration.ofSeconds(10));
            robot.spin(300);
            Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "launches");
            int launchCol = column(table, "launch");
            int hostCol = column(table, "host_ns");
            int specCol = column(table, "speculated");
            assertTrue(table.getColumn(specCol).getWidth() > 0, "a live trace shows the speculated column");
            int rows = view.rowCount();
            assertTrue(rows >= 1_000 && rows < 3_000, rows + " rows: about the window, not all 8,000");
            // following: the newest rows are on screen; their numbers are the stream's, the last one 7,999
            Map<Long, String[]> shown = new HashMap<>();
            for (int i = 0; i < table.getItemCount(); i++) {
                String n = table.getItem(i).getText(launchCol);
                if (!n.isEmpty()) {
                    shown.put(Long.parseLong(n), new String[] { table.getItem(i).getText(hostCol),
                            table.getItem(i).getText(specCol) });
                }
            }
            assertTrue(shown.size() >= 5, shown.size() + " rows on screen");
            assertTrue(shown.containsKey(7_999L), "the newest launch is number 7,999: " + shown.keySet());
            assertTrue(shown.keySet().stream().allMatch(n -> n > 7_999 - rows), "numbers are the stream's, not "
                    + "counted from the window's start: " + shown.keySet());
            // older events: the view says where they are and opens them
            Link older = robot.findByData(shell, Link.class, TracesView.ROLE, "olderEvents");
            assertTrue(older.isVisible(), "the view says older events left the window");
            assertTrue(older.getText().contains(traceFile.toString()), older.getText());
            LiveSpeculation speculation = live.liveSpeculation();
            assertEquals(8_000, speculation.speculated(), "every launch speculated once");
            assertTrue(live.statusText().contains("Speculation ("), live.statusText());
            robot.screenshot(shell, "live-speculation");
            // i14-livebest: the CSV that Export CSV writes and Copy copies, taken while the live trace is listed
            String csv = view.csv();
            var handlers = window.getService(IHandlerService.class);
            try {
                handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.DARK_COMMAND, null);
                robot.spin(800);
                robot.screenshot(shell, "live-speculation-dark");
            } finally {
                handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.LIGHT_COMMAND, null);
                robot.spin(300);
            }

            // keep the received stream, end the process: the kept copy is the saved trace to compare with
            Path keptFile = tmp.resolve("kept.phos");
            live.keepAs(keptFile);
            Path received = live.receivedFile();
            assertNotNull(received);
            app.send("exit");
            robot.waitUntil("the live trace ended", live::isEnded, Duration.ofSeconds(10));
            robot.waitUntil("the kept copy is made", () -> Files.isRegularFile(keptFile), Duration.ofSeconds(10));
            Trace saved = TraceReader.read(keptFile, null).trace();
            assertEquals(8_000, saved.launchCount());
            List<String> names = LiveSpeculation.registered(Analysis.session().catalog());
            List<SpeculationEngine> engines = names.stream()
                    .map(n -> Analysis.session().catalog().create(n, saved)).toList();
            Map<Long, String> expected = new HashMap<>();
            TraceSpeculator.forEngines(saved, engines).run(null, l -> {
                if (shown.containsKey((long) l.launchIndex())) {
                    List<LaunchSpeculation> said = new ArrayList<>();
                    for (int e = 0; e < engines.size(); e++) {
                        LaunchSpeculation ls = LaunchSpeculation.collect(engines.get(e), l);
                        // named as the live engines are (best, not what it stands for)
                        said.add(new LaunchSpeculation(ls.launchEvent(), names.get(e), ls.covered(), ls.accesses()));
                    }
                    expected.put((long) l.launchIndex(), LiveAnalysis.summary(said));
                }
            });
            List<String> compared = new ArrayList<>();
            for (var e : shown.entrySet()) {
                int launch = (int) (long) e.getKey();
                assertEquals(Long.toString(saved.hostNs(saved.launchEvent(launch))), e.getValue()[0],
                        "row numbered " + launch + " is the saved trace's launch " + launch);
                assertEquals(expected.get(e.getKey()), e.getValue()[1], "speculated column of launch " + launch);
                compared.add(e.getValue()[1]);
            }
            assertTrue(compared.stream().allMatch(c -> c.contains("arg-scan 3r 3w")), "arg-scan names x, y and the "
                    + "scale the struct parameter points to: " + compared);
            // i14-livebest: begin
            // the column offers best, the engine the workbench recommends elsewhere, as the saved stream's walk gives it
            assertTrue(names.contains("best"), names.toString());
            assertTrue(compared.stream().allMatch(c -> c.contains(" · best ") && !c.contains("best –")),
                    "best speaks for every launch: " + compared);
            // Export CSV / Copy number the launches as the saved stream does (speculate --launch N), not from the
            // window's start: each row's launch number gives the saved trace's launch with the same host time
            String[] lines = csv.split("\\R");
            List<String> header = List.of(lines[0].split(","));
            int csvLaunch = header.indexOf("launch");
            int csvHost = header.indexOf("host_ns");
            assertTrue(csvLaunch >= 0 && csvHost >= 0, lines[0]);
            assertTrue(lines.length - 1 >= 1_000, (lines.length - 1) + " rows exported");
            long lastExported = -1;
            for (int i = 1; i < lines.length; i++) {
                String[] f = lines[i].split(",");
                long n = Long.parseLong(f[csvLaunch]);
                assertTrue(n > lastExported, "ascending stream numbers: " + n + " after " + lastExported);
                lastExported = n;
                assertEquals(Long.toString(saved.hostNs(saved.launchEvent((int) n))), f[csvHost],
                        "exported row numbered " + n + " is the saved trace's launch " + n);
            }
            assertEquals(7_999, lastExported, "the newest launch exported is the stream's last");
            // i14-livebest: end

            // the older-events link opens the process's trace file
            Rectangle b = older.getBounds();
            org.eclipse.swt.graphics.GC gc = new org.eclipse.swt.graphics.GC(older);
            int openAt = gc.textExtent(older.getText().replace("<a>Open</a>", "")).x + gc.textExtent("Op").x;
            gc.dispose();
            robot.click(older, openAt, b.height / 2);
            robot.waitUntil("the process's trace file opened", () -> window.getActivePage()
                    .getActiveEditor() instanceof TraceEditor te && te.loadedTrace() != null
                    && te.file().equals(traceFile.toAbsolutePath().normalize()), Duration.ofSeconds(10));

            // closing the live trace deletes its temporary received stream; the kept copy stays
            window.getActivePage().closeEditor(live, false);
            assertFalse(Files.exists(received), "the temporary received stream is deleted on close");
            assertTrue(Files.isRegularFile(keptFile), "the kept copy stays");
        }
    }
}
