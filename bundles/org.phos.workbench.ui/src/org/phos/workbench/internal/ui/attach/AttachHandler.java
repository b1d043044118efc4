package org.phos.workbench.internal.ui.attach;

import java.nio.file.Path;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.handlers.HandlerUtil;
import org.phos.workbench.trace.core.attach.AttachDirectory;

/** File &gt; Attach to GPU Process…: the {@link AttachDialog}, then a {@link LiveTraceEditor} on the chosen process. */
public final class AttachHandler extends AbstractHandler {
	@Override
	public @org.eclipse.jdt.annotation.Nullable Object execute(ExecutionEvent event) {
		IWorkbenchWindow window = HandlerUtil.getActiveWorkbenchWindow(event);
		if (window == null) {
			return null;
		}
		AttachDialog dialog = new AttachDialog(window.getShell(), directory());
		// modal, but the command returns at once: the editor opens when Attach is pressed
		dialog.setBlockOnOpen(false);
		IWorkbenchPage page = window.getActivePage();
		dialog.onAttach(in -> attach(page, in));
		dialog.open();
		return null;
	}

	/** The socket directory: {@code -Dphos.attach.dir} (tests), else the recorder's ($XDG_RUNTIME_DIR/phos, ...). */
	public static Path directory() {
		String d = System.getProperty("phos.attach.dir");
		return d != null ? Path.of(d) : AttachDirectory.current();
	}

	/** Opens (or activates) the live trace of {@code input}'s process; a failure to open is said in a message. */
	public static void attach(IWorkbenchPage page, LiveTraceInput input) {
		try {
			page.openEditor(input, LiveTraceEditor.ID);
		} catch (PartInitException e) {
			MessageDialog.openError(page.getWorkbenchWindow().getShell(), "Attach to GPU Process",
					"Cannot attach to process " + input.process().pid() + ": " + e.getMessage());
		}
	}
}
