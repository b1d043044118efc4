package org.phos.workbench.internal.trace.core.format;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.trace.core.format.ChunkScanner.RawChunk;

/**
 * Where the loader gets its chunks: directly from a {@link ChunkScanner} on the loading thread (small files), or
 * from a reader thread that scans ahead (reading, CRC, zstd, and decoding event batches into {@link DecodedEvents})
 * while the loading thread appends to the model, a few chunks deep.
 */
abstract class ChunkSource implements AutoCloseable {
    abstract RawChunk next() throws IOException;

    /** Gives a chunk's buffers back once the loader is done with it. */
    abstract void recycle(RawChunk chunk);

    @Override
    public abstract void close();

    static ChunkSource inline(ChunkScanner scanner) {
        return new ChunkSource() {
            private byte @Nullable [] spare;

            @Override
            RawChunk next() throws IOException {
                byte[] b = spare;
                spare = null;
                return scanner.next(b);
            }

            @Override
            void recycle(RawChunk chunk) {
                spare = chunk.payload;
            }

            @Override
            public void close() {
            }
        };
    }

    static ChunkSource pipelined(ChunkScanner scanner, String name) {
        return new Pipelined(scanner, name);
    }

    private static final class Pipelined extends ChunkSource {
        private static final int DEPTH = 4;
        private static final int MAX_RECYCLED = 16 << 20;
        private final BlockingQueue<Object> ready = new ArrayBlockingQueue<>(DEPTH);
        private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(DEPTH + 2);
        private final BlockingQueue<DecodedEvents> freeDecoded = new ArrayBlockingQueue<>(DEPTH + 2);
        /** The reader thread's own codec (a codec holds decoding scratch). */
        private final EventCodec codec = new EventCodec();
        /** Events in the batches decoded ahead so far: the first_index the next batch must have. */
        private long eventsAhead;
        private boolean gapSeen;
        private final Thread thread;
        private volatile boolean stopped;

        Pipelined(ChunkScanner scanner, String name) {
            thread = new Thread(() -> scan(scanner), "phos trace reader: " + name);
            thread.setDaemon(true);
            thread.start();
        }

        private void scan(ChunkScanner scanner) {
            while (!stopped) {
                Object item;
                boolean last;
                try {
                    RawChunk c = scanner.next(free.poll());
                    // after an EventGap (a saved live stream) the batches are left to the loader, which knows the gaps
                    gapSeen |= !c.end && c.type == Chunks.EVENT_GAP;
                    if (!c.end && c.damage == null && !c.unknownCodec && c.type == Chunks.EVENT_BATCH && !gapSeen) {
                        decodeAhead(c);
                    }
                    item = c;
                    last = c.end || c.damage != null;
                } catch (IOException | RuntimeException | Error e) {
                    item = e;
                    last = true;
                }
                try {
                    while (!stopped && !ready.offer(item, 50, TimeUnit.MILLISECONDS)) {
                        // the loader is busy; wait unless it stopped
                    }
                } catch (InterruptedException e) {
                    return;
                }
                if (last) {
                    return;
                }
            }
        }

        /** Decodes an EventBatch into buffers; a failure is left for the loader to report, as its own would be. */
        private void decodeAhead(RawChunk c) {
            byte[] payload = c.payload;
            if (payload == null) {
                return; // the loader reports it
            }
            DecodedEvents d = freeDecoded.poll();
            if (d == null) {
                d = new DecodedEvents();
            }
            d.reset();
            try {
                int n = codec.decodeBatch(payload, 0, c.length, d, eventsAhead);
                d.first = eventsAhead;
                eventsAhead += n;
                c.decoded = d;
                return;
            } catch (WireFormatException | RuntimeException e) {
                c.decodeError = Chunks.doesNotDecode(c.type, e);
            }
            freeDecoded.offer(d);
        }

        @Override
        RawChunk next() throws IOException {
            Object o;
            try {
                o = ready.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while loading a trace");
            }
            if (o instanceof RawChunk c) {
                return c;
            }
            if (o instanceof IOException e) {
                throw new IOException(e.getMessage(), e);
            }
            if (o instanceof RuntimeException e) {
                throw new IllegalStateException("the trace reader thread failed: " + e, e);
            }
            throw (Error) o;
        }

        @Override
        void recycle(RawChunk chunk) {
            byte[] buffer = chunk.payload;
            if (buffer != null && buffer.length <= MAX_RECYCLED) {
                free.offer(buffer);
            }
            DecodedEvents d = chunk.decoded;
            if (d != null) {
                chunk.decoded = null;
                freeDecoded.offer(d);
            }
        }

        @Override
        public void close() {
            stopped = true;
            ready.clear();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
