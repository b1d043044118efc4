package org.phos.workbench.internal.ui.trace;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.eclipse.swt.dnd.DND;
import org.eclipse.swt.dnd.DropTargetAdapter;
import org.eclipse.swt.dnd.DropTargetEvent;
import org.eclipse.swt.dnd.FileTransfer;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PartInitException;

/**
 * Opening trace files from anywhere the user hands them over: a drop of files (onto the Traces view or the editor
 * area), the recent list, File &gt; Open. Each file opens in its own {@link TraceEditor}; a file that is not there,
 * a folder, or not a {@code .phos} file is reported through the caller's message sink, naming the file.
 */
public final class TraceOpening {
    private TraceOpening() {
    }

    /**
     * Opens each of {@code files}; @return the messages for the ones that could not be opened (empty: all opened).
     * A recent trace that no longer exists is removed from {@link RecentTraces}.
     */
    public static List<String> open(IWorkbenchPage page, List<Path> files) {
        List<String> problems = new ArrayList<>();
        for (Path file : files) {
            String problem = problem(file);
            if (problem == null) {
                try {
                    page.openEditor(new TraceEditorInput(file), TraceEditor.ID);
                } catch (PartInitException e) {
                    problem = "Cannot open " + file + ": " + e.getMessage();
                }
            } else if (!Files.exists(file) && RecentTraces.standard().remove(file)) {
                problem += "; removed from the recent traces";
            }
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }

    /** Why {@code file} cannot be opened as a trace, or null when it can be tried. */
    public static @org.eclipse.jdt.annotation.Nullable String problem(Path file) {
        if (!Files.exists(file)) {
            return "Cannot open " + file + ": no such file";
        }
        if (Files.isDirectory(file)) {
            return "Cannot open " + file + ": a folder, not a trace (list it in the Traces view)";
        }
        if (!file.getFileName().toString().endsWith(".phos")) {
            return "Cannot open " + file + ": not a .phos trace";
        }
        return null;
    }

    /**
     * A drop target listener that opens dropped {@code .phos} files (FileTransfer) and reports the others to
     * {@code messages}.
     */
    public static DropTargetAdapter dropListener(java.util.function.Supplier<IWorkbenchPage> page,
            Consumer<String> messages) {
        return new DropTargetAdapter() {
            @Override
            public void dragEnter(DropTargetEvent event) {
                accept(event);
            }

            @Override
            public void dragOperationChanged(DropTargetEvent event) {
                accept(event);
            }

            private void accept(DropTargetEvent event) {
                boolean files = false;
                for (org.eclipse.swt.dnd.TransferData d : event.dataTypes) {
                    if (FileTransfer.getInstance().isSupportedType(d)) {
                        event.currentDataType = d;
                        files = true;
                    }
                }
                event.detail = files ? DND.DROP_COPY : DND.DROP_NONE;
            }

            @Override
            public void drop(DropTargetEvent event) {
                if (!(event.data instanceof String[] names)) {
                    messages.accept("Only files can be dropped here (.phos traces)");
                    return;
                }
                List<Path> files = new ArrayList<>();
                for (String n : names) {
                    try {
                        files.add(Path.of(n));
                    } catch (InvalidPathException e) {
                        messages.accept("Cannot open '" + n + "': not a file name");
                    }
                }
                List<String> problems = open(page.get(), files);
                if (!problems.isEmpty()) {
                    messages.accept(String.join("\n", problems));
                }
            }
        };
    }
}
