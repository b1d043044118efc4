package org.phos.workbench.internal.ui.trace;

import java.nio.file.Path;

import org.eclipse.jface.resource.ImageDescriptor;
import org.eclipse.ui.IEditorInput;
import org.eclipse.ui.IPersistableElement;

/** A {@code .phos} file to open in a {@link TraceEditor}; two inputs are equal when they name the same file. */
public final class TraceEditorInput implements IEditorInput {
    private final Path file;

    public TraceEditorInput(Path file) {
        this.file = file.toAbsolutePath().normalize();
    }

    /** The trace file, absolute. */
    public Path file() {
        return file;
    }

    @Override
    public boolean exists() {
        return java.nio.file.Files.exists(file);
    }

    @Override
    public @org.eclipse.jdt.annotation.Nullable ImageDescriptor getImageDescriptor() {
        return null;
    }

    @Override
    public String getName() {
        Path n = file.getFileName();
        return n == null ? file.toString() : n.toString();
    }

    @Override
    public @org.eclipse.jdt.annotation.Nullable IPersistableElement getPersistable() {
        return null;
    }

    @Override
    public String getToolTipText() {
        return file.toString();
    }

    @Override
    public <T> @org.eclipse.jdt.annotation.Nullable T getAdapter(Class<T> adapter) {
        return null;
    }

    @Override
    public boolean equals(@org.eclipse.jdt.annotation.Nullable Object o) {
        return o instanceof TraceEditorInput other && other.file.equals(file);
    }

    @Override
    public int hashCode() {
        return file.hashCode();
    }
}
