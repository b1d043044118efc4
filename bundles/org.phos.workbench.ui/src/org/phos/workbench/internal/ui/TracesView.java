package org.phos.workbench.internal.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

import org.eclipse.jface.action.Action;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.layout.TableColumnLayout;
import org.eclipse.jface.viewers.ColumnPixelData;
import org.eclipse.jface.viewers.ColumnWeightData;
import org.eclipse.jface.viewers.ArrayContentProvider;
import org.eclipse.jface.viewers.ColumnLabelProvider;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.jface.viewers.TableViewerColumn;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.ISharedImages;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.actions.ActionFactory;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.internal.ui.TraceFolder.TraceFile;

/**
 * The "Traces" view: the {@code .phos} files of a folder with their sizes. The user types a folder and presses
 * Enter, or refreshes (toolbar button or F5) after traces were recorded. Below, the recent traces
 * ({@link RecentTracesSection}). {@code .phos} files dropped onto the view open, each in its own editor. Colours come
 * from the theme.
 */
public final class TracesView extends ViewPart {
    /** Data key set on the view's widgets so tests can find them by role. */
    public static final String ROLE = "org.phos.workbench.ui.role";

    private Text folderText;
    private TableViewer viewer;
    private Label status;
    private RecentTracesSection recent;
    private Path folder = TraceFolder.defaultFolder();

    @Override
    public void createPartControl(Composite parent) {
        GridLayoutFactory.fillDefaults().numColumns(2).margins(4, 4).applyTo(parent);
        new Label(parent, SWT.NONE).setText("Folder:");
        folderText = new Text(parent, SWT.BORDER | SWT.SINGLE);
        folderText.setData(ROLE, "folder");
        folderText.setText(folder.toString());
        folderText.setToolTipText("Folder of .phos traces; press Enter to list it");
        folderText.addListener(SWT.DefaultSelection, e -> showTypedFolder());
        GridDataFactory.fillDefaults().grab(true, false).applyTo(folderText);

        Composite tableHolder = new Composite(parent, SWT.NONE);
        TableColumnLayout columns = new TableColumnLayout();
        tableHolder.setLayout(columns);
        viewer = new TableViewer(tableHolder, SWT.BORDER | SWT.FULL_SELECTION | SWT.MULTI | SWT.V_SCROLL);
        Table table = viewer.getTable();
        table.setData(ROLE, "traces");
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        columns.setColumnData(column("Trace", SWT.LEFT, TraceFile::name), new ColumnWeightData(1, 200));
        columns.setColumnData(column("Size", SWT.RIGHT, TraceFile::displaySize), new ColumnPixelData(110));
        viewer.setContentProvider(ArrayContentProvider.getInstance());
        table.addListener(SWT.KeyDown, e -> {
            if (e.keyCode == SWT.F5) {
                refresh();
            }
        });
        table.addListener(SWT.DefaultSelection, e -> openSelected());
        // i12-exp-ui: begin: context menu (New Experiment on This Trace...)
        org.phos.workbench.internal.ui.experiment.ExperimentMenus.attach(getSite(), table, viewer);
        // i12-exp-ui: end
        GridDataFactory.fillDefaults().grab(true, true).span(2, 1).applyTo(tableHolder);

        status = new Label(parent, SWT.WRAP);
        status.setData(ROLE, "status");
        GridDataFactory.fillDefaults().grab(true, false).span(2, 1).hint(100, SWT.DEFAULT).applyTo(status);

        recent = new RecentTracesSection(parent, getSite()::getPage, this::message);
        GridDataFactory.fillDefaults().grab(true, false).span(2, 1).applyTo(recent.control());
        // .phos files dropped anywhere on the view open in editors (the editor area takes drops too)
        for (org.eclipse.swt.widgets.Control target : new org.eclipse.swt.widgets.Control[] { table,
                recent.table() }) {
            org.eclipse.swt.dnd.DropTarget drop = new org.eclipse.swt.dnd.DropTarget(target,
                    org.eclipse.swt.dnd.DND.DROP_COPY | org.eclipse.swt.dnd.DND.DROP_DEFAULT
                            | org.eclipse.swt.dnd.DND.DROP_MOVE | org.eclipse.swt.dnd.DND.DROP_LINK);
            drop.setTransfer(org.eclipse.swt.dnd.FileTransfer.getInstance());
            drop.addDropListener(
                    org.phos.workbench.internal.ui.trace.TraceOpening.dropListener(getSite()::getPage, this::message));
        }

        Action refresh = new Action("Refresh") {
            @Override
            public void run() {
                refresh();
            }
        };
        refresh.setToolTipText("Refresh the list of traces (F5)");
        refresh.setImageDescriptor(
                PlatformUI.getWorkbench().getSharedImages().getImageDescriptor(ISharedImages.IMG_TOOL_REDO));
        refresh.setActionDefinitionId("org.eclipse.ui.file.refresh");
        getViewSite().getActionBars().getToolBarManager().add(refresh);
        getViewSite().getActionBars().setGlobalActionHandler(ActionFactory.REFRESH.getId(), refresh);
        getViewSite().getActionBars().updateActionBars();
        refresh();
    }

    private TableColumn column(String title, int style, Function<TraceFile, String> text) {
        TableViewerColumn column = new TableViewerColumn(viewer, style);
        column.getColumn().setText(title);
        column.setLabelProvider(new ColumnLabelProvider() {
            @Override
            public String getText(Object element) {
                return text.apply((TraceFile) element);
            }
        });
        return column.getColumn();
    }

    private void showTypedFolder() {
        try {
            showFolder(Path.of(folderText.getText().trim()));
        } catch (InvalidPathException e) {
            status.setText("Not a folder name: " + e.getMessage());
        }
    }

    /** Shows the traces of {@code newFolder}. */
    public void showFolder(Path newFolder) {
        folder = newFolder.toAbsolutePath();
        folderText.setText(folder.toString());
        refresh();
    }

    /** Lists the current folder again. */
    public void refresh() {
        if (viewer.getTable().isDisposed()) {
            return;
        }
        if (!Files.isDirectory(folder)) {
            viewer.setInput(List.of());
            status.setText("Folder not found: " + folder);
            return;
        }
        try {
            List<TraceFile> traces = TraceFolder.list(folder);
            viewer.setInput(traces);
            long total = traces.stream().mapToLong(TraceFile::sizeBytes).sum();
            status.setText(traces.size() + (traces.size() == 1 ? " trace, " : " traces, ")
                    + TraceFolder.formatSize(total) + " in " + folder);
        } catch (IOException e) {
            viewer.setInput(List.of());
            status.setText("Cannot list " + folder + ": " + e.getMessage());
        }
        status.getParent().layout(true);
    }

    /** Opens the selected traces, each in its own trace editor (double click or Enter). */
    private void openSelected() {
        List<Path> files = new java.util.ArrayList<>();
        for (Object o : viewer.getStructuredSelection().toList()) {
            files.add(((TraceFile) o).path());
        }
        List<String> problems = org.phos.workbench.internal.ui.trace.TraceOpening.open(getSite().getPage(), files);
        if (!problems.isEmpty()) {
            message(String.join("\n", problems));
        }
    }

    /** Shows {@code text} (a problem opening or listing traces) in the view's status line. */
    public void message(String text) {
        if (!status.isDisposed()) {
            status.setText(text);
            status.getParent().layout(true);
        }
    }

    /** The status line's text. */
    public String statusText() {
        return status.getText();
    }

    @Override
    public void setFocus() {
        viewer.getTable().setFocus();
    }
}
