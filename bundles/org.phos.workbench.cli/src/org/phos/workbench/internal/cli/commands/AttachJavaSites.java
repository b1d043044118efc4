package org.phos.workbench.internal.cli.commands;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.StreamStart;
import org.phos.workbench.trace.core.attach.AttachDirectory;
import org.phos.workbench.trace.core.attach.AttachException;
import org.phos.workbench.trace.core.attach.LiveJavaSites;
import org.phos.workbench.trace.core.attach.LiveStatistics;
import org.phos.workbench.trace.core.attach.LiveStream;
import org.phos.workbench.trace.core.attach.LiveWindow;

/**
 * i14-jsites: the Java call sites of {@code workbench attach PID}. The stream also goes into a {@link LiveWindow}
 * (the last {@link #WINDOW} events); at each interval, once the process's side file {@code <trace>.java-sites}
 * exists (the JCuda agent runs in it), the window is snapshotted and paired with the calls the agent wrote
 * ({@link LiveJavaSites}), and the most frequent sites so far are added to the rolling line. With {@code --save FILE}
 * the side file's lines of the attach are copied to {@code FILE.java-sites}, so the saved trace opens with its sites.
 * Launches that pass through the window between two intervals before the agent wrote their calls are not counted.
 */
final class AttachJavaSites implements AutoCloseable {
    /** Events of the window paired at each interval. */
    static final int WINDOW = 65_536;
    /** Calls that ended this long before attaching are not copied next to the saved stream. */
    private static final long COPY_MARGIN_NS = 1_000_000_000L;
    /** Twice the JCuda agent's flush period (JavaSiteHook.FLUSH_EVERY_MS): waited for after a detach. */
    private static final long AGENT_FLUSH_MS = 400;

    private final long pid;
    private final @Nullable Path save;
    private final int top;
    private final long attachedNs = System.nanoTime();
    private final LiveWindow window = new LiveWindow(WINDOW);
    private @Nullable LiveJavaSites sites;
    private @Nullable Path windowFile;
    private @Nullable String problem;

    AttachJavaSites(long pid, @Nullable Path save, int top) {
        this.pid = pid;
        this.save = save;
        this.top = top;
    }

    /** The reading thread: one more chunk of the stream. */
    void accept(LiveStream.StreamChunk c) {
        if (problem != null) {
            return;
        }
        try {
            window.accept(c);
        } catch (AttachException e) {
            problem = e.getMessage();
        }
    }

    /**
     * The main thread, at each interval: pairs the window with what the agent wrote.
     *
     * @return {@code "  java: SITE N, ..."} for the rolling line, empty without sites
     */
    String update(LiveStatistics.Snapshot snap) {
        LiveJavaSites s = sites(snap);
        if (s == null || !Files.isRegularFile(s.file()) || !window.started() || problem != null) {
            return "";
        }
        try {
            if (save != null && s.savedSideFile() == null) {
                s.saveNextTo(save, attachedNs - COPY_MARGIN_NS);
            }
            Path f = windowFile;
            if (f == null) {
                f = Files.createTempFile("phos-attach-" + pid + "-", ".window.phos");
                windowFile = f;
            }
            s.update(window.snapshot(f, null));
        } catch (IOException | RuntimeException e) {
            problem = "the Java call sites of " + s.file() + " could not be paired: " + e.getMessage();
            return "";
        }
        List<LiveJavaSites.SiteCount> best = s.top(top);
        if (best.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("  java:");
        for (LiveJavaSites.SiteCount c : best) {
            b.append(' ').append(c.site()).append(' ').append(c.launches());
        }
        return b.toString();
    }

    private @Nullable LiveJavaSites sites(LiveStatistics.Snapshot snap) {
        StreamStart st = snap.start();
        if (sites == null && st != null && !st.tracePath().isEmpty()) {
            sites = new LiveJavaSites(LiveJavaSites.sideFileOf(st.tracePath(), pid), WINDOW);
        }
        return sites;
    }

    /** After the stream ended or was detached: the last pairing and one summary line. */
    void finish(LiveStatistics.Snapshot snap, PrintStream out) {
        LiveJavaSites s = sites(snap);
        if (s == null) {
            return;
        }
        if (Files.isRegularFile(s.file()) && AttachDirectory.alive(pid)) {
            try {
                Thread.sleep(AGENT_FLUSH_MS); // what the agent still buffers
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        update(snap);
        if (!s.found()) {
            out.println("Java call sites: none (no " + s.file() + ": the program runs without the JCuda agent, or "
                    + "with out=FILE elsewhere)");
            return;
        }
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "Java call sites (JCuda agent, %s): %d launches paired", s.file(), s.pairedLaunches()));
        List<LiveJavaSites.SiteCount> best = s.top(Math.max(top, 3));
        if (!best.isEmpty()) {
            b.append("; top:");
            for (LiveJavaSites.SiteCount c : best) {
                b.append(' ').append(c.site()).append(' ').append(c.launches());
            }
        }
        out.println(b);
        if (problem != null || s.problem() != null) {
            out.println("Java call sites: " + (problem != null ? problem : s.problem()));
        }
        s.close();
        if (s.savedSideFile() != null) {
            out.println("saved the Java call sites next to it: " + s.savedSideFile());
        }
    }

    @Override
    public void close() {
        LiveJavaSites s = sites;
        if (s != null) {
            s.close();
        }
        Path f = windowFile;
        if (f != null) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                // a temporary file
            }
        }
    }
}
