package org.phos.workbench.trace.core.javasites;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A {@code .java-sites} side file that is still being written (the JCuda agent of a process one is attached to):
 * each {@link #poll()} reads only the bytes added since the last one, keeps a last line without its newline for the
 * next poll (the agent writes whole buffers, but a reader may catch one mid-write), and adds the calls of the whole
 * lines. The file may not exist yet (the agent has not written its first buffer, or there is no agent): polling then
 * finds nothing, and starts when it appears.
 * <p>
 * Memory stays bounded however long the process runs: {@link #dropEndedBefore} forgets calls that ended before a
 * time (a live view's window starts later), and at most {@link #MAX_HELD} calls are held. A first poll of a file
 * already large starts at its last {@link #MAX_FIRST_READ} bytes.
 * <p>
 * Optionally each whole line read is also copied to a second side file (the one next to a saved stream), header
 * first, so that the saved trace opens with its sites ({@link JavaSites#nextTo}); lines of launches, frees and copies
 * that ended before {@code copyFromNs} are left out (the saved stream does not hold their events), module loads and
 * allocations are kept (the stream defines every module and carries the allocations still live when it joined).
 * Not thread-safe: one reader polls.
 */
public final class JavaSiteFollower implements AutoCloseable {
    /** Calls held at most (the oldest are forgotten first). */
    public static final int MAX_HELD = 2_000_000;
    /** Bytes read at most by the first poll of a file that is already there. */
    public static final long MAX_FIRST_READ = 64L << 20;

    private final Path file;
    private volatile long offset = -1;
    private final ByteArray pending = new ByteArray();
    private @Nullable String header;
    private final ArrayList<JavaCall> calls = new ArrayList<>();
    private int head;
    private long linesRead;
    private long skipped;
    private @Nullable String problem;
    private @Nullable OutputStream copy;
    private @Nullable Path copyFile;
    private long copyFromNs = Long.MIN_VALUE;
    private boolean copyHeaderWritten;

    /** Follows {@code file} from its start (or its last {@link #MAX_FIRST_READ} bytes). */
    public JavaSiteFollower(Path file) {
        this.file = file;
    }

    /**
     * The side file of a recording process whose trace is {@code tracePath} (as its StreamStart names it): the
     * agent's default, {@code tracePath + ".java-sites"}; a relative path is resolved against the process's working
     * directory ({@code /proc/PID/cwd}).
     */
    public static Path sideFileOfProcess(String tracePath, long pid) {
        Path trace = Path.of(tracePath);
        if (!trace.isAbsolute()) {
            try {
                trace = Path.of("/proc", Long.toString(pid), "cwd").toRealPath().resolve(trace);
            } catch (IOException | SecurityException e) {
                trace = trace.toAbsolutePath();
            }
        }
        return JavaSiteLog.sideFileOf(trace);
    }

    public Path file() {
        return file;
    }

    /**
     * Copies what is read from now on to {@code target} (created or replaced), leaving out calls that ended before
     * {@code fromNs} (CLOCK_MONOTONIC, as {@link System#nanoTime()} on Linux). Calls read before are copied as well.
     */
    public void copyTo(Path target, long fromNs) throws IOException {
        copy = Files.newOutputStream(target, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        copyFile = target;
        copyFromNs = fromNs;
        copyHeaderWritten = false;
        if (header != null) {
            writeCopyHeader();
            for (int i = head; i < calls.size(); i++) {
                copyLine(calls.get(i));
            }
            flushCopy();
        }
    }

    /** The file the calls are copied to, or null. */
    public @Nullable Path copyFile() {
        return copyFile;
    }

    /**
     * Reads what was added since the last poll.
     *
     * @return the number of calls added
     */
    public int poll() {
        if (problem != null) {
            return 0;
        }
        int before = calls.size();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (offset < 0) {
                offset = size > MAX_FIRST_READ ? size - MAX_FIRST_READ : 0;
                if (offset > 0) {
                    skipped = offset; // the first line read from there is cut: dropped below, as is the header
                }
            }
            if (size < offset) {
                problem = file + " became shorter (" + size + " bytes, " + offset + " read): no longer followed";
                return 0;
            }
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(size - offset, 16L << 20));
            while (offset < size) {
                b.clear();
                int n = ch.read(b, offset);
                if (n <= 0) {
                    break;
                }
                offset += n;
                take(b.array(), n);
            }
        } catch (NoSuchFileException e) {
            return 0; // not there yet
        } catch (IOException e) {
            problem = file + ": cannot read the Java call sites (" + e.getMessage() + ")";
        }
        flushCopy();
        return calls.size() - before;
    }

    private void take(byte[] b, int n) {
        int start = 0;
        for (int i = 0; i < n; i++) {
            if (b[i] != '\n') {
                continue;
            }
            String line;
            if (pending.size() > 0) {
                pending.add(b, start, i - start);
                line = pending.string();
                pending.clear();
            } else {
                line = new String(b, start, i - start, StandardCharsets.UTF_8);
            }
            start = i + 1;
            line(line);
        }
        if (start < n) {
            pending.add(b, start, n - start);
        }
    }

    private void line(String line) {
        linesRead++;
        if (header == null) {
            if (line.startsWith(JavaSiteLog.MAGIC)) {
                header = line;
                if (copy != null) {
                    writeCopyHeader();
                }
                return;
            }
            if (skipped == 0) {
                problem = file + ": not a Java call-site file (the first line is not \"" + JavaSiteLog.MAGIC
                        + " ...\")";
                return;
            }
            // started in the middle of a large file: its header is not read, the calls are
            header = JavaSiteLog.MAGIC;
            if (linesRead == 1) {
                return; // the line read from the middle is cut
            }
        }
        if (line.isEmpty() || line.startsWith("#")) {
            return;
        }
        JavaCall c = JavaSiteLog.parseLine(line);
        if (c == null) {
            return;
        }
        calls.add(c);
        copyLine(c);
        if (calls.size() - head > MAX_HELD) {
            head++;
        }
        if (head > 4096 && head > calls.size() / 2) {
            calls.subList(0, head).clear();
            head = 0;
        }
    }

    private void writeCopyHeader() {
        OutputStream o = copy;
        if (o == null || copyHeaderWritten || header == null) {
            return;
        }
        try {
            o.write((header + "\n").getBytes(StandardCharsets.UTF_8));
            copyHeaderWritten = true;
        } catch (IOException e) {
            copyFailed(e);
        }
    }

    private void copyLine(JavaCall c) {
        OutputStream o = copy;
        // module loads name modules the saved stream defines, allocations may still be live in it: those always go
        if (o == null || c.endNs() < copyFromNs && c.kind() != 'M' && c.kind() != 'A') {
            return;
        }
        writeCopyHeader();
        try {
            o.write((JavaSiteLog.format(c) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            copyFailed(e);
        }
    }

    private void flushCopy() {
        OutputStream o = copy;
        if (o != null) {
            try {
                o.flush();
            } catch (IOException e) {
                copyFailed(e);
            }
        }
    }

    private void copyFailed(IOException e) {
        problem = "cannot write " + copyFile + ": " + e.getMessage();
        closeCopy();
    }

    private void closeCopy() {
        OutputStream o = copy;
        copy = null;
        if (o != null) {
            try {
                o.close();
            } catch (IOException e) {
                // what could be written was flushed
            }
        }
    }

    /** Forgets the calls that ended before {@code ns} (CLOCK_MONOTONIC): no event still shown can be theirs. */
    public void dropEndedBefore(long ns) {
        int n = calls.size();
        while (head < n && calls.get(head).endNs() < ns) {
            head++;
        }
        // calls are in the order the agent wrote them (end order per thread): one from another thread may remain
    }

    /**
     * Whether the file holds bytes not read yet (one {@code stat}; callable from any thread, e.g. a UI timer that
     * decides whether to take a snapshot although the stream brought nothing new).
     */
    public boolean hasNew() {
        try {
            return problem == null && Files.size(file) > Math.max(0, offset);
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the side file was found (its header read). */
    public boolean found() {
        return header != null;
    }

    /** Calls held now. */
    public int held() {
        return calls.size() - head;
    }

    /** Why the file is no longer followed (unreadable, not a side file, cut short, copy failed), or null. */
    public @Nullable String problem() {
        return problem;
    }

    /** The calls held, as a log that {@link JavaSites#match} pairs with a trace. */
    public JavaSiteLog log() {
        List<String> warnings = problem == null ? List.of() : List.of(problem);
        return new JavaSiteLog(file, header == null ? JavaSiteLog.MAGIC : header,
                new ArrayList<>(calls.subList(head, calls.size())), warnings);
    }

    /** Stops copying (the copy is flushed and closed); the followed file is not held open between polls. */
    @Override
    public void close() {
        flushCopy();
        closeCopy();
    }

    /** A growable byte buffer for a line split between two reads. */
    private static final class ByteArray {
        private byte[] b = new byte[256];
        private int n;

        void add(byte[] src, int at, int len) {
            if (n + len > b.length) {
                b = java.util.Arrays.copyOf(b, Math.max(b.length * 2, n + len));
            }
            System.arraycopy(src, at, b, n, len);
            n += len;
        }

        int size() {
            return n;
        }

        String string() {
            return new String(b, 0, n, StandardCharsets.UTF_8);
        }

        void clear() {
            n = 0;
        }
    }
}
