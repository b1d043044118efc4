package org.phos.workbench.cr.core.io;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.jdt.annotation.Nullable;

/**
 * One result file being written. The bytes go to a hidden temporary file beside the target,
 * {@code .NAME.phos-PID-RANDOM.part}, and {@link #commit()} renames it over the target in one step, so the target
 * holds either its old content or the complete new one, never a truncated file. {@link #close()} without a commit
 * deletes the temporary file; so does a shutdown hook when the JVM is stopped (Ctrl+C, SIGTERM) while writing, and a
 * process killed outright leaves a temporary file whose PID is dead, which {@link OutputFiles#removeStaleTemporaries}
 * deletes on the next run.
 * <p>
 * The temporary file is created like any file a tool creates: with the permissions the umask allows (not the 0600 of
 * {@code Files.createTempFile}); when the target already exists, its permissions are kept.
 * <p>
 * Usage: {@code try (OutputFile f = OutputFile.create(target)) { write f.stream(); f.commit(); }}
 */
public final class OutputFile implements AutoCloseable {

    /** Temporary files not yet committed or deleted, for the shutdown hook. */
    private static final Set<Path> PENDING = ConcurrentHashMap.newKeySet();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static volatile boolean hookInstalled;

    private final Path target;
    private final Path temporary;
    private final FileChannel channel;
    private final OutputStream stream;
    private boolean committed;
    private boolean closed;

    private OutputFile(Path target, Path temporary, FileChannel channel) {
        this.target = target;
        this.temporary = temporary;
        this.channel = channel;
        OutputStream raw = Channels.newOutputStream(channel);
        // closing the stream (a Writer over it, a try-with-resources) leaves the file open for commit's fsync
        this.stream = new FilterOutputStream(raw) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                raw.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }

    /**
     * Starts writing {@code target}: creates its temporary file in the target's folder (which must exist).
     * Checking the target (is it a regular file, is it an input) is {@link OutputFiles#refusal}'s job.
     */
    public static OutputFile create(Path target) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path parent = absolute.getParent();
        Path name = absolute.getFileName();
        if (parent == null || name == null) {
            throw new IOException(target + ": not a file name");
        }
        installHook();
        for (int attempt = 0;; attempt++) {
            Path temporary = parent.resolve(OutputFiles.temporaryName(name.toString(),
                    ProcessHandle.current().pid(), Long.toString(RANDOM.nextLong() >>> 1, 36)));
            FileChannel channel;
            try {
                // CREATE_NEW with the default mode: open(2) applies the umask, as for any file a tool creates
                channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                if (attempt < 10) {
                    continue;
                }
                throw e;
            }
            PENDING.add(temporary);
            keepPermissions(absolute, temporary);
            return new OutputFile(target, temporary, channel);
        }
    }

    private static void keepPermissions(Path target, Path temporary) {
        try {
            if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
                Files.setPosixFilePermissions(temporary, Files.getPosixFilePermissions(target));
            }
        } catch (IOException | UnsupportedOperationException e) {
            // not POSIX, or not ours to read: the new file keeps the umask's permissions
        }
    }

    /**
     * Where the bytes go until {@link #commit()}; closing it only flushes (commit closes the file). A writer that
     * takes a path instead of a stream (the trace writer) is given {@link #temporary()}: it opens and fills the same
     * file, and {@link #commit()} then syncs and renames it.
     */
    public OutputStream stream() {
        return stream;
    }

    public Path target() {
        return target;
    }

    public Path temporary() {
        return temporary;
    }

    /** Bytes written so far. */
    public long size() throws IOException {
        stream.flush();
        return channel.isOpen() ? channel.size() : Files.size(committed ? target : temporary);
    }

    /**
     * Makes the written bytes durable and moves them to the target, replacing what was there. After a failure the
     * temporary file is deleted by {@link #close()}.
     */
    public void commit() throws IOException {
        if (committed) {
            return;
        }
        stream.flush();
        channel.force(true);
        channel.close();
        try {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
        }
        committed = true;
        PENDING.remove(temporary);
    }

    /** Abandons the file unless it was committed: closes and deletes the temporary file. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.close();
        } catch (IOException e) {
            // abandoned anyway
        }
        if (!committed) {
            deleteQuietly(temporary);
            PENDING.remove(temporary);
        }
    }

    /** Writes a whole file: the body writes into the stream, then the file is committed. */
    public static void write(Path target, Body body) throws IOException {
        try (OutputFile file = create(target)) {
            body.write(file.stream());
            file.commit();
        }
    }

    /** What {@link #write(Path, Body)} puts into the file. */
    @FunctionalInterface
    public interface Body {
        void write(OutputStream out) throws IOException;
    }

    static void deleteQuietly(@Nullable Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // removed by the next run (its PID is dead then)
        }
    }

    private static void installHook() {
        if (hookInstalled) {
            return;
        }
        synchronized (PENDING) {
            if (!hookInstalled) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> PENDING.forEach(OutputFile::deleteQuietly),
                        "phos: delete unfinished output files"));
                hookInstalled = true;
            }
        }
    }
}
