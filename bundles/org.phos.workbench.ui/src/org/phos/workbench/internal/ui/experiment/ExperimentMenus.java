package org.phos.workbench.internal.ui.experiment;

import org.eclipse.jface.action.GroupMarker;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.jface.viewers.ISelectionProvider;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IWorkbenchActionConstants;
import org.eclipse.ui.IWorkbenchPartSite;

/**
 * The context menu of a view that shows traces or launches, registered under the view's id so plugin.xml can
 * contribute to it ({@code popup:VIEW_ID}): New Experiment (at the selected launch) is contributed there.
 */
public final class ExperimentMenus {
    private ExperimentMenus() {
    }

    /** Gives {@code control} a context menu registered as {@code popup:<site id>} over {@code selection}. */
    public static MenuManager attach(IWorkbenchPartSite site, Control control, ISelectionProvider selection) {
        MenuManager menu = new MenuManager("#PopupMenu", site.getId());
        menu.add(new GroupMarker(IWorkbenchActionConstants.MB_ADDITIONS));
        control.setMenu(menu.createContextMenu(control));
        site.registerContextMenu(site.getId(), menu, selection);
        return menu;
    }
}
