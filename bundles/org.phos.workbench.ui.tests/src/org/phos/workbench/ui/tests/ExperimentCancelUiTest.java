package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.jobs.IJobChangeEvent;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.core.runtime.jobs.JobChangeAdapter;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Table;
import org.eclipse.ui.IWorkbenchPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentListener;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.analysis.core.experiment.SavedExperiment;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.experiment.ExperimentJob;
import org.phos.workbench.internal.ui.experiment.ExperimentsView;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * Cancel of a long experiment (a re-run over a generated 1M-launch trace), by a click on the Experiments view's
 * Cancel button: the Job ends within 200 ms of the press, and the saved experiment is as it was (same files, same
 * sizes and times; the store lists the same experiments in the same state).
 */
@Tag("slow")
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class ExperimentCancelUiTest {
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final UiRobot robot = ui.robot();
    private final ExperimentUi exp = new ExperimentUi(ui);

    @AfterEach
    void close() {
        exp.cleanUp();
    }

    /** Every file under {@code dir} with its size and modification time. */
    static TreeMap<String, String> files(Path dir) throws Exception {
        TreeMap<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                out.put(dir.relativize(p).toString(), a.isDirectory() ? "dir" : a.size() + " " + a.lastModifiedTime());
            }
        }
        return out;
    }

    @Test
    void cancellingAReRunEndsItWithin200msAndKeepsTheSavedExperiment(@TempDir Path dir) throws Exception {
        LoadedTrace trace = exp.openGenerated(dir, "1M");
        ExperimentStore store = ExperimentStore.of(trace.file());
        store.create("kept", new ExperimentConfig("soft-cow", "launch:500000", "h100", "auto", 1600), trace.trace(),
                ExperimentListener.NONE, null);
        TreeMap<String, String> before = files(store.root());
        List<SavedExperiment> listed = store.list();

        ExperimentsView view = (ExperimentsView) ui.window().getActivePage().showView(ExperimentsView.ID, null,
                IWorkbenchPage.VIEW_VISIBLE);
        Table table = robot.findByData(ui.shell(), Table.class, TracesView.ROLE, "experiments");
        robot.click(table);
        robot.key(SWT.F5);
        robot.waitUntil("the saved experiment is listed", () -> table.getItemCount() == 1, Duration.ofSeconds(30));
        Rectangle r = table.getItem(0).getBounds(0);
        robot.click(table, r.x + 10, r.y + r.height / 2);
        robot.waitUntil("it opens", () -> view.experiments().size() == 1, Duration.ofSeconds(60));
        robot.keyWith(SWT.CTRL, 'r', 'r');
        robot.waitUntil("the re-run starts", () -> Job.getJobManager().find(ExperimentJob.FAMILY).length == 1);
        Job job = Job.getJobManager().find(ExperimentJob.FAMILY)[0];
        long[] ended = { 0 };
        IStatus[] status = { null };
        job.addJobChangeListener(new JobChangeAdapter() {
            @Override
            public void done(IJobChangeEvent event) {
                ended[0] = System.nanoTime();
                status[0] = event.getResult();
            }
        });
        // into the simulation, then Cancel by a click; the press is the moment the person cancels
        // (a re-run takes 3 s on a quiet machine: cancel well before its end)
        robot.spin(800);
        assertTrue(view.isRunning(), "the re-run of 1M launches is still running after 0.8 s");
        Button cancel = robot.findByData(ui.shell(), Button.class, TracesView.ROLE, "exp.cancel");
        // the button takes effect on release (its Selection, when the view cancels the Job); the mouse went down
        // a robot's click earlier (tens of ms under Xvfb): both are printed, the Selection is the press
        long[] pressed = { 0 };
        long[] down = { 0 };
        cancel.addListener(SWT.MouseDown, e -> down[0] = System.nanoTime());
        cancel.addListener(SWT.Selection, e -> pressed[0] = System.nanoTime());
        robot.screenshot(ui.shell(), "experiment-running");
        robot.click(cancel);
        robot.waitUntil("the Job ends", () -> ended[0] != 0, Duration.ofSeconds(10));
        try {
            robot.waitUntil("the view says it was cancelled", () -> !view.isRunning()
                    && view.statusText().contains("cancelled"));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the Job ended with " + status[0] + ", the view "
                    + (view.isRunning() ? "still runs it" : "says: " + view.statusText()), e);
        }
        assertTrue(pressed[0] != 0, "the click reached the Cancel button");
        double ms = (ended[0] - pressed[0]) / 1e6;
        System.out.printf("experiment cancel: the Job ended %.1f ms after Cancel was pressed (%.1f ms after the mouse "
                + "went down on it)%n", ms, (ended[0] - down[0]) / 1e6);
        assertEquals(IStatus.CANCEL, status[0].getSeverity(), String.valueOf(status[0]));
        assertTrue(ms <= 200, "the Job ended " + ms + " ms after Cancel was pressed");
        assertEquals(before, files(store.root()), "the saved experiment's files are as they were");
        assertEquals(listed, store.list(), "the store lists the same experiments");
        assertEquals(SavedExperiment.State.READY, store.get("kept").state());
    }
}
