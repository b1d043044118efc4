package org.phos.workbench.internal.ui.cr;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Function;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.Action;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.ui.IViewSite;
import org.phos.workbench.internal.ui.accuracy.ExportJob;
import org.phos.workbench.cr.core.io.OutputFile;
import org.phos.workbench.cr.core.io.OutputFiles;

/**
 * "Export PNG..." and "Export SVG..." of a C/R view's chart: asks for a file (a FileDialog), takes what the view shows
 * now (drawn on the UI thread, so the file is the chart as it is on screen, zoom included) and writes it in a Job the
 * way the CSV exports do ({@link OutputFile}: a temporary file, then an atomic rename; {@link OutputFiles#refusal}
 * refuses the trace itself, links, folders and devices). The outcome goes to the status line, a failure naming the
 * file.
 */
public final class FileExport {
    /**
     * For UI tests: when set, answers in place of the FileDialog (argument: the suggested file name; null:
     * cancelled). The action, the drawing and the writing are the real ones.
     */
    public static volatile @Nullable Function<String, @Nullable String> chooserForTests;

    /** What is exported now: the file name offered, the trace it must not overwrite, and the content. */
    public record Content(String suggestedName, Path trace, byte[] bytes) {
    }

    /** Produces the content, or says why there is none (IOException: its message goes to the status line). */
    public interface Source {
        @Nullable
        Content content() throws IOException;
    }

    private final IViewSite site;
    private final Control owner;
    private final String extension;
    private final Source source;
    private volatile String outcome = "";
    private final Action action;

    /**
     * @param extension {@code png}, {@code svg}, ... (the dialog's filter and the action's label)
     * @param source what to write
     */
    public FileExport(IViewSite site, Control owner, String extension, String toolTip, Source source) {
        this.site = site;
        this.owner = owner;
        this.extension = extension;
        this.source = source;
        action = new Action("Export " + extension.toUpperCase(java.util.Locale.ROOT) + "...") {
            @Override
            public void run() {
                export();
            }
        };
        action.setToolTipText(toolTip);
    }

    /** The toolbar action. */
    public Action action() {
        return action;
    }

    /** The last export's outcome as shown in the status line ("" before the first, and while one is written). */
    public String outcome() {
        return outcome;
    }

    private void export() {
        outcome = "";
        Content content;
        try {
            content = source.content();
        } catch (IOException | RuntimeException e) {
            report("Cannot export: " + e.getMessage(), true);
            return;
        }
        if (content == null) {
            report("Nothing to export yet: select an experiment", true);
            return;
        }
        Function<String, @Nullable String> hook = chooserForTests;
        String chosen;
        if (hook != null) {
            chosen = hook.apply(content.suggestedName());
        } else {
            FileDialog dialog = new FileDialog(owner.getShell(), SWT.SAVE);
            dialog.setFilterExtensions(new String[] { "*." + extension, "*" });
            dialog.setFileName(content.suggestedName());
            dialog.setOverwrite(true);
            chosen = dialog.open();
        }
        if (chosen == null) {
            return;
        }
        Path target = Path.of(chosen);
        byte[] bytes = content.bytes();
        ExportJob.write(site, owner, target, bytes, content.trace(),
                "Exported " + target + " (" + bytes.length + " bytes)", text -> outcome = text);
    }

    private void report(String message, boolean error) {
        ExportJob.show(site, owner, message, error, text -> outcome = text);
    }
}
