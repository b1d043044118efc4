package org.phos.workbench.internal.ui;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Link;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.IWorkbenchPage;
import org.phos.workbench.internal.ui.trace.RecentTraces;
import org.phos.workbench.internal.ui.trace.TraceOpening;

/**
 * The "Recent traces" part of the Traces view: the traces opened last (from {@link RecentTraces}, kept across
 * restarts), newest first, with their folders. Double click or Enter opens; a file that is gone is said in the
 * view's status line and leaves the list.
 */
final class RecentTracesSection {
    private static final int ROWS = 5;

    private final Composite root;
    private final Table table;
    private final Runnable refresh = this::refresh;

    RecentTracesSection(Composite parent, Supplier<IWorkbenchPage> page, Consumer<String> messages) {
        root = new Composite(parent, SWT.NONE);
        GridLayoutFactory.fillDefaults().numColumns(2).applyTo(root);
        Label title = new Label(root, SWT.NONE);
        title.setText("Recent traces");
        title.setFont(org.eclipse.jface.resource.JFaceResources.getBannerFont());
        GridDataFactory.fillDefaults().grab(true, false).applyTo(title);
        Link clear = new Link(root, SWT.NONE);
        clear.setText("<a>Clear</a>");
        clear.setToolTipText("Forget the recent traces");
        clear.setData(TracesView.ROLE, "clearRecent");
        clear.addListener(SWT.Selection, e -> RecentTraces.standard().clear());

        table = new Table(root, SWT.BORDER | SWT.FULL_SELECTION | SWT.MULTI | SWT.V_SCROLL);
        table.setData(TracesView.ROLE, "recentTraces");
        table.setLinesVisible(false);
        table.setToolTipText("Double click or Enter opens; drop .phos files here or on the editor area to open them");
        TableColumn name = new TableColumn(table, SWT.LEFT);
        name.setWidth(170);
        TableColumn folder = new TableColumn(table, SWT.LEFT);
        folder.setWidth(400);
        int height = table.getItemHeight() * ROWS + 2 * table.getBorderWidth();
        GridDataFactory.fillDefaults().grab(true, false).span(2, 1).hint(100, height).applyTo(table);
        table.addListener(SWT.DefaultSelection, e -> {
            List<Path> files = new java.util.ArrayList<>();
            for (TableItem item : table.getSelection()) {
                if (item.getData() instanceof Path p) {
                    files.add(p);
                }
            }
            List<String> problems = TraceOpening.open(page.get(), files);
            if (!problems.isEmpty()) {
                messages.accept(String.join("\n", problems));
            }
        });
        RecentTraces.standard().addListener(refresh);
        root.addListener(SWT.Dispose, e -> RecentTraces.standard().removeListener(refresh));
        refresh();
    }

    Control control() {
        return root;
    }

    Table table() {
        return table;
    }

    /** Lists the recent traces again. */
    void refresh() {
        if (table.isDisposed()) {
            return;
        }
        table.removeAll();
        List<Path> recent = RecentTraces.standard().list();
        for (Path p : recent) {
            TableItem item = new TableItem(table, SWT.NONE);
            Path name = p.getFileName();
            Path dir = p.getParent();
            item.setText(new String[] { name == null ? p.toString() : name.toString(), dir == null ? "" : dir.toString() });
            item.setData(p);
            item.setData(TracesView.ROLE, p.toString());
        }
        if (recent.isEmpty()) {
            TableItem item = new TableItem(table, SWT.NONE);
            item.setText(0, "none yet: opened traces appear here");
            item.setForeground(org.eclipse.jface.resource.JFaceResources.getColorRegistry()
                    .get(org.eclipse.jface.preference.JFacePreferences.QUALIFIER_COLOR));
        }
    }
}
