package org.phos.workbench.internal.ui.trace;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.ui.part.EditorPart;

/**
 * An editor that only shows: a trace, recorded or arriving live, is never changed by the workbench, so there is
 * nothing to save and the editor is never dirty.
 */
public abstract class ReadOnlyEditor extends EditorPart {

    @Override
    public final void doSave(IProgressMonitor monitor) {
    }

    @Override
    public final void doSaveAs() {
    }

    @Override
    public final boolean isDirty() {
        return false;
    }

    @Override
    public final boolean isSaveAsAllowed() {
        return false;
    }
}
