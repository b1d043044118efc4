package org.phos.workbench.cr.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Streams a timeline as Chrome Trace Event JSON (object form, {@code {"traceEvents": [...]}}), which Perfetto and
 * chrome://tracing open. One process per lane group (1 application, 2 copy engines, 3 checkpoint/restore), one
 * thread per lane (thread id = lane id) named by metadata events; intervals and stalls are complete events
 * ({@code "ph":"X"}, {@code ts}/{@code dur} in microseconds with nanosecond decimals), markers thread-scoped instant
 * events on the "C/R control" lane, counters {@code "ph":"C"}. Lanes are serial, so slices on one track never
 * overlap (Perfetto's nesting rule holds). Nothing is buffered beyond the writer: memory stays flat.
 */
public final class TimelineChromeExporter implements TimelineSink, AutoCloseable {
    private final Writer out;
    private final boolean applicationIntervals;
    private final Set<Integer> pidsNamed = new HashSet<>();
    private final StringBuilder line = new StringBuilder(256);
    private boolean first = true;
    private boolean closed;
    private long events;

    /**
     * @param out where the JSON goes (the caller closes it after {@link #close})
     * @param applicationIntervals whether to write one slice per application kernel, copy and set
     */
    public TimelineChromeExporter(Writer out, boolean applicationIntervals) {
        this.out = out;
        this.applicationIntervals = applicationIntervals;
        write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    }

    public static int pid(LaneKind kind) {
        return kind.ordinal() + 1;
    }

    private static int pidOfLane(int laneId) {
        if (laneId == Lane.HOST || laneId >= Lane.FIRST_STREAM) {
            return pid(LaneKind.APPLICATION);
        }
        if (laneId >= Lane.ENGINE_H2D && laneId <= Lane.ENGINE_D2D) {
            return pid(LaneKind.COPY_ENGINE);
        }
        return pid(LaneKind.CHECKPOINT_RESTORE);
    }

    private static final String[] PROCESS_NAMES = { "Application", "Copy engines", "Checkpoint/restore" };

    @Override
    public void lane(Lane lane) {
        int pid = pid(lane.kind());
        if (pidsNamed.add(pid)) {
            begin("M", pid, 0).append(",\"name\":\"process_name\",\"args\":{\"name\":");
            str(PROCESS_NAMES[lane.kind().ordinal()]).append("}");
            end();
            begin("M", pid, 0).append(",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":").append(pid)
                    .append("}");
            end();
        }
        begin("M", pid, lane.id()).append(",\"name\":\"thread_name\",\"args\":{\"name\":");
        str(lane.name()).append("}");
        end();
        begin("M", pid, lane.id()).append(",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":")
                .append(lane.id()).append("}");
        end();
    }

    @Override
    public void interval(TimelineInterval i) {
        if (i.isApplication() && !applicationIntervals) {
            return;
        }
        begin("X", pidOfLane(i.lane()), i.lane());
        line.append(",\"ts\":");
        micros(i.startNs());
        line.append(",\"dur\":");
        micros(i.durationNs());
        line.append(",\"name\":");
        str(i.label());
        line.append(",\"cat\":");
        str(i.category());
        line.append(",\"args\":{\"bytes\":").append(i.bytes());
        if (i.buffer() >= 0) {
            line.append(",\"buffer\":").append(i.buffer());
        }
        if (i.opIndex() >= 0) {
            line.append(",\"op\":").append(i.opIndex());
        }
        line.append('}');
        end();
    }

    @Override
    public void stall(StallInterval s) {
        begin("X", pidOfLane(s.lane()), s.lane());
        line.append(",\"ts\":");
        micros(s.startNs());
        line.append(",\"dur\":");
        micros(s.durationNs());
        line.append(",\"name\":");
        str("stall: " + s.cause().name().toLowerCase(java.util.Locale.ROOT));
        line.append(",\"cat\":\"stall\",\"args\":{\"buffer\":").append(s.buffer()).append(",\"op\":")
                .append(s.opIndex()).append('}');
        end();
    }

    @Override
    public void marker(Marker m) {
        begin("i", pid(LaneKind.CHECKPOINT_RESTORE), Lane.CR_CONTROL);
        line.append(",\"ts\":");
        micros(m.timeNs());
        line.append(",\"s\":\"t\",\"name\":");
        str(m.label());
        line.append(",\"cat\":\"marker\",\"args\":{\"checkpoint\":").append(m.checkpoint()).append('}');
        end();
    }

    @Override
    public void bufferState(BufferStateChange change) {
        // per-buffer state changes are too many for a viewer's tracks; they go to the CSV export
    }

    @Override
    public void counter(CounterSample c) {
        begin("C", pid(LaneKind.CHECKPOINT_RESTORE), Lane.CR_CONTROL);
        line.append(",\"ts\":");
        micros(c.timeNs());
        line.append(",\"name\":");
        str(c.counter());
        line.append(",\"args\":{\"bytes\":").append(c.value()).append('}');
        end();
    }

    @Override
    public boolean wantsApplicationIntervals() {
        return applicationIntervals;
    }

    /** Events written so far (metadata included). */
    public long eventCount() {
        return events;
    }

    /** Ends the JSON document, with the metrics under {@code otherData} when given. */
    public void finish(@Nullable SimulationMetrics metrics) {
        if (closed) {
            return;
        }
        closed = true;
        StringBuilder sb = new StringBuilder("\n]");
        if (metrics != null) {
            sb.append(",\"otherData\":{");
            Map<String, String> m = new TreeMap<>(MetricsCsvWriter.flatten(metrics));
            boolean f = true;
            for (Map.Entry<String, String> e : m.entrySet()) {
                if (!f) {
                    sb.append(',');
                }
                f = false;
                line.setLength(0);
                str(e.getKey());
                sb.append(line).append(':');
                line.setLength(0);
                str(e.getValue());
                sb.append(line);
            }
            sb.append('}');
        }
        sb.append("}\n");
        write(sb.toString());
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing Chrome trace JSON failed", e);
        }
    }

    @Override
    public void close() {
        finish(null);
    }

    private StringBuilder begin(String ph, int pid, int tid) {
        if (closed) {
            throw new IllegalStateException("Chrome trace already finished");
        }
        line.setLength(0);
        if (!first) {
            line.append(",\n");
        }
        first = false;
        line.append("{\"ph\":\"").append(ph).append("\",\"pid\":").append(pid).append(",\"tid\":").append(tid);
        if (ph.equals("M")) {
            line.append(",\"ts\":0");
        }
        return line;
    }

    private void end() {
        line.append('}');
        events++;
        write(line);
    }

    private void micros(long ns) {
        long v = Math.abs(ns);
        if (ns < 0) {
            line.append('-');
        }
        line.append(v / 1000);
        long frac = v % 1000;
        if (frac != 0) {
            line.append('.');
            if (frac < 100) {
                line.append('0');
            }
            if (frac < 10) {
                line.append('0');
            }
            line.append(frac);
        }
    }

    private StringBuilder str(String s) {
        line.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> line.append("\\\"");
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    if (c < 0x20) {
                        line.append(String.format("\\u%04x", (int) c));
                    } else {
                        line.append(c);
                    }
                }
            }
        }
        return line.append('"');
    }

    private void write(CharSequence s) {
        try {
            out.append(s);
        } catch (IOException e) {
            throw new UncheckedIOException("writing Chrome trace JSON failed", e);
        }
    }
}
