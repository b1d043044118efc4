package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.launches.JavaSourceLocator;
import org.phos.workbench.internal.ui.launches.JavaSourceOpener;
import org.phos.workbench.internal.ui.launches.JavaSourceSite;
import org.phos.workbench.internal.ui.launches.JavaSourceView;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.properties.PropertiesView;
import org.phos.workbench.internal.ui.theme.PhoenixThemes;
import org.phos.workbench.internal.ui.theme.SwitchThemeHandler;
import org.phos.workbench.internal.ui.trace.TraceEditor;

/**
 * Open Java Source (issue #14): from a launch with a Java call site to its line of
 * sample-traces/programs/jcuda/JCudaJacobi.java in the Java Source view, by double click on the java_site cell, by
 * Enter and by the command; the Not Found dialog and choosing the folder there; the Properties view's
 * "Java call site" row.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class JavaSourceUiTest {
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();
    private List<Path> foldersBefore = List.of();

    @TempDir
    Path dir;

    @BeforeEach
    void noChosenFolders() {
        foldersBefore = JavaSourceLocator.configuredFolders();
        JavaSourceLocator.setConfiguredFolders(List.of());
    }

    @AfterEach
    void cleanUp() throws Exception {
        JavaSourceOpener.chooserForTests = null;
        JavaSourceLocator.setConfiguredFolders(foldersBefore);
        for (Shell s : robot.display().getShells()) {
            if (!s.isDisposed() && "javaSourceNotFound".equals(s.getData(TracesView.ROLE))) {
                s.close();
            }
        }
        if (PhoenixThemes.isDark()) {
            theme(SwitchThemeHandler.LIGHT_COMMAND);
        }
        IWorkbenchPage page = window.getActivePage();
        var view = page.findViewReference(JavaSourceView.ID);
        if (view != null) {
            page.hideView(view);
        }
        page.closeAllEditors(false);
        page.showView(LaunchesView.ID);
        page.showView(PropertiesView.ID);
    }

    private static Path jcudaSources() {
        return LaunchFiltersUiTest.samples().resolve("programs/jcuda");
    }

    @Test
    void openJavaSourceFindsTheLineNextToTheTrace() throws Exception {
        // the trace in dir/run, the program's source one folder up (as a project keeps recordings below its sources)
        Path run = Files.createDirectories(dir.resolve("run"));
        JavaSitesUiTest.writeJacobiWithSites(run, "jacobi-java.phos");
        Path source = Files.copy(jcudaSources().resolve("JCudaJacobi.java"), dir.resolve("JCudaJacobi.java"));
        Table table = open(run);

        // double click on launch 0's java_site cell
        doubleClickSite(table, "0");
        JavaSourceView view = sourceView();
        assertShows(view, source, 62, "cuLaunchKernel(step,");
        robot.screenshot(shell, "java-source-light");

        // Properties lists the site of the selected launch
        Table properties = robot.findByData(shell, Table.class, TracesView.ROLE, "properties");
        robot.waitUntil("Properties shows the Java call site of launch 0",
                () -> "JCudaJacobi.main, JCudaJacobi.java:62".equals(property(properties, "Java call site")));
        assertEquals(null, property(properties, "java_site"), "the raw column is not listed twice");

        // Enter on launch 2's row (row_residual, line 65)
        clickRow(table, "2");
        robot.key(SWT.CR);
        robot.waitUntil("the Java Source view moves to line 65", () -> view.highlightedLine() == 65);
        assertShows(view, source, 65, "cuLaunchKernel(residual,");
        robot.waitUntil("Properties shows the Java call site of launch 2",
                () -> "JCudaJacobi.main, JCudaJacobi.java:65".equals(property(properties, "Java call site")));

        // the context menu's item on launch 3 (jacobi_step again: line 62); the menu is filled as when it shows
        clickRow(table, "3");
        org.eclipse.swt.widgets.Menu menu = table.getMenu();
        menu.notifyListeners(SWT.Show, new org.eclipse.swt.widgets.Event());
        org.eclipse.swt.widgets.MenuItem item = Arrays.stream(menu.getItems())
                .filter(i -> i.getText().replace("&", "").equals("Open Java Source")).findFirst()
                .orElseThrow(() -> new AssertionError("no Open Java Source in " + Arrays.stream(menu.getItems())
                        .map(org.eclipse.swt.widgets.MenuItem::getText).toList()));
        item.notifyListeners(SWT.Selection, new org.eclipse.swt.widgets.Event());
        menu.notifyListeners(SWT.Hide, new org.eclipse.swt.widgets.Event());
        robot.waitUntil("the Java Source view moves to line 62", () -> view.highlightedLine() == 62);
        assertShows(view, source, 62, "cuLaunchKernel(step,");

        theme(SwitchThemeHandler.DARK_COMMAND);
        robot.screenshot(shell, "java-source-dark");
    }

    @Test
    void notFoundSaysWhereItLookedAndChoosingTheFolderOpensIt() throws Exception {
        JavaSitesUiTest.writeJacobiWithSites(dir, "jacobi-java.phos");
        Table table = open(dir);
        doubleClickSite(table, "2");
        Shell dialog = notFoundDialog();
        String message = UiRobot.findAll(dialog, Label.class, l -> true).stream().map(Label::getText)
                .reduce("", (a, b) -> a + "\n" + b);
        assertTrue(message.contains("Looked for: JCudaJacobi.java"), message);
        assertTrue(message.contains(dir.toAbsolutePath().normalize().toString()), message);
        assertTrue(message.contains(dir.toAbsolutePath().normalize().getParent().toString()), message);
        robot.screenshot(shell, "java-source-not-found");

        List<String> suggested = new ArrayList<>();
        JavaSourceOpener.chooserForTests = s -> {
            suggested.add(s);
            return jcudaSources().toString();
        };
        Button choose = UiRobot.findAll(dialog, Button.class, b -> b.getText().startsWith("Choose Java Source Folder"))
                .get(0);
        robot.click(choose);
        robot.waitUntil("the dialog closes", dialog::isDisposed);
        assertEquals(List.of(dir.toAbsolutePath().normalize().toString()), suggested, "suggests the trace's folder");
        JavaSourceView view = sourceView();
        assertShows(view, jcudaSources().resolve("JCudaJacobi.java"), 65, "cuLaunchKernel(residual,");
        assertEquals(List.of(jcudaSources()), JavaSourceLocator.configuredFolders(), "the folder is remembered");

        // remembered: another launch opens without the dialog
        doubleClickSite(table, "0");
        robot.waitUntil("the Java Source view moves to line 62", () -> view.highlightedLine() == 62);
        assertTrue(Arrays.stream(robot.display().getShells())
                .noneMatch(s -> !s.isDisposed() && "javaSourceNotFound".equals(s.getData(TracesView.ROLE))));
    }

    @Test
    void sitesGiveTheirPathAndTheSearchOrder() throws Exception {
        JavaSourceSite nested = JavaSourceSite.parse("com.example.gpu.Solver$Step.run(Solver.java:42)");
        assertEquals(new JavaSourceSite("com.example.gpu.Solver$Step", "run", "Solver.java", 42), nested);
        assertEquals("com/example/gpu/Solver.java", nested.relativePath());
        assertEquals("com.example.gpu.Solver$Step.run, Solver.java:42", nested.label());
        JavaSourceSite unknown = JavaSourceSite.parse("com.example.Main$1.call(Unknown Source)");
        assertEquals("com/example/Main.java", unknown.relativePath());
        assertEquals(-1, unknown.line());
        assertEquals(null, JavaSourceSite.parse(""));
        assertEquals(null, JavaSourceSite.parse(null));

        // chosen folders first, then the trace's folder and 3 parents; the first that has the file wins
        Path chosen = Files.createDirectories(dir.resolve("src"));
        Path deep = Files.createDirectories(dir.resolve("a/b/c/d"));
        JavaSourceLocator.setConfiguredFolders(List.of(chosen));
        List<Path> folders = JavaSourceLocator.searchedFolders(deep.resolve("t.phos"), "");
        assertEquals(List.of(chosen, deep, dir.resolve("a/b/c"), dir.resolve("a/b"), dir.resolve("a")), folders);
        Path inParent = Files.createDirectories(dir.resolve("a/b/com/example/gpu")).resolve("Solver.java");
        Files.writeString(inParent, "class Solver {}\n");
        assertEquals(inParent, JavaSourceLocator.find(nested.relativePath(), folders));
        Path inChosen = Files.createDirectories(chosen.resolve("com/example/gpu")).resolve("Solver.java");
        Files.writeString(inChosen, "class Solver {}\n");
        assertEquals(inChosen, JavaSourceLocator.find(nested.relativePath(), folders));
        assertEquals(null, JavaSourceLocator.find("com/example/Main.java", folders));
        // the recorded process's working directory (TraceHeader field 46) comes after the chosen folders
        Path cwd = Files.createDirectories(dir.resolve("run"));
        assertEquals(List.of(chosen, cwd, deep, dir.resolve("a/b/c"), dir.resolve("a/b"), dir.resolve("a")),
                JavaSourceLocator.searchedFolders(deep.resolve("t.phos"), cwd.toString()));
        assertEquals(folders, JavaSourceLocator.searchedFolders(deep.resolve("t.phos"), "relative/not/searched"));
        assertEquals(folders, JavaSourceLocator.searchedFolders(deep.resolve("t.phos"), "/bad\0path"));
    }

    private Table open(Path folder) {
        LaunchFiltersUiTest.openThroughTracesView(robot, shell, folder, "jacobi-java.phos");
        IWorkbenchPage page = window.getActivePage();
        robot.waitUntil("a trace editor is active", () -> page.getActiveEditor() instanceof TraceEditor);
        LaunchesView launches = (LaunchesView) page.findView(LaunchesView.ID);
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "launches");
        Text filter = robot.findByData(shell, Text.class, TracesView.ROLE, "kernelFilter");
        if (!filter.getText().isEmpty()) { // an earlier test may have left a kernel filter: clear it as a person would
            robot.click(table);
            robot.spin(200);
            robot.click(filter);
            robot.waitUntil("the filter field has the focus", filter::isFocusControl);
            robot.keyWith(SWT.CTRL, 'a', 'a');
            robot.key(SWT.BS);
            robot.key(SWT.CR);
        }
        robot.waitUntil("the Launches table fills", () -> launches.rowCount() == 6);
        int site = column(table, "java_site");
        robot.waitUntil("the java_site column is shown", () -> table.getColumn(site).getWidth() > 0);
        robot.spin(300);
        return table;
    }

    private static int column(Table table, String header) {
        return Arrays.stream(table.getColumns()).map(c -> c.getText()).toList().indexOf(header);
    }

    /** The row of launch {@code launch} (an earlier test may have left another sort order). */
    private TableItem item(Table table, String launch) {
        int c = column(table, "launch");
        return Arrays.stream(table.getItems()).filter(i -> i.getText(c).equals(launch)).findFirst().orElseThrow();
    }

    private void clickRow(Table table, String launch) {
        Rectangle r = item(table, launch).getBounds(column(table, "launch"));
        robot.click(table, r.x + 10, r.y + r.height / 2);
    }

    private void doubleClickSite(Table table, String launch) {
        Rectangle r = item(table, launch).getBounds(column(table, "java_site"));
        robot.doubleClick(table, r.x + 20, r.y + r.height / 2);
    }

    private JavaSourceView sourceView() {
        JavaSourceView[] v = new JavaSourceView[1];
        robot.waitUntil("the Java Source view shows a file", () -> {
            v[0] = (JavaSourceView) window.getActivePage().findView(JavaSourceView.ID);
            return v[0] != null && v[0].file() != null;
        });
        return v[0];
    }

    /** The view shows {@code file} with {@code line} highlighted, selected (that line's text) and on screen. */
    private void assertShows(JavaSourceView view, Path file, int line, String lineText) {
        robot.waitUntil("the Java Source view shows line " + line, () -> view.highlightedLine() == line);
        assertEquals(file.toAbsolutePath().normalize(), view.file().toAbsolutePath().normalize());
        StyledText text = view.text();
        assertEquals(line - 1, text.getLineAtOffset(text.getSelection().x), "the selection starts on the line");
        assertTrue(text.getSelectionText().contains(lineText), text.getSelectionText());
        assertEquals(Files.exists(file) ? readLine(file, line) : "", text.getLine(line - 1));
        int top = text.getTopIndex();
        int visible = text.getClientArea().height / text.getLineHeight();
        assertTrue(line - 1 >= top && line - 1 < top + visible,
                "line " + line + " on screen (lines " + (top + 1) + " to " + (top + visible) + ")");
        assertTrue(text.getLineBackground(line - 1) != null, "the line is highlighted");
        assertEquals(null, text.getLineBackground(line - 2), "only the line is highlighted");
    }

    private static String readLine(Path file, int line) {
        try {
            return Files.readAllLines(file).get(line - 1);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String property(Table properties, String name) {
        return Arrays.stream(properties.getItems()).filter(i -> i.getText(0).equals(name)).map(i -> i.getText(1))
                .findFirst().orElse(null);
    }

    private Shell notFoundDialog() {
        Shell[] found = new Shell[1];
        robot.waitUntil("the Java Source Not Found dialog is open", () -> {
            found[0] = Arrays.stream(robot.display().getShells()).filter(s -> !s.isDisposed() && s.isVisible()
                    && "javaSourceNotFound".equals(s.getData(TracesView.ROLE))).findFirst().orElse(null);
            return found[0] != null;
        });
        return found[0];
    }

    private void theme(String command) throws Exception {
        window.getService(IHandlerService.class).executeCommand(command, null);
        boolean dark = command.equals(SwitchThemeHandler.DARK_COMMAND);
        robot.waitUntil("the theme switched", () -> PhoenixThemes.isDark() == dark);
        robot.spin(1500);
        shell.redraw();
        shell.update();
        robot.spin(300);
    }
}
