package org.phos.workbench.trace.core.attach;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.javasites.JavaCall;
import org.phos.workbench.trace.core.javasites.JavaSiteFollower;
import org.phos.workbench.trace.core.javasites.JavaSiteLog;
import org.phos.workbench.trace.core.javasites.JavaSites;

/**
 * The Java call sites of a live trace (i14-jsites): the JCuda agent of the attached process writes its side file
 * {@code <trace>.java-sites} next to the process's trace (docs/trace-format.md "Java call sites"), and this follows
 * that file while the stream arrives. At each {@link LiveWindow.Snapshot} it reads the lines added since the last
 * one ({@link JavaSiteFollower}) and pairs the calls it holds with the snapshot's trace by {@link JavaSites#match},
 * the very pairing a saved trace gets when it is opened: a launch of the window gets its Java site as soon as the
 * agent has written the call (it writes every 200 ms, and every 32 KiB). Calls that ended before the window are
 * forgotten, so older launches kept in a snapshot only for their allocations stay without a site.
 * <p>
 * It also counts the launches of the stream by site (each launch number once, when it is first paired), for the
 * command line's rolling figures, and can copy the side file's lines next to a saved stream, so that the saved trace
 * opens with its sites. One thread calls {@link #update} (a snapshot job, or the command line's loop).
 */
public final class LiveJavaSites implements AutoCloseable {
    /** Launches of one Java call site. */
    public record SiteCount(String site, long launches) {
    }

    private final JavaSiteFollower follower;
    private final int window;
    private final Map<String, long[]> counts = new HashMap<>();
    /** Launch numbers counted, all at or above {@link #floor}: at most about a window of them. */
    private final Set<Long> counted = new HashSet<>();
    /**
     * Launches numbered below this are not counted any more: older than a window of launches (a snapshot still holds
     * the first launch of each function, long gone from the window: it must not be counted again).
     */
    private long floor;
    private long pairedLaunches;

    /**
     * @param sideFile the side file to follow (see {@link #sideFileOf})
     * @param window   the live window's size in events: calls that ended before the last {@code window} events of a
     *                 snapshot are forgotten
     */
    public LiveJavaSites(Path sideFile, int window) {
        this.follower = new JavaSiteFollower(sideFile);
        this.window = Math.max(1, window);
    }

    /**
     * The side file of the attached process: next to its trace file ({@link LiveProcesses.LiveProcess#tracePath()},
     * the StreamStart's trace path), relative paths resolved in the process's working directory.
     */
    public static Path sideFileOf(String tracePath, long pid) {
        return JavaSiteFollower.sideFileOfProcess(tracePath, pid);
    }

    /** The side file followed. */
    public Path file() {
        return follower.file();
    }

    /**
     * Copies the side file's lines, as they are read, to {@code JavaSiteLog.sideFileOf(savedTrace)} (the calls that
     * ended before {@code fromNs}, CLOCK_MONOTONIC, left out).
     */
    public void saveNextTo(Path savedTrace, long fromNs) throws IOException {
        follower.copyTo(JavaSiteLog.sideFileOf(savedTrace), fromNs);
    }

    /** The file the lines are copied to, or null. */
    public @Nullable Path savedSideFile() {
        return follower.copyFile();
    }

    /**
     * Reads what the agent added and pairs the calls held with {@code snapshot}'s trace.
     *
     * @return the sites of the snapshot's events, or null while there is no side file (no agent, or nothing written
     *         yet)
     */
    public @Nullable JavaSites update(LiveWindow.Snapshot snapshot) {
        return update(snapshot.loaded().trace(), snapshot.launchNumbers());
    }

    /** {@link #update(LiveWindow.Snapshot)} for a trace and its launch numbers. */
    public @Nullable JavaSites update(Trace trace, LaunchNumbers numbers) {
        follower.poll();
        if (!follower.found()) {
            return null;
        }
        JavaSites sites = JavaSites.match(trace, follower.log());
        int launches = trace.launchCount();
        for (int k = 0; k < launches; k++) {
            JavaCall c = sites.site(trace.launchEvent(k));
            if (c == null) {
                continue;
            }
            long n = numbers.number(k);
            if (n >= floor && counted.add(n)) {
                counts.computeIfAbsent(c.site(), s -> new long[1])[0]++;
                pairedLaunches++;
            }
        }
        floor = Math.max(floor, numbers.received() - window);
        counted.removeIf(n -> n < floor);
        int events = trace.eventCount();
        if (events > 0) {
            long from = trace.header().startMonoNs() + trace.hostNs(Math.max(0, events - window));
            follower.dropEndedBefore(from);
        }
        return sites;
    }

    /** Whether the agent wrote lines not read yet (any thread: one {@code stat} of the side file). */
    public boolean hasNew() {
        return follower.hasNew();
    }

    /** Whether the side file was found. */
    public boolean found() {
        return follower.found();
    }

    /** Why the side file is no longer followed, or null. */
    public @Nullable String problem() {
        return follower.problem();
    }

    /** Java calls held now (those that may still pair with a launch of the window). */
    public int heldCalls() {
        return follower.held();
    }

    /** Launches of the stream paired with a Java call so far. */
    public long pairedLaunches() {
        return pairedLaunches;
    }

    /** The {@code n} sites with the most launches so far, most first (ties by site). */
    public List<SiteCount> top(int n) {
        List<SiteCount> all = new ArrayList<>(counts.size());
        counts.forEach((s, c) -> all.add(new SiteCount(s, c[0])));
        all.sort(Comparator.comparingLong(SiteCount::launches).reversed().thenComparing(SiteCount::site));
        return all.subList(0, Math.min(n, all.size()));
    }

    /** Reads what is left and closes the copy (call when the stream has ended). */
    @Override
    public void close() {
        follower.poll();
        follower.close();
    }
}
