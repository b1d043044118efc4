package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import org.eclipse.core.commands.ParameterizedCommand;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.commands.ICommandService;
import org.eclipse.ui.handlers.IHandlerService;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.experiment.NewExperimentHandler;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * What the experiment UI tests do the way a person does: open a copy of a sample trace (experiments are saved beside
 * it, never beside the samples), open New Experiment through its command, find the dialog's fields by role, type into
 * them, click the Trace Timeline.
 */
final class ExperimentUi {
    /** The Trace Timeline's view id and the data key of its widgets' roles (bundle org.phos.workbench.ui.timeline). */
    static final String TIMELINE_ID = "org.phos.workbench.ui.timeline.traceTimeline";
    static final String TIMELINE_ROLE = "org.phos.workbench.ui.timeline.role";

    private final WorkbenchUi ui;
    private final UiRobot robot;
    private final Rectangle windowBefore;

    ExperimentUi(WorkbenchUi ui) {
        this.ui = ui;
        this.robot = ui.robot();
        // the same window whatever ran before (another test may have resized it); restored by cleanUp
        windowBefore = ui.shell().getBounds();
        ui.shell().setBounds(0, 0, 1280, 1000);
        robot.spin(200);
    }

    /**
     * After a test: the views other tests expect on top of their stacks (Properties, Launches) there again, the
     * window as it was, and no New Experiment dialog left open.
     */
    void cleanUp() {
        for (Shell s : robot.display().getShells()) {
            if (!s.isDisposed() && "newExperiment".equals(s.getData(TracesView.ROLE))) {
                s.close();
            }
        }
        IWorkbenchPage page = ui.window().getActivePage();
        page.closeAllEditors(false);
        try {
            // Properties and Launches on top of their stacks again (Experiments and Trace Timeline share them);
            // VIEW_VISIBLE leaves an active stack as it is, so each is activated
            page.showView("org.phos.workbench.ui.launchesView");
            page.showView("org.phos.workbench.ui.propertiesView");
            ui.shell().setBounds(windowBefore);
            robot.spin(200);
        } catch (org.eclipse.ui.PartInitException e) {
            throw new AssertionError(e);
        }
    }

