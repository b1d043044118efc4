package org.phos.workbench.trace.core.attach;

import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.trace.core.format.Chunks;
import org.phos.workbench.trace.core.TraceHeader;

import com.github.luben.zstd.Zstd;

/**
 * A connection to the live attach socket of a recording process: yields its chunks, checked (magic, CRCs, lengths,
 * zstd) and decompressed, as they arrive. The process is never affected by what this side does: it may read
 * slowly (the recorder drops batches for it and says so with EventGap chunks), stop reading, or {@link #close} at
 * any moment (detach).
 * <p>
 * {@link #next()} blocks until a whole chunk is there; it returns null at the end of the stream: after TraceEnd when
 * the process closed its trace ({@link #closedCleanly()}), else when the process ended without closing it (killed):
 * everything before that is whole chunks. Closing from another thread ends a blocked {@code next()} with null.
 */
public final class LiveStream implements AutoCloseable {
    /** A checked chunk: its type, its bytes as sent (header and stored payload) and its payload, decompressed. */
    public record StreamChunk(int type, byte[] framed, byte[] payload) {
    }

    private final long pid;
    private final Path socket;
    private final SocketChannel channel;
    private ByteBuffer buf = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN).flip();
    private final CRC32C crc = new CRC32C();
    private long received;
    private boolean headerRead;
    private boolean ended;
    private boolean traceEnd;
    private volatile boolean closed;

    private LiveStream(long pid, Path socket, SocketChannel channel) {
        this.pid = pid;
        this.socket = socket;
        this.channel = channel;
    }

    /**
     * Connects to process {@code pid}'s socket in {@code dir}. A process that does not exist, one that does not
     * record (no socket), a socket left by a process that ended, and a refused connection each fail with one line.
     */
    public static LiveStream open(Path dir, long pid) throws AttachException {
        Path socket = AttachDirectory.socket(dir, pid);
        boolean alive = AttachDirectory.alive(pid);
        if (!Files.exists(socket)) {
            throw new AttachException(alive
                    ? "process " + pid + " offers no live stream: no socket " + socket + " (it runs without the phos "
                            + "recorder, with PHOS_ATTACH=0, under another user or XDG_RUNTIME_DIR, or has not "
                            + "initialised CUDA yet)"
                    : "no process " + pid + " (and no socket " + socket + "); `workbench attach --list` shows the "
                            + "live recording processes");
        }
        String foreign = AttachDirectory.whyNotPrivate(dir);
        if (foreign != null) {
            throw new AttachException("not attaching through " + socket + ": " + foreign);
        }
        if (!alive) {
            throw new AttachException("stale socket " + socket + ": process " + pid + " has ended (it was killed: "
                    + "its trace file holds what it recorded)");
        }
        SocketChannel ch = null;
        try {
            ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(socket));
            return new LiveStream(pid, socket, ch);
        } catch (ConnectException e) {
            closeQuietly(ch);
            throw new AttachException("stale socket " + socket + ": nobody listens on it (process " + pid
                    + " ended without removing it, or its pid was reused by a process that does not record)");
        } catch (IOException | UnsupportedOperationException e) {
            closeQuietly(ch);
            throw new AttachException("cannot connect to " + socket + ": " + e.getMessage(), e);
        }
    }

    public long pid() {
        return pid;
    }

    public Path socket() {
        return socket;
    }

    /** Bytes received so far. */
    public long received() {
        return received;
    }

    /** Whether the stream ended after the TraceEnd chunk (the process closed its trace). */
    public boolean closedCleanly() {
        return traceEnd;
    }

    /** Whether {@link #next()} returned null: the stream ended or was closed. */
    public boolean ended() {
        return ended;
    }

    /**
     * The next chunk, or null at the end of the stream. A damaged chunk (bad magic, CRC, length, zstd) fails with
     * the byte offset in the stream; what came before it stays valid.
     */
    public @Nullable StreamChunk next() throws AttachException {
        if (ended) {
            return null;
        }
        try {
            if (!headerRead) {
                if (!fill(Chunks.FILE_HEADER_SIZE)) {
                    return end();
                }
                for (int k = 0; k < 8; k++) {
                    if (buf.get(buf.position() + k) != Chunks.FILE_MAGIC[k]) {
                        throw new AttachException(socket + " does not speak the .phos format (bad magic)");
                    }
                }
                int version = buf.getInt(buf.position() + 8);
                if (version != TraceHeader.FORMAT_VERSION) {
                    throw new AttachException(socket + " streams format version " + version + "; this reader knows "
                            + TraceHeader.FORMAT_VERSION);
                }
                buf.position(buf.position() + Chunks.FILE_HEADER_SIZE);
                headerRead = true;
            }
            if (!fill(Chunks.CHUNK_HEADER_SIZE)) {
                return end();
            }
            long at = received - buf.remaining();
            int p = buf.position();
            if (buf.getInt(p) != Chunks.CHUNK_MAGIC) {
                throw damaged(at, "bad chunk magic");
            }
            crc.reset();
            crc.update(buf.array(), p, 20);
            if ((int) crc.getValue() != buf.getInt(p + 20)) {
                throw damaged(at, "chunk header checksum mismatch");
            }
            int type = buf.getShort(p + 4) & 0xffff;
            int codec = buf.get(p + 6) & 0xff;
            long stored = Integer.toUnsignedLong(buf.getInt(p + 8));
            long raw = Integer.toUnsignedLong(buf.getInt(p + 12));
            if (stored > Chunks.MAX_LENGTH || raw > Chunks.MAX_LENGTH) {
                throw damaged(at, "chunk length over 256 MiB");
            }
            int whole = Chunks.CHUNK_HEADER_SIZE + (int) stored;
            if (!fill(whole)) {
                return end();   // the process went away in the middle of a chunk: the whole ones are what it sent
            }
            p = buf.position();
            byte[] framed = new byte[whole];
            buf.get(framed);
            crc.reset();
            crc.update(framed, Chunks.CHUNK_HEADER_SIZE, (int) stored);
            if ((int) crc.getValue() != ByteBuffer.wrap(framed, 16, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()) {
                throw damaged(at, "payload checksum mismatch");
            }
            byte[] payload;
            if (codec == Chunks.CODEC_NONE) {
                if (stored != raw) {
                    throw damaged(at, "uncompressed chunk with two lengths");
                }
                payload = new byte[(int) stored];
                System.arraycopy(framed, Chunks.CHUNK_HEADER_SIZE, payload, 0, (int) stored);
            } else if (codec == Chunks.CODEC_ZSTD) {
                payload = new byte[(int) raw];
                long n = Zstd.decompressByteArray(payload, 0, (int) raw, framed, Chunks.CHUNK_HEADER_SIZE, (int) stored);
                if (Zstd.isError(n) || n != raw) {
                    throw damaged(at, "zstd payload does not inflate to its declared " + raw + " bytes");
                }
            } else {
                throw damaged(at, "unknown codec " + codec);
            }
            if (type == Chunks.TRACE_END) {
                traceEnd = true;
            }
            return new StreamChunk(type, framed, payload);
        } catch (ClosedChannelException e) {
            return end();   // closed by this side (detach), also from another thread while blocked
        } catch (AttachException e) {
            ended = true;
            throw e;
        } catch (IOException e) {
            // a reset by the peer is the process going away: the stream ends there
            return end();
        }
    }

    private @Nullable StreamChunk end() {
        ended = true;
        return null;
    }

    private AttachException damaged(long at, String why) {
        return new AttachException("the stream of process " + pid + " is damaged at byte " + at + ": " + why);
    }

    /** Reads until {@code n} bytes are buffered; false at the end of the stream. */
    private boolean fill(int n) throws IOException {
        if (buf.remaining() >= n) {
            return true;
        }
        if (buf.capacity() < n) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(n, buf.capacity() * 2)).order(ByteOrder.LITTLE_ENDIAN);
            bigger.put(buf).flip();
            buf = bigger;
        }
        buf.compact();
        try {
            while (buf.position() < n) {
                int k = channel.read(buf);
                if (k < 0) {
                    return false;
                }
                received += k;
            }
        } finally {
            buf.flip();
        }
        return true;
    }

    /** Detaches: the process goes on untouched. Safe from any thread, also while {@link #next()} blocks. */
    @Override
    public void close() {
        closed = true;
        closeQuietly(channel);
    }

    private static void closeQuietly(@Nullable SocketChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                // closing a socket: nothing to do about it
            }
        }
    }
}
