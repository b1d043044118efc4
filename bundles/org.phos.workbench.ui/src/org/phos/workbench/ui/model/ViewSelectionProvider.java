package org.phos.workbench.ui.model;

import org.eclipse.core.runtime.ListenerList;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.ISelectionChangedListener;
import org.eclipse.jface.viewers.ISelectionProvider;
import org.eclipse.jface.viewers.SelectionChangedEvent;
import org.eclipse.jface.viewers.StructuredSelection;

/**
 * The selection provider every part of the workbench publishes through: it holds what the part set (a one-element
 * selection of a view-model record of this package) and tells its listeners when it changes.
 */
public final class ViewSelectionProvider implements ISelectionProvider {
    private final ListenerList<ISelectionChangedListener> listeners = new ListenerList<>();
    private ISelection selection = StructuredSelection.EMPTY;

    @Override
    public void addSelectionChangedListener(ISelectionChangedListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeSelectionChangedListener(ISelectionChangedListener listener) {
        listeners.remove(listener);
    }

    @Override
    public ISelection getSelection() {
        return selection;
    }

    @Override
    public void setSelection(ISelection newSelection) {
        selection = newSelection;
        SelectionChangedEvent event = new SelectionChangedEvent(this, newSelection);
        for (ISelectionChangedListener l : listeners) {
            l.selectionChanged(event);
        }
    }
}
