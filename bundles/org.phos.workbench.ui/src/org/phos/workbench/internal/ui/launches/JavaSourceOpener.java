package org.phos.workbench.internal.ui.launches;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.widgets.DirectoryDialog;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.handlers.HandlerUtil;
import org.phos.workbench.analysis.core.LaunchQuery;
import org.phos.workbench.analysis.core.LaunchRow;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.ui.model.LaunchSelection;

/**
 * Open Java Source: opens the Java source line that issued the selected launch (its {@code java_site}) in the
 * {@link JavaSourceView}. The file is found by {@link JavaSourceLocator}; when it is not, a dialog names the path
 * looked for and the folders looked in, and offers to choose a Java source folder (remembered for later sites).
 */
public final class JavaSourceOpener extends AbstractHandler {
    /** The command id in plugin.xml. */
    public static final String COMMAND_ID = "org.phos.workbench.ui.openJavaSource";

    /** Tests: answers the folder chooser in place of the native dialog (given the suggested folder). */
    public static @Nullable Function<String, @Nullable String> chooserForTests;

    @Override
    public @Nullable Object execute(ExecutionEvent event) {
        IWorkbenchWindow window = HandlerUtil.getActiveWorkbenchWindow(event);
        ISelection selection = HandlerUtil.getActiveMenuSelection(event);
        if (selection == null || selection.isEmpty()) {
            selection = HandlerUtil.getCurrentSelection(event);
        }
        if (window == null) {
            return null;
        }
        if (selection instanceof IStructuredSelection s && s.getFirstElement() instanceof LaunchSelection ls) {
            open(window, ls);
        } else {
            MessageDialog.openInformation(window.getShell(), "Open Java Source",
                    "Select a launch in the Launches view first: Open Java Source opens the Java line that issued it.");
        }
        return null;
    }

    /** The Java call site of the launch, or null when the trace has none for it. */
    public static @Nullable JavaSourceSite siteOf(LaunchSelection ls) {
        List<LaunchRow> rows = Analysis.session().launches(LaunchQuery.page(ls.trace().trace(), ls.launch(), 1), null)
                .rows();
        return rows.isEmpty() ? null : JavaSourceSite.parse(rows.get(0).javaSite());
    }

    /** Opens the source line of {@code ls}'s Java call site, or says why it cannot. */
    public static void open(IWorkbenchWindow window, LaunchSelection ls) {
        JavaSourceSite site = siteOf(ls);
        if (site == null) {
            MessageDialog.openInformation(window.getShell(), "Open Java Source", "Launch " + ls.launch() + " of "
                    + ls.trace().name() + " has no Java call site: the trace has no .java-sites side file from the "
                    + "JCuda agent, or this launch did not come from a Java thread.");
            return;
        }
        open(window, site, ls.trace().file(), ls.trace().trace().header().workingDirectory());
    }

    /**
     * Opens {@code site}'s source, searched for in the process's working directory {@code workingDirectory} ("": not
     * recorded) and near {@code traceFile}; not found: the Not Found dialog.
     */
    public static void open(IWorkbenchWindow window, JavaSourceSite site, @Nullable Path traceFile,
            String workingDirectory) {
        List<Path> folders = JavaSourceLocator.searchedFolders(traceFile, workingDirectory);
        Path found = JavaSourceLocator.find(site.relativePath(), folders);
        if (found == null) {
            NotFoundDialog d = new NotFoundDialog(window, site, traceFile, workingDirectory, folders);
            d.setBlockOnOpen(false); // not modal for the event loop: the Choose Folder button carries on
            d.open();
            return;
        }
        IWorkbenchPage page = window.getActivePage();
        try {
            JavaSourceView view = (JavaSourceView) page.showView(JavaSourceView.ID);
            view.show(found, site.line(), site.className() + "." + site.method());
        } catch (PartInitException | IOException e) {
            MessageDialog.openError(window.getShell(), "Open Java Source",
                    "Cannot show " + found + ": " + e.getMessage());
        }
    }

    /** The message of the Not Found dialog: the path looked for, then the folders looked in. */
    static String notFoundMessage(JavaSourceSite site, List<Path> folders) {
        return "The source of " + site.className() + "." + site.method() + " was not found.\n\n"
                + "Looked for: " + site.relativePath() + "\n\nIn these folders, in this order:\n"
                + (folders.isEmpty() ? "  (none)"
                        : folders.stream().map(f -> "  " + f).collect(Collectors.joining("\n")))
                + "\n\nJava source folders you choose are searched first, for every trace.";
    }

    /** "Java source not found": says what was looked for where, and lets the user choose a source folder. */
    static final class NotFoundDialog extends MessageDialog {
        private final IWorkbenchWindow window;
        private final JavaSourceSite site;
        private final @Nullable Path traceFile;
        private final String workingDirectory;

        NotFoundDialog(IWorkbenchWindow window, JavaSourceSite site, @Nullable Path traceFile, String workingDirectory,
                List<Path> folders) {
            super(window.getShell(), "Java Source Not Found", null, notFoundMessage(site, folders), MessageDialog.WARNING,
                    0, "Choose Java Source Folder...", "Cancel");
            this.window = window;
            this.site = site;
            this.traceFile = traceFile;
            this.workingDirectory = workingDirectory;
        }

        @Override
        protected void configureShell(Shell shell) {
            super.configureShell(shell);
            shell.setData(TracesView.ROLE, "javaSourceNotFound");
        }

        @Override
        protected void buttonPressed(int buttonId) {
            super.buttonPressed(buttonId); // closes the dialog
            if (buttonId != 0) {
                return;
            }
            Path near = traceFile == null ? null : traceFile.toAbsolutePath().getParent();
            String suggested = near == null ? System.getProperty("user.home") : near.toString();
            Function<String, @Nullable String> test = chooserForTests;
            String chosen;
            if (test != null) {
                chosen = test.apply(suggested);
            } else {
                DirectoryDialog d = new DirectoryDialog(window.getShell());
                d.setText("Java Source Folder");
                d.setMessage("The folder holding " + site.relativePath());
                d.setFilterPath(suggested);
                chosen = d.open();
            }
            if (chosen == null) {
                return;
            }
            Path folder = Path.of(chosen);
            if (!Files.isDirectory(folder)) {
                MessageDialog.openError(window.getShell(), "Java Source Folder", chosen + " is not a folder.");
                return;
            }
            JavaSourceLocator.addConfiguredFolder(folder);
            JavaSourceOpener.open(window, site, traceFile, workingDirectory); // found now, or the dialog again with the new folder listed first
        }
    }
}
