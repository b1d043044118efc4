package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.process.ProcessCheckpoint;
import org.phos.workbench.cr.core.process.ProcessState;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.attach.LiveTraceEditor;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.theme.SwitchThemeHandler;

/**
 * The live trace's driver checkpoint, by real clicks, against a recording fake-libcuda process (native-hooks'
 * {@code fake_app live} under the recorder) and the real checkpoint helper over the fake libcuda's cuCheckpointProcess*:
 * attach through File &gt; Attach to GPU Process…, the whole checkpoint (phases and stall shown, the process goes on),
 * then the steps one at a time with only the buttons the state allows enabled (a launch issued while locked completes
 * only after Unlock), then a refusal set in the process, explained in words; screenshots in both themes.
 */
class CheckpointUiTest extends LiveProcessUi {
    @BeforeEach
    void helperOverTheFakeDriver() {
        useCheckpointHelperOverTheFakeDriver();
    }

    private Button button(String role) {
        return robot.findByData(shell, Button.class, TracesView.ROLE, role);
    }

    private String label(String role) {
        return robot.findByData(shell, Label.class, TracesView.ROLE, role).getText();
    }

    private LiveTraceEditor live;

    private void awaitIdle(ProcessCheckpoint m, String what) {
        robot.waitUntil(what + " (state: " + live.checkpointPanel().stateText() + ")", () -> !m.busy(),
                Duration.ofSeconds(15));
        robot.spin(50);
    }

    /** The buttons enabled now, in order: all, lock, checkpoint, restore, unlock. */
    private String enabled() {
        StringBuilder b = new StringBuilder();
        for (String r : new String[] { "checkpointAll", "checkpoint-lock", "checkpoint-checkpoint", "checkpoint-restore",
                "checkpoint-unlock" }) {
            b.append(button(r).isEnabled() ? '1' : '0');
        }
        return b.toString();
    }

    /** A screenshot of the window with the pointer moved off the buttons (no tooltip over the strip). */
    private void shot(String name) throws Exception {
        var b = shell.getBounds();
        robot.moveTo(new org.eclipse.swt.graphics.Point(b.x + 5, b.y + b.height - 5));
        robot.spin(400);
        robot.screenshot(shell, name);
    }

    /** A screenshot with the live trace maximized (as a double click on its tab does), then the layout back. */
    private void zoomed(String name) throws Exception {
        IWorkbenchPage page = window.getActivePage();
        var ref = page.getReference(live);
        page.setPartState(ref, IWorkbenchPage.STATE_MAXIMIZED);
        robot.spin(300);
        shot(name);
        page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
        robot.spin(200);
    }

