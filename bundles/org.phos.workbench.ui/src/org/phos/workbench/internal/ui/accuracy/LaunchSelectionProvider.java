package org.phos.workbench.internal.ui.accuracy;

import org.eclipse.core.runtime.ListenerList;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.ISelectionChangedListener;
import org.eclipse.jface.viewers.ISelectionProvider;
import org.eclipse.jface.viewers.SelectionChangedEvent;
import org.eclipse.jface.viewers.StructuredSelection;

/** A part's selection provider that publishes what the part sets (a one-element selection of a view-model record). */
public final class LaunchSelectionProvider implements ISelectionProvider {
	private final ListenerList<ISelectionChangedListener> listeners = new ListenerList<>();
	private ISelection selection = StructuredSelection.EMPTY;

	@Override
	public void addSelectionChangedListener(ISelectionChangedListener l) {
		listeners.add(l);
	}

	@Override
	public void removeSelectionChangedListener(ISelectionChangedListener l) {
		listeners.remove(l);
	}

	@Override
	public ISelection getSelection() {
		return selection;
	}

	@Override
	public void setSelection(ISelection s) {
		selection = s;
		SelectionChangedEvent e = new SelectionChangedEvent(this, s);
		for (ISelectionChangedListener l : listeners) {
			l.selectionChanged(e);
		}
	}
}
