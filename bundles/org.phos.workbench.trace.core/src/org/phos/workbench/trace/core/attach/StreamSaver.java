package org.phos.workbench.trace.core.attach;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.phos.workbench.internal.trace.core.format.Chunks;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * Writes a live stream to a {@code .phos} file as it arrives: the file header, then each chunk whole, so the file
 * is a loadable trace at every moment (a process killed mid-stream leaves a trace "not closed cleanly"). It holds
 * the process's events from where the stream joined, the allocations live then, and EventGap chunks for the rest
 * ({@code TraceReader} numbers the events it holds from 0 and reports the gaps).
 */
public final class StreamSaver implements AutoCloseable {
    private final Path file;
    private final FileChannel ch;
    private long bytes;

    public StreamSaver(Path file) throws IOException {
        this.file = file;
        this.ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        ByteBuffer h = ByteBuffer.allocate(Chunks.FILE_HEADER_SIZE).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        h.put(Chunks.FILE_MAGIC).putInt((int) TraceHeader.FORMAT_VERSION).putInt(0).flip();
        write(h);
    }

    public Path file() {
        return file;
    }

    /** Bytes written so far. */
    public long bytes() {
        return bytes;
    }

    /** Appends one chunk as it was sent. */
    public void chunk(LiveStream.StreamChunk c) throws IOException {
        write(ByteBuffer.wrap(c.framed()));
    }

    private void write(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            bytes += ch.write(b);
        }
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