    @Test
    void checkpointStepsAndARefusalByClicks() throws Exception {
        // the fake driver's checkpoint takes 300 ms (restore 150 ms): long enough to see on the timeline
        try (RecordingProcess app = new RecordingProcess(build, tmp.resolve("xdg"), tmp.resolve("app.phos"),
                java.util.Map.of("PHOS_FAKE_CKPT_MS", "300"))) {
            app.command("launch 50");
            live = AttachDialog.attach(ui, app, 0, null);
            ProcessCheckpoint m = live.checkpointPanel().machine();
            robot.waitUntil("the driver's state is known", () -> m.state() == ProcessState.RUNNING && !m.busy(),
                    Duration.ofSeconds(10));
            robot.spin(50);
            assertEquals("11000", enabled(), "running: the whole checkpoint or Lock");
            assertTrue(live.checkpointPanel().stateText().startsWith("Process " + app.pid() + " is running"),
                    live.checkpointPanel().stateText());

            // the whole checkpoint: four phases, the stall, running again; the process goes on
            app.command("launch 30");
            robot.spin(300);
            robot.click(button("checkpointAll"));
            awaitIdle(m, "the checkpoint finished");
            assertEquals(ProcessCheckpoint.Outcome.DONE, m.lastRun().outcome(), live.checkpointPanel().stateText());
            String phases = live.checkpointPanel().phasesText();
            assertTrue(phases.matches("lock [0-9.]+ ms · checkpoint [0-9.]+ ms · restore [0-9.]+ ms · unlock [0-9.]+ ms"
                    + " · stall [0-9.]+ ms"), phases);
            assertTrue(m.phases().get(1).ms() >= 299, "the fake checkpoint takes 300 ms: " + m.phases().get(1));
            assertEquals(ProcessState.RUNNING, m.state());
            robot.spin(300);
            assertEquals(4 + 50 + 30 + 20, app.command("launch 20"), "the process launches after the checkpoint");
            // the phases as marks on the live trace's timelines (the session gives them; the Trace Timeline draws them)
            var marks = org.phos.workbench.ui.model.LiveTraces.of(live.loadedTrace()).marks();
            assertEquals(List.of("lock", "checkpointed", "restored", "unlocked: stall"), marks.stream()
                    .map(k -> k.label().replaceAll(" [0-9.]+ m?s$", "")).toList(), marks.toString());
            assertEquals(m.phases().get(0).beginNs(), marks.get(0).hostNs());
            var tr = live.loadedTrace().trace();
            long lockAt = marks.get(0).hostNs() - tr.header().startMonoNs();
            assertTrue(tr.launchCount() >= 30 && lockAt > tr.hostNs(tr.eventCount() - 1),
                    "the lock comes after the launches before it, on the trace's clock: " + lockAt + " vs "
                            + tr.hostNs(tr.eventCount() - 1));
            window.getActivePage().showView("org.phos.workbench.ui.timeline.traceTimeline", null,
                    IWorkbenchPage.VIEW_VISIBLE);
            robot.waitUntil("the launches after the checkpoint arrived", () -> live.loadedTrace() != null
                    && live.loadedTrace().trace().launchCount() >= 50, Duration.ofSeconds(10));
            robot.spin(300);
            shot("checkpoint-done");

            // one step at a time; only the buttons the driver would accept are enabled
            robot.click(button("checkpoint-lock"));
            awaitIdle(m, "locked");
            assertEquals(ProcessState.LOCKED, m.state());
            assertEquals("00101", enabled(), "locked: Checkpoint or Unlock");
            assertTrue(live.checkpointPanel().stateText().contains("is locked: its CUDA calls wait"), live.checkpointPanel().stateText());
            app.send("launch 5"); // the process's next CUDA call waits for the unlock
            robot.click(button("checkpoint-checkpoint"));
            awaitIdle(m, "checkpointed");
            assertEquals(ProcessState.CHECKPOINTED, m.state());
            assertEquals("00010", enabled(), "checkpointed: Restore only");
            shot("checkpoint-checkpointed");
            robot.click(button("checkpoint-restore"));
            awaitIdle(m, "restored");
            assertEquals(ProcessState.LOCKED, m.state());
            robot.click(button("checkpoint-unlock"));
            awaitIdle(m, "unlocked");
            assertEquals(ProcessState.RUNNING, m.state());
            assertEquals(4 + 50 + 30 + 20 + 5, app.answer(), "the launch issued while locked completed after the unlock");

            // a refusal (the fake driver refuses this process's checkpoint as the real one refuses managed memory)
            app.command("refuse checkpoint:801");
            robot.click(button("checkpointAll"));
            awaitIdle(m, "the refused checkpoint finished");
            assertEquals(ProcessCheckpoint.Outcome.REFUSED, m.lastRun().outcome());
            String why = label("checkpointMessage");
            assertEquals(why, live.checkpointPanel().refusalText());
            assertTrue(why.startsWith("The driver refused: Checkpoint (cuCheckpointProcessCheckpoint) refused: 801 "
                    + "CUDA_ERROR_NOT_SUPPORTED."), why);
            assertTrue(why.contains("managed memory"), why);
            String refusedPhases = live.checkpointPanel().phasesText();
            assertTrue(refusedPhases.matches("lock [0-9.]+ ms · checkpoint [0-9.]+ ms REFUSED \\(801 "
                    + "CUDA_ERROR_NOT_SUPPORTED\\) · unlock [0-9.]+ ms \\(unlocked again after the refusal\\) · stall .*"),
                    refusedPhases);
            assertTrue(live.checkpointPanel().strip().getToolTipText().contains("Last run: " + refusedPhases),
                    live.checkpointPanel().strip().getToolTipText());
            assertEquals(ProcessState.RUNNING, m.state(), "unlocked again");
            assertEquals("11000", enabled());
            assertEquals(4 + 50 + 30 + 20 + 5 + 1, app.command("launch 1"), "the process goes on after the refusal");
            shot("checkpoint-refused-light");
            zoomed("checkpoint-refused-light-editor");
            var handlers = window.getService(IHandlerService.class);
            try {
                handlers.executeCommand(SwitchThemeHandler.DARK_COMMAND, null);
                robot.spin(800);
                live.checkpointPanel().strip().redraw();
                robot.spin(200);
                shot("checkpoint-refused-dark");
                app.command("refuse");
                robot.click(button("checkpointAll"));
                awaitIdle(m, "the dark-theme checkpoint finished");
                assertEquals("", live.checkpointPanel().messageText(), "no refusal shown after a good run");
                shot("checkpoint-done-dark");
                zoomed("checkpoint-done-dark-editor");
            } finally {
                handlers.executeCommand(SwitchThemeHandler.LIGHT_COMMAND, null);
                robot.spin(300);
            }

            // the process ends: nothing more to checkpoint
            window.getActivePage().showView(LaunchesView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
        }
    }

    // i14-cupti: begin
    /**
     * A process recorded with CUPTI timing (the fake libcuda answers CUPTI's calls): the Driver checkpoint section asks
     * the recorder to let go of CUPTI before the lock and to take it up after, and says so under the strip. First on a
     * driver that then locks the process (PHOS_FAKE_CUPTI_RELEASABLE), then as driver 580 on the H100, which refuses
     * a process that used CUPTI for good: the refusal names the way out.
     */
    @Test
    void aCuptiRecordingIsPreparedAndResumedAroundTheCheckpoint() throws Exception {
        java.util.Map<String, String> cupti = new java.util.HashMap<>(java.util.Map.of("PHOS_TIMING", "1",
                "PHOS_TIMING_SOURCE", "auto", "PHOS_CUPTI", build.resolve("fake").resolve("libcuda.so.1").toString(),
                "PHOS_FAKE_CKPT_MS", "100", "PHOS_FAKE_CUPTI_RELEASABLE", "1"));
        try (RecordingProcess app = new RecordingProcess(build, tmp.resolve("xdg"), tmp.resolve("app.phos"), cupti)) {
            app.command("launch 20");
            live = AttachDialog.attach(ui, app, 0, null);
            ProcessCheckpoint m = live.checkpointPanel().machine();
            robot.waitUntil("the driver's state is known", () -> m.state() == ProcessState.RUNNING && !m.busy(),
                    Duration.ofSeconds(10));
            robot.click(button("checkpointAll"));
            awaitIdle(m, "the checkpoint finished");
            robot.waitUntil("the recorder's done arrived", () -> m.recorderAnswers().size() == 2, Duration.ofSeconds(5));
            robot.spin(100);
            assertEquals(ProcessCheckpoint.Outcome.DONE, m.lastRun().outcome(), live.checkpointPanel().messageText());
            String msg = label("checkpointMessage");
            assertEquals("Recorder: prepare \u2192 ready cupti flushed,kinds-off,unsubscribed,finalized; done \u2192 "
                    + "resumed cupti; operations between prepare and done were timed by CUDA events", msg);
            assertEquals(msg, live.checkpointPanel().recorderText());
            assertEquals(ProcessState.RUNNING, m.state());
            assertEquals(4 + 20 + 5, app.command("launch 5"), "the process goes on");
            zoomed("checkpoint-cupti-done-editor");
        }
        window.getActivePage().closeAllEditors(false);
        cupti.put("PHOS_FAKE_CUPTI_RELEASABLE", "0");
        try (RecordingProcess app = new RecordingProcess(build, tmp.resolve("xdg2"), tmp.resolve("app2.phos"), cupti)) {
            app.command("launch 20");
            live = AttachDialog.attach(ui, app, 0, null);
            ProcessCheckpoint m = live.checkpointPanel().machine();
            robot.waitUntil("the driver's state is known", () -> m.state() == ProcessState.RUNNING && !m.busy(),
                    Duration.ofSeconds(10));
            robot.click(button("checkpointAll"));
            awaitIdle(m, "the refused checkpoint finished");
            robot.waitUntil("the recorder's done arrived", () -> m.recorderAnswers().size() == 2, Duration.ofSeconds(5));
            robot.spin(100);
            assertEquals(ProcessCheckpoint.Outcome.REFUSED, m.lastRun().outcome());
            String msg = label("checkpointMessage");
            assertTrue(msg.startsWith("The driver refused: Lock (cuCheckpointProcessLock) refused: 801 "
                    + "CUDA_ERROR_NOT_SUPPORTED. The process was " + ProcessCheckpoint.CUPTI_REFUSAL), msg);
            assertTrue(msg.endsWith("\nRecorder: prepare \u2192 ready cupti flushed,kinds-off,unsubscribed,finalized; "
                    + "done \u2192 resumed cupti; operations between prepare and done were timed by CUDA events"), msg);
            assertEquals(ProcessState.RUNNING, m.state());
            assertEquals(4 + 20 + 1, app.command("launch 1"), "the process goes on after the refusal");
            shot("checkpoint-cupti-refused");
            zoomed("checkpoint-cupti-refused-editor");
            var handlers = window.getService(IHandlerService.class);
            try {
                handlers.executeCommand(SwitchThemeHandler.DARK_COMMAND, null);
                robot.spin(800);
                zoomed("checkpoint-cupti-refused-dark-editor");
            } finally {
                handlers.executeCommand(SwitchThemeHandler.LIGHT_COMMAND, null);
                robot.spin(300);
            }
        }
    }
    // i14-cupti: end
}
