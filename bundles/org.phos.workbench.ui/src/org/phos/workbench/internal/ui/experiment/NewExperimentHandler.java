package org.phos.workbench.internal.ui.experiment;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IEditorReference;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.handlers.HandlerUtil;
import org.phos.workbench.internal.ui.TraceFolder;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.internal.ui.trace.TraceOpening;
import org.phos.workbench.ui.model.ExperimentSelection;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * Experiment &gt; New Experiment... (and the context menus of the Traces, Launches and Trace Timeline views): opens
 * the {@link NewExperimentDialog} on the trace the current selection names. A selected launch becomes the
 * checkpoint/restore point; a trace file of the Traces view is opened first and the dialog comes once it loaded.
 */
public final class NewExperimentHandler extends AbstractHandler {
    /** The command's id in plugin.xml. */
    public static final String COMMAND_ID = "org.phos.workbench.ui.newExperiment";

    @Override
    public @Nullable Object execute(ExecutionEvent event) {
        IWorkbenchWindow window = HandlerUtil.getActiveWorkbenchWindow(event);
        if (window == null) {
            return null;
        }
        IWorkbenchPage page = window.getActivePage();
        // a context menu's selection first (the Traces view's rows are not the page's selection)
        ISelection selection = HandlerUtil.getActiveMenuSelection(event);
        if (selection == null || selection.isEmpty()) {
            selection = HandlerUtil.getCurrentSelection(event);
        }
        Object first = selection instanceof IStructuredSelection s && s.size() == 1 ? s.getFirstElement() : null;
        if (first instanceof LaunchSelection ls) {
            open(page, ls.trace(), "launch:" + ls.launch());
        } else if (first instanceof LoadedTrace t) {
            open(page, t, null);
        } else if (first instanceof ExperimentSelection es) {
            open(page, es.trace(), es.result().config().at());
        } else if (first instanceof TraceFolder.TraceFile file) {
            openWhenLoaded(page, file.path());
        } else {
            open(page, page.getActiveEditor() instanceof TraceEditor e ? e.loadedTrace() : null, null);
        }
        return null;
    }

    /** Opens the dialog on {@code trace} (or the first opened trace) with {@code at} as the point. */
    public static @Nullable NewExperimentDialog open(IWorkbenchPage page, @Nullable LoadedTrace trace,
            @Nullable String at) {
        List<LoadedTrace> traces = openedTraces(page);
        if (traces.isEmpty()) {
            MessageDialog.openInformation(page.getWorkbenchWindow().getShell(), "New Experiment",
                    "Open a trace first (File > Open Trace..., or double-click one in the Traces view): an experiment "
                            + "simulates C/R policies over a trace.");
            return null;
        }
        NewExperimentDialog dialog = new NewExperimentDialog(page.getWorkbenchWindow().getShell(), page, traces,
                trace, at, request -> ExperimentJobs.start(page, request));
        dialog.open();
        return dialog;
    }

    /** The traces of the page's trace editors that have loaded, in tab order. */
    public static List<LoadedTrace> openedTraces(IWorkbenchPage page) {
        List<LoadedTrace> out = new ArrayList<>();
        for (IEditorReference ref : page.getEditorReferences()) {
            if (ref.getEditor(false) instanceof TraceEditor e && e.loadedTrace() != null) {
                out.add(e.loadedTrace());
            }
        }
        return out;
    }

    private static void openWhenLoaded(IWorkbenchPage page, java.nio.file.Path file) {
        List<String> problems = TraceOpening.open(page, List.of(file));
        if (!problems.isEmpty()) {
            MessageDialog.openError(page.getWorkbenchWindow().getShell(), "New Experiment", String.join("\n", problems));
            return;
        }
        Display display = page.getWorkbenchWindow().getShell().getDisplay();
        long giveUp = System.currentTimeMillis() + 600_000;
        Runnable poll = new Runnable() {
            @Override
            public void run() {
                if (page.getWorkbenchWindow().getShell().isDisposed()) {
                    return;
                }
                for (IEditorReference ref : page.getEditorReferences()) {
                    if (ref.getEditor(false) instanceof TraceEditor e && e.file().equals(file)
                            && e.loadedTrace() != null) {
                        open(page, e.loadedTrace(), null);
                        return;
                    }
                }
                if (System.currentTimeMillis() < giveUp) {
                    display.timerExec(100, this);
                }
            }
        };
        display.timerExec(100, poll);
    }
}
