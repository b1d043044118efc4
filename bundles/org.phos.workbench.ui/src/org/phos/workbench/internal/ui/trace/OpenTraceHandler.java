package org.phos.workbench.internal.ui.trace;

import java.nio.file.Path;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.handlers.HandlerUtil;

/** File &gt; Open Trace…: chooses one or more {@code .phos} files and opens each in its own {@link TraceEditor}. */
public final class OpenTraceHandler extends AbstractHandler {

    @Override
    public @org.eclipse.jdt.annotation.Nullable Object execute(ExecutionEvent event) {
        IWorkbenchWindow window = HandlerUtil.getActiveWorkbenchWindow(event);
        if (window == null) {
            return null;
        }
        FileDialog dialog = new FileDialog(window.getShell(), SWT.OPEN | SWT.MULTI);
        dialog.setText("Open Trace");
        dialog.setFilterExtensions(new String[] { "*.phos", "*" });
        if (dialog.open() == null) {
            return null;
        }
        for (String name : dialog.getFileNames()) {
            open(window.getActivePage(), Path.of(dialog.getFilterPath(), name));
        }
        return null;
    }

    /** Opens {@code file} in a trace editor (or activates the one already showing it); errors as a message. */
    public static void open(IWorkbenchPage page, Path file) {
        java.util.List<String> problems = TraceOpening.open(page, java.util.List.of(file));
        if (!problems.isEmpty()) {
            MessageDialog.openError(page.getWorkbenchWindow().getShell(), "Open Trace", String.join("\n", problems));
        }
    }
}
