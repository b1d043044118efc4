package org.phos.workbench.internal.ui.trace;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.ListenerList;
import org.eclipse.core.runtime.preferences.IEclipsePreferences;
import org.eclipse.core.runtime.preferences.InstanceScope;
import org.osgi.service.prefs.BackingStoreException;

/**
 * The traces opened last, newest first, kept in the UI bundle's instance preferences (the workspace's
 * {@code .metadata/.plugins/org.eclipse.core.runtime/.settings/org.phos.workbench.ui.prefs}), so they survive a
 * restart; written through at every change. Shown by File &gt; Recent Traces and by the Traces view. A file that no
 * longer exists is removed when someone tries to open it ({@link #remove}), with a message naming it.
 */
public final class RecentTraces {
    /** Preference node: the UI bundle's. */
    public static final String NODE = "org.phos.workbench.ui";
    /** Preference key: absolute paths, one a line, newest first. */
    public static final String KEY = "recentTraces";
    /** How many are kept. */
    public static final int LIMIT = 10;

    private static final RecentTraces STANDARD = new RecentTraces(InstanceScope.INSTANCE.getNode(NODE));

    private final IEclipsePreferences node;
    private final ListenerList<Runnable> listeners = new ListenerList<>();

    /** A list kept in {@code node} (tests pass another instance over the same node to read it back). */
    public RecentTraces(IEclipsePreferences node) {
        this.node = node;
    }

    /** The workbench's list. */
    public static RecentTraces standard() {
        return STANDARD;
    }

    /** The recent traces, newest first. */
    public synchronized List<Path> list() {
        List<Path> out = new ArrayList<>();
        for (String line : node.get(KEY, "").split("\n")) {
            if (!line.isBlank()) {
                try {
                    out.add(Path.of(line));
                } catch (InvalidPathException e) {
                    // a hand-edited line that names no path: dropped at the next write
                }
            }
        }
        return out;
    }

    /** Puts {@code file} first (absolute, normalised), keeping at most {@link #LIMIT}. */
    public void add(Path file) {
        Path p = file.toAbsolutePath().normalize();
        synchronized (this) {
            List<Path> all = list();
            all.remove(p);
            all.add(0, p);
            write(all.subList(0, Math.min(LIMIT, all.size())));
        }
        changed();
    }

    /** Removes {@code file}; @return whether it was listed. */
    public boolean remove(Path file) {
        Path p = file.toAbsolutePath().normalize();
        boolean removed;
        synchronized (this) {
            List<Path> all = list();
            removed = all.remove(p);
            if (removed) {
                write(all);
            }
        }
        if (removed) {
            changed();
        }
        return removed;
    }

    /** Empties the list. */
    public void clear() {
        synchronized (this) {
            write(List.of());
        }
        changed();
    }

    private void write(List<Path> paths) {
        StringBuilder b = new StringBuilder();
        for (Path p : paths) {
            b.append(p).append('\n');
        }
        node.put(KEY, b.toString());
        try {
            node.flush(); // now, not at shutdown: a crash keeps the list
        } catch (BackingStoreException e) {
            org.eclipse.core.runtime.ILog.of(RecentTraces.class).warn("cannot save the recent traces: " + e.getMessage());
        }
    }

    /** Calls {@code listener} (on the caller's thread) whenever the list changes. */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    public void removeListener(Runnable listener) {
        listeners.remove(listener);
    }

    private void changed() {
        for (Runnable r : listeners) {
            r.run();
        }
    }
}
