package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.ui.PhoenixUi;

/** What a person sees and does in the running Phoenix Workbench (UI harness, UI thread, Xvfb). */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class PhoenixWorkbenchUiTest {
    // a new instance per test, made on the UI thread: the window is brought to the front before each test
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @Test
    void opensInPhoenixPerspectiveShowingTheTracesView() throws Exception {
        assertEquals(PhoenixUi.WINDOW_TITLE, shell.getText());
        IWorkbenchPage page = window.getActivePage();
        assertEquals(PhoenixUi.PERSPECTIVE_ID, page.getPerspective().getId());
        IViewPart traces = page.findView(PhoenixUi.TRACES_VIEW_ID);
        assertNotNull(traces, "Traces view is open");
        assertTrue(page.isPartVisible(traces));

        CTabItem tab = UiRobot.findAll(shell, CTabFolder.class, CTabFolder::isVisible).stream()
                .flatMap(f -> Arrays.stream(f.getItems())).filter(i -> "Traces".equals(i.getText())).findFirst()
                .orElseThrow(() -> new AssertionError("no visible tab titled 'Traces'"));
        assertTrue(tab.getParent().getSelection() == tab, "Traces tab is the selected one");

        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "traces");
        assertTrue(table.getHeaderVisible());
        assertEquals("Trace, Size", String.join(", ",
                Arrays.stream(table.getColumns()).map(TableColumn::getText).toList()));
        assertTrue(table.getSize().x > 200 && table.getSize().y > 100, "table is laid out: " + table.getSize());
        robot.screenshot(shell, "phoenix-perspective");
    }

    @Test
    void typedFolderIsListedAndRefreshKeyAndButtonUpdateIt(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("b.phos"), new byte[3000]);
        Files.write(dir.resolve("a.phos"), new byte[100]);
        Files.write(dir.resolve("notes.txt"), new byte[10]);
        Text folder = robot.findByData(shell, Text.class, TracesView.ROLE, "folder");
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "traces");
        Label status = robot.findByData(shell, Label.class, TracesView.ROLE, "status");

        robot.click(folder);
        robot.keyWith(SWT.CTRL, 'a', 'a');
        robot.type(dir.toString());
        robot.waitUntil("the folder field shows the typed path", () -> folder.getText().equals(dir.toString()));
        robot.key(SWT.CR);
        robot.waitUntil("the Traces view lists the two traces of " + dir, () -> table.getItemCount() == 2);
        assertEquals("a.phos | 100 B", row(table, 0));
        assertEquals("b.phos | 2.9 KiB", row(table, 1));
        assertTrue(status.getText().startsWith("2 traces, 3.0 KiB in "), status.getText());

        // a trace recorded meanwhile appears after F5 in the table
        Files.write(dir.resolve("c.phos"), new byte[2 * 1024 * 1024]);
        robot.click(table);
        robot.key(SWT.F5);
        robot.waitUntil("F5 shows the new trace c.phos", () -> table.getItemCount() == 3);
        assertEquals("c.phos | 2.0 MiB", row(table, 2));
        robot.screenshot(shell, "traces-after-refresh");

        // a deleted trace disappears after a click on the view's Refresh button
        Files.delete(dir.resolve("a.phos"));
        ToolItem refresh = UiRobot.findAll(shell, ToolBar.class, ToolBar::isVisible).stream()
                .flatMap(t -> Arrays.stream(t.getItems()))
                .filter(i -> i.getToolTipText() != null && i.getToolTipText().startsWith("Refresh the list of traces"))
                .findFirst().orElseThrow(() -> new AssertionError("no Refresh button in the Traces view"));
        Rectangle r = refresh.getBounds();
        robot.click(refresh.getParent(), r.x + r.width / 2, r.y + r.height / 2);
        robot.waitUntil("the Refresh button drops the deleted a.phos", () -> table.getItemCount() == 2);
        assertEquals("b.phos | 2.9 KiB", row(table, 0));
        assertTrue(status.getText().startsWith("2 traces, "), status.getText());
    }

    private static String row(Table table, int index) {
        return table.getItem(index).getText(0) + " | " + table.getItem(index).getText(1);
    }
}
