package org.phos.workbench.trace.core.attach;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.trace.core.format.Chunks;
import org.phos.workbench.trace.core.StreamStart;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * The live recording processes of this user: each socket in the {@link AttachDirectory} is connected to just long
 * enough to read the process's TraceHeader and StreamStart (command line, device, start time, events so far), then
 * closed; the processes are not affected.
 */
public final class LiveProcesses {
    /**
     * A recording process.
     *
     * @param pid         its pid
     * @param argv        its command line
     * @param device      the GPU it records on
     * @param startUnixNs when recording started (wall clock, ns since 1970)
     * @param eventsSoFar events recorded when it was asked
     * @param tracePath   its trace file
     */
    public record LiveProcess(long pid, List<String> argv, String device, long startUnixNs, long eventsSoFar,
            String tracePath) {
    }

    /**
     * What the directory holds.
     *
     * @param directory where the sockets are
     * @param live      processes that answered, by pid
     * @param stale     pids whose process has ended (their socket was left behind: killed)
     * @param problems  one line per socket that could not be read
     */
    public record Listing(Path directory, List<LiveProcess> live, List<Long> stale, List<String> problems) {
    }

    private LiveProcesses() {
    }

    /** Lists {@code dir}, giving each process at most {@code timeout} to answer. */
    public static Listing list(Path dir, Duration timeout) throws IOException {
        List<LiveProcess> live = new ArrayList<>();
        List<Long> stale = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String foreign = AttachDirectory.whyNotPrivate(dir);
        if (foreign != null) {
            problems.add("not listing " + dir + ": " + foreign);
            return new Listing(dir, live, stale, problems);
        }
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "phos attach --list watchdog");
            t.setDaemon(true);
            return t;
        });
        try {
            for (long pid : AttachDirectory.pids(dir)) {
                if (!AttachDirectory.alive(pid)) {
                    stale.add(pid);
                    continue;
                }
                try (LiveStream s = LiveStream.open(dir, pid)) {
                    var timer = watchdog.schedule(s::close, timeout.toMillis(), TimeUnit.MILLISECONDS);
                    LiveProcess p = ask(s);
                    timer.cancel(false);
                    if (p != null) {
                        live.add(p);
                    } else {
                        problems.add("process " + pid + ": no answer within " + timeout.toMillis() + " ms");
                    }
                } catch (AttachException e) {
                    if (e.getMessage() != null && e.getMessage().startsWith("stale socket")) {
                        stale.add(pid);
                    } else {
                        problems.add(e.getMessage());
                    }
                }
            }
        } finally {
            watchdog.shutdownNow();
        }
        return new Listing(dir, live, stale, problems);
    }

    private static @Nullable LiveProcess ask(LiveStream s) throws AttachException {
        LiveStatistics stats = new LiveStatistics(0);
        LiveStream.StreamChunk c;
        while ((c = s.next()) != null) {
            stats.accept(c);
            if (c.type() == Chunks.STREAM_START) {
                LiveStatistics.Snapshot snap = stats.snapshot();
                TraceHeader h = snap.header();
                StreamStart st = snap.start();
                if (h == null || st == null) {
                    return null;
                }
                return new LiveProcess(s.pid(), h.argv(), h.deviceName(), h.startUnixNs(), st.eventsSoFar(),
                        st.tracePath());
            }
        }
        return null;
    }
}
