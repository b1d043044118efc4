package org.phos.workbench.internal.ui.experiment;

import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PartInitException;

/** Starts the Job of an experiment the dialog configured, in the Experiments view (which shows its progress). */
public final class ExperimentJobs {
    private ExperimentJobs() {
    }

    /** Runs {@code request} as Run in the dialog does; returns the scheduled Job. */
    public static ExperimentJob start(IWorkbenchPage page, NewExperimentDialog.Request request) {
        ExperimentJob job = new ExperimentJob(request.trace(), request.name(), request.config(), request.live());
        try {
            ExperimentsView view = (ExperimentsView) page.showView(ExperimentsView.ID, null,
                    IWorkbenchPage.VIEW_VISIBLE);
            view.run(job);
        } catch (PartInitException e) {
            MessageDialog.openError(page.getWorkbenchWindow().getShell(), "New Experiment",
                    "Cannot show the Experiments view: " + e.getMessage() + "; the experiment runs in the background");
            job.schedule();
        }
        return job;
    }
}
