package org.phos.workbench.internal.ui.attach;

import java.nio.file.Path;

import org.eclipse.jface.resource.ImageDescriptor;
import org.eclipse.ui.IEditorInput;
import org.eclipse.ui.IPersistableElement;
import org.phos.workbench.trace.core.attach.LiveProcesses.LiveProcess;

/**
 * A recording process to follow in a {@link LiveTraceEditor}: its socket directory, the process as listed, and how
 * many events the views keep. Two inputs are equal when they name the same process (attaching twice activates the
 * editor already following it).
 *
 * @param directory the attach socket directory
 * @param process   the process
 * @param window    events kept for the views (older ones: in the process's trace file)
 */
public record LiveTraceInput(Path directory, LiveProcess process, int window) implements IEditorInput {
	@Override
	public boolean exists() {
		return false;
	}

	@Override
	public @org.eclipse.jdt.annotation.Nullable ImageDescriptor getImageDescriptor() {
		return null;
	}

	@Override
	public String getName() {
		return "live: " + process.pid() + " " + AttachDialog.command(process, 40);
	}

	@Override
	public @org.eclipse.jdt.annotation.Nullable IPersistableElement getPersistable() {
		return null;
	}

	@Override
	public String getToolTipText() {
		return "Process " + process.pid() + ": " + String.join(" ", process.argv()) + " on " + process.device();
	}

	@Override
	public <T> @org.eclipse.jdt.annotation.Nullable T getAdapter(Class<T> adapter) {
		return null;
	}

	@Override
	public boolean equals(@org.eclipse.jdt.annotation.Nullable Object o) {
		return o instanceof LiveTraceInput other && other.process.pid() == process.pid()
				&& other.directory.equals(directory);
	}

	@Override
	public int hashCode() {
		return Long.hashCode(process.pid());
	}
}
