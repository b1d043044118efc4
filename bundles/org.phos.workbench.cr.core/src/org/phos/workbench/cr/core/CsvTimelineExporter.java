package org.phos.workbench.cr.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.Map;

/**
 * Streams a timeline as CSV, one row per item: {@code record} is interval, stall, marker, state or counter. Columns:
 * {@code record,lane,lane_name,start_ns,end_ns,duration_ns,name,category,buffer,bytes,op,detail}. Fields are quoted
 * per RFC 4180 when needed. Nothing is buffered beyond the writer.
 */
public final class CsvTimelineExporter implements TimelineSink {
    public static final String HEADER = "record,lane,lane_name,start_ns,end_ns,duration_ns,name,category,buffer,bytes,op,detail";

    private final Writer out;
    private final boolean applicationIntervals;
    private final Map<Integer, String> laneNames = new HashMap<>();
    private final StringBuilder row = new StringBuilder(160);

    public CsvTimelineExporter(Writer out, boolean applicationIntervals) {
        this.out = out;
        this.applicationIntervals = applicationIntervals;
        write(HEADER + "\n");
    }

    @Override
    public void lane(Lane lane) {
        laneNames.put(lane.id(), lane.name());
    }

    @Override
    public void interval(TimelineInterval i) {
        if (i.isApplication() && !applicationIntervals) {
            return;
        }
        row("interval", i.lane(), i.startNs(), i.endNs(), i.label(), i.category(), i.buffer(), i.bytes(), i.opIndex(),
                "");
    }

    @Override
    public void stall(StallInterval s) {
        row("stall", s.lane(), s.startNs(), s.endNs(), s.cause().name(), "stall", s.buffer(), 0, s.opIndex(), "");
    }

    @Override
    public void marker(Marker m) {
        row("marker", Lane.CR_CONTROL, m.timeNs(), m.timeNs(), m.label(), "marker", -1, 0, -1,
                "checkpoint " + m.checkpoint());
    }

    @Override
    public void bufferState(BufferStateChange c) {
        row("state", Lane.CR_CONTROL, c.timeNs(), c.timeNs(), c.to().name(), "state", c.buffer(), 0, -1,
                c.from().name() + "->" + c.to().name() + " checkpoint " + c.checkpoint());
    }

    @Override
    public void counter(CounterSample c) {
        row("counter", Lane.CR_CONTROL, c.timeNs(), c.timeNs(), c.counter(), "counter", -1, c.value(), -1, "");
    }

    @Override
    public boolean wantsApplicationIntervals() {
        return applicationIntervals;
    }

    private void row(String record, int lane, long start, long end, String name, String category, int buffer,
            long bytes, long op, String detail) {
        row.setLength(0);
        row.append(record).append(',').append(lane).append(',');
        field(laneNames.getOrDefault(lane, ""));
        row.append(',').append(start).append(',').append(end).append(',').append(end - start).append(',');
        field(name);
        row.append(',');
        field(category);
        row.append(',').append(buffer).append(',').append(bytes).append(',').append(op).append(',');
        field(detail);
        row.append('\n');
        write(row);
    }

    private void field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            row.append(s);
        } else {
            row.append('"').append(s.replace("\"", "\"\"")).append('"');
        }
    }

    /** Flushes the writer (the caller closes it). */
    public void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing timeline CSV failed", e);
        }
    }

    private void write(CharSequence s) {
        try {
            out.append(s);
        } catch (IOException e) {
            throw new UncheckedIOException("writing timeline CSV failed", e);
        }
    }
}
