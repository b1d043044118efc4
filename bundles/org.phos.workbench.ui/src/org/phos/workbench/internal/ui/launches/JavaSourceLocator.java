package org.phos.workbench.internal.ui.launches;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.core.runtime.preferences.IEclipsePreferences;
import org.eclipse.core.runtime.preferences.InstanceScope;
import org.eclipse.jdt.annotation.Nullable;
import org.osgi.service.prefs.BackingStoreException;

/**
 * Finds the source file of a Java call site. The site's relative path ({@link JavaSourceSite#relativePath()}) is
 * looked up, in order, under the Java source folders the user chose (remembered per workbench), then in the recorded
 * process's working directory (TraceHeader field 46; traces of older recorders do not have it), then in the trace
 * file's folder and its parents up to 3 levels.
 */
public final class JavaSourceLocator {
    /** The preference (instance scope of the UI bundle) holding the chosen folders, one per line. */
    static final String PREFERENCE = "javaSourceFolders";
    private static final String NODE = "org.phos.workbench.ui";

    private JavaSourceLocator() {
    }

    /**
     * The folders searched for a site of the trace {@code traceFile} (null: none) whose process ran in
     * {@code workingDirectory} ("", a relative path or not a path: not searched), in the order searched.
     */
    public static List<Path> searchedFolders(@Nullable Path traceFile, String workingDirectory) {
        Set<Path> folders = new LinkedHashSet<>(configuredFolders());
        try {
            Path cwd = Path.of(workingDirectory);
            if (!workingDirectory.isEmpty() && cwd.isAbsolute()) {
                folders.add(cwd.normalize());
            }
        } catch (java.nio.file.InvalidPathException e) {
            // a damaged header's string: only the other folders
        }
        Path dir = traceFile == null ? null : traceFile.toAbsolutePath().normalize().getParent();
        for (int up = 0; dir != null && up <= 3; up++, dir = dir.getParent()) {
            folders.add(dir);
        }
        return new ArrayList<>(folders);
    }

    /** The file {@code relativePath} under the first of {@code folders} that has it, or null. */
    public static @Nullable Path find(String relativePath, List<Path> folders) {
        for (Path f : folders) {
            Path candidate = f.resolve(relativePath);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** The Java source folders the user chose, first chosen first. */
    public static List<Path> configuredFolders() {
        String value = node().get(PREFERENCE, "");
        List<Path> folders = new ArrayList<>();
        for (String line : value.split("\n")) {
            if (!line.isBlank()) {
                folders.add(Path.of(line.strip()));
            }
        }
        return folders;
    }

    /** Remembers {@code folders} as the Java source folders (saved with the workbench's preferences). */
    public static void setConfiguredFolders(List<Path> folders) {
        StringBuilder b = new StringBuilder();
        for (Path f : new LinkedHashSet<>(folders)) {
            b.append(f.toAbsolutePath().normalize()).append('\n');
        }
        IEclipsePreferences node = node();
        if (b.isEmpty()) {
            node.remove(PREFERENCE);
        } else {
            node.put(PREFERENCE, b.toString());
        }
        try {
            node.flush();
        } catch (BackingStoreException e) {
            // kept for this session all the same; the workbench saves its preferences when it closes
        }
    }

    /** Adds {@code folder} in front of the chosen Java source folders. */
    public static void addConfiguredFolder(Path folder) {
        List<Path> folders = new ArrayList<>();
        folders.add(folder.toAbsolutePath().normalize());
        folders.addAll(configuredFolders());
        setConfiguredFolders(folders);
    }

    private static IEclipsePreferences node() {
        return InstanceScope.INSTANCE.getNode(NODE);
    }
}
