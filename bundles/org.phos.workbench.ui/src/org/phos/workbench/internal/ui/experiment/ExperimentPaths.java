package org.phos.workbench.internal.ui.experiment;

import java.nio.file.Path;

/** Where an experiment of a trace is saved, for the dialog's command line. */
final class ExperimentPaths {
    private ExperimentPaths() {
    }

    static Path folder(Path traceFile, String name) {
        Path dir = traceFile.toAbsolutePath().getParent();
        String file = traceFile.getFileName().toString();
        return dir.resolve(file + ".experiments").resolve(name.isEmpty() ? "NAME" : name);
    }
}
