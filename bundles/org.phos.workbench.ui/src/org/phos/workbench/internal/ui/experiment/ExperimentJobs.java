package org.phos.workbench.internal.ui.experiment;

import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.ui.IWorkbenchPage;

/** Starts the Job that runs an experiment the dialog configured (wired to the core runner and store next). */
final class ExperimentJobs {
    private ExperimentJobs() {
    }

    static void start(IWorkbenchPage page, NewExperimentDialog.Request request) {
        MessageDialog.openInformation(page.getWorkbenchWindow().getShell(), "New Experiment",
                "Running experiments is not wired yet: " + request.config());
    }
}
