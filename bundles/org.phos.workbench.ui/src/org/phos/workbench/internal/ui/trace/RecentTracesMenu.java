package org.phos.workbench.internal.ui.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.ActionContributionItem;
import org.eclipse.jface.action.IContributionItem;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.actions.CompoundContributionItem;

/**
 * File &gt; Recent Traces: one item per {@link RecentTraces} entry (name, then folder), filled each time the menu
 * opens. A trace that is gone is said in a dialog and leaves the list.
 */
public final class RecentTracesMenu extends CompoundContributionItem {

    @Override
    protected IContributionItem[] getContributionItems() {
        List<IContributionItem> items = new ArrayList<>();
        int n = 1;
        for (Path p : RecentTraces.standard().list()) {
            Path name = p.getFileName();
            String label = (n <= 9 ? "&" + n + " " : "") + (name == null ? p : name) + "  [" + p.getParent() + "]";
            Action open = new Action(label.replace("&&", "&")) {
                @Override
                public void run() {
                    IWorkbenchWindow window = PlatformUI.getWorkbench().getActiveWorkbenchWindow();
                    IWorkbenchPage page = window == null ? null : window.getActivePage();
                    if (page == null) {
                        return;
                    }
                    List<String> problems = TraceOpening.open(page, List.of(p));
                    if (!problems.isEmpty()) {
                        MessageDialog.openError(window.getShell(), "Recent Traces", String.join("\n", problems));
                    }
                }
            };
            open.setToolTipText(p.toString());
            items.add(new ActionContributionItem(open));
            n++;
        }
        if (items.isEmpty()) {
            Action none = new Action("(no recent traces)") {
            };
            none.setEnabled(false);
            items.add(new ActionContributionItem(none));
        }
        return items.toArray(IContributionItem[]::new);
    }
}