    /** Clicks Run in the dialog and waits until it closed (the experiment's Job then runs). */
    void run(Shell dialog) {
        Button run = role(dialog, Button.class, "exp.run");
        robot.waitUntil("Run is enabled", run::isEnabled);
        robot.click(run);
        try {
            robot.waitUntil("the dialog closes", dialog::isDisposed);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; Run " + (run.isEnabled() ? "enabled" : "disabled")
                    + " at " + robot.display().map(run, null, run.getBounds()) + " of the screen "
                    + robot.display().getBounds() + ", dialog " + dialog.getBounds() + ", says: "
                    + role(dialog, Label.class, "exp.summary").getText(), e);
        }
    }

    /** Copies sample {@code name} into {@code dir}, opens it through the Traces view and waits until it loaded. */
    LoadedTrace openCopy(Path dir, String name) throws Exception {
        Files.copy(LaunchFiltersUiTest.samples().resolve(name), dir.resolve(name));
        return open(dir, name);
    }

    LoadedTrace open(Path dir, String name) {
        LaunchFiltersUiTest.openThroughTracesView(robot, ui.shell(), dir, name);
        IWorkbenchPage page = ui.window().getActivePage();
        robot.waitUntil("a trace editor for " + name + " is active", () -> page.getActiveEditor() instanceof TraceEditor e
                && e.file().getFileName().toString().equals(name));
        TraceEditor editor = (TraceEditor) page.getActiveEditor();
        robot.waitUntil("the trace has loaded", () -> editor.loadedTrace() != null, Duration.ofSeconds(120));
        return editor.loadedTrace();
    }

    /**
     * A generated trace of {@code launches} launches in {@code dir} ({@code generate}, in-process), opened in the
     * workbench; waits until the work that follows a load (listing, overview, timeline) is done, so timings that
     * follow do not share the two cores with it.
     */
    LoadedTrace openGenerated(Path dir, String launches) throws Exception {
        Path file = dir.resolve("generated.phos");
        LaunchFiltersUiTest.cli("generate", "--launches", launches, "--seed", "7", "--out", file.toString());
        LoadedTrace t = open(dir, "generated.phos");
        robot.waitUntil("the jobs that follow the load are done", () -> org.eclipse.core.runtime.jobs.Job
                .getJobManager().find(null).length == 0 || java.util.Arrays.stream(org.eclipse.core.runtime.jobs.Job
                        .getJobManager().find(null)).allMatch(j -> j.getState() != org.eclipse.core.runtime.jobs.Job.RUNNING),
                Duration.ofMinutes(3));
        robot.spin(1000);
        return t;
    }

    /** Runs Experiment &gt; New Experiment... (its command, as the menu item does) and returns the dialog's shell. */
    Shell newExperiment() throws Exception {
        IHandlerService handlers = ui.window().getService(IHandlerService.class);
        ICommandService commands = ui.window().getService(ICommandService.class);
        handlers.executeCommand(new ParameterizedCommand(commands.getCommand(NewExperimentHandler.COMMAND_ID), null),
                null);
        return dialogShell();
    }

    /** The open New Experiment dialog's shell. */
    Shell dialogShell() {
        Shell[] found = new Shell[1];
        robot.waitUntil("the New Experiment dialog is open", () -> {
            found[0] = Arrays.stream(robot.display().getShells())
                    .filter(s -> !s.isDisposed() && s.isVisible() && "newExperiment".equals(s.getData(TracesView.ROLE)))
                    .findFirst().orElse(null);
            return found[0] != null;
        });
        return found[0];
    }

    <T extends Control> T role(Control root, Class<T> type, String role) {
        return robot.findByData(root, type, TracesView.ROLE, role);
    }

    /** Types {@code text} into {@code field}, replacing what it holds. */
    void typeInto(Text field, String text) {
        robot.click(field);
        robot.waitUntil("the field has the focus", field::isFocusControl);
        robot.keyWith(SWT.CTRL, 'a', 'a');
        if (text.isEmpty()) {
            robot.key(SWT.BS);
        } else {
            robot.type(text);
        }
        robot.spin(100);
    }

    /** Selects {@code policy}'s row of the dialog's policy table by a click and checks it with the space bar. */
    void checkPolicy(Shell dialog, String policy) {
        Table table = role(dialog, Table.class, "exp.policies");
        int row = Arrays.asList(table.getItems()).indexOf(Arrays.stream(table.getItems())
                .filter(i -> i.getText(0).equals(policy)).findFirst().orElseThrow());
        Rectangle r = table.getItem(row).getBounds(1);
        robot.click(table, r.x + 20, r.y + r.height / 2);
        robot.waitUntil(policy + "'s row is selected", () -> table.getSelectionIndex() == row);
        robot.type(" "); // the space bar toggles the selected row's check box
        robot.waitUntil(policy + " is checked", () -> table.getItem(row).getChecked());
    }

    /** Shows the Trace Timeline (stacked with Launches) and waits until it has drawn {@code trace}. */
    IViewPart timeline(LoadedTrace trace) throws Exception {
        IWorkbenchPage page = ui.window().getActivePage();
        IViewPart view = page.showView(TIMELINE_ID, null, IWorkbenchPage.VIEW_VISIBLE);
        // the trace reaches a timeline that was not open through the selection service: the editor active again
        org.eclipse.ui.IEditorPart editor = page.getActiveEditor();
        page.activate(view);
        if (editor != null) {
            page.activate(editor);
        }
        robot.waitUntil("the timeline has drawn " + trace.name(), () -> (Boolean) call(view, "isReady"),
                Duration.ofSeconds(60));
        robot.spin(200);
        return view;
    }

    /**
     * Calls a public accessor of the Trace Timeline view. By reflection: its package is internal to the timeline
     * bundle (friends: its own tests), and this bundle only needs the point of a slice and the selected launch.
     */
    static Object call(IViewPart view, String method, Object... args) {
        try {
            Class<?>[] types = Arrays.stream(args).map(a -> a instanceof Integer ? int.class : a.getClass())
                    .toArray(Class<?>[]::new);
            return view.getClass().getMethod(method, types).invoke(view, args);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("Trace Timeline view: " + method + ": " + e, e);
        }
    }

    /** Clicks the slice of launch {@code launch} in the Trace Timeline; returns the launch the timeline selected. */
    int clickLaunch(IViewPart timeline, LoadedTrace trace, int launch) {
        Control canvas = robot.findByData(ui.shell(), Control.class, TIMELINE_ROLE, "canvas");
        Point p = (Point) call(timeline, "pointOf", trace.trace().launchEvent(launch));
        assertNotNull(p, "launch " + launch + " is in the timeline's visible window");
        robot.click(canvas, p.x, p.y);
        robot.waitUntil("the click selects a launch in the timeline", () -> (Integer) call(timeline,
                "selectedLaunch") >= 0);
        int selected = (Integer) call(timeline, "selectedLaunch");
        assertTrue(selected >= 0);
        return selected;
    }
}
