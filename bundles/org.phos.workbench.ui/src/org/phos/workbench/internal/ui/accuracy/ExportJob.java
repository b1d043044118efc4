package org.phos.workbench.internal.ui.accuracy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IViewSite;
import org.phos.workbench.cr.core.io.OutputFile;
import org.phos.workbench.cr.core.io.OutputFiles;

/**
 * Writes an export's bytes in a Job and tells the outcome on the view's status line: a refused target (the trace
 * itself, a link, a folder, a device: {@link OutputFiles#refusal}) or a failed write as an error naming the file, a
 * success as a message. The file is written under a temporary name and renamed, so a failure leaves what was there.
 * The CSV exports of the table views and the chart exports of the C/R views share it.
 */
public final class ExportJob {
    private ExportJob() {
    }

    /**
     * @param site the view's site (its status line)
     * @param owner a control of the view (its display; the outcome is dropped once it is disposed)
     * @param target the chosen file
     * @param bytes what to write
     * @param trace the trace shown, which the export must never overwrite
     * @param success the status line's text after the write
     * @param outcome receives the text shown, on the UI thread
     */
    public static void write(IViewSite site, Control owner, Path target, byte[] bytes, Path trace, String success,
            Consumer<String> outcome) {
        Job job = Job.create("Exporting " + target, (IProgressMonitor m) -> {
            String message;
            boolean error = true;
            String refusal = OutputFiles.refusal(target, List.of(trace));
            if (refusal != null) {
                message = "Cannot export to " + target + ": it " + refusal;
            } else {
                try {
                    OutputFile.write(target, out -> out.write(bytes));
                    message = success;
                    error = false;
                } catch (IOException | RuntimeException x) {
                    message = "Cannot write " + target + ": " + x.getMessage();
                }
            }
            String text = message;
            boolean failed = error;
            if (!owner.isDisposed()) {
                owner.getDisplay().asyncExec(() -> show(site, owner, text, failed, outcome));
            }
            return Status.OK_STATUS;
        });
        job.schedule();
    }

    /** Shows an export's outcome on the view's status line (UI thread): an error, or a message. */
    public static void show(IViewSite site, Control owner, String message, boolean error, Consumer<String> outcome) {
        outcome.accept(message);
        if (owner.isDisposed()) {
            return;
        }
        var line = site.getActionBars().getStatusLineManager();
        if (error) {
            line.setErrorMessage(message);
        } else {
            line.setErrorMessage(null);
            line.setMessage(message);
        }
    }
}
