package org.phos.workbench.cr.core;

/**
 * Receives a simulation's timeline as it is produced. Exporters implement it to stream (memory stays flat however
 * long the workload); {@link TimelineModel} keeps everything in memory for charts and tests.
 * <p>
 * Items arrive in the order the simulator schedules them, which is not strictly time order (a background copy is
 * reported when it is scheduled; its end lies in the future). A lane is announced once before its first interval.
 */
public interface TimelineSink {

    /** A lane is about to be used for the first time. */
    void lane(Lane lane);

    void interval(TimelineInterval interval);

    void stall(StallInterval stall);

    void marker(Marker marker);

    void bufferState(BufferStateChange change);

    void counter(CounterSample sample);

    /**
     * Whether the sink wants one interval per application kernel, copy and set (many). Exporters of long workloads
     * may decline; C/R intervals, stalls and markers are always sent.
     */
    default boolean wantsApplicationIntervals() {
        return true;
    }

    /** A sink that drops everything (and declines application intervals). */
    TimelineSink NONE = new TimelineSink() {
        @Override
        public void lane(Lane lane) {
        }

        @Override
        public void interval(TimelineInterval interval) {
        }

        @Override
        public void stall(StallInterval stall) {
        }

        @Override
        public void marker(Marker marker) {
        }

        @Override
        public void bufferState(BufferStateChange change) {
        }

        @Override
        public void counter(CounterSample sample) {
        }

        @Override
        public boolean wantsApplicationIntervals() {
            return false;
        }
    };

    /** Sends everything to both sinks; application intervals go to those that want them. */
    static TimelineSink tee(TimelineSink a, TimelineSink b) {
        return new TimelineSink() {
            @Override
            public void lane(Lane lane) {
                a.lane(lane);
                b.lane(lane);
            }

            @Override
            public void interval(TimelineInterval interval) {
                boolean app = interval.isApplication();
                if (!app || a.wantsApplicationIntervals()) {
                    a.interval(interval);
                }
                if (!app || b.wantsApplicationIntervals()) {
                    b.interval(interval);
                }
            }

            @Override
            public void stall(StallInterval stall) {
                a.stall(stall);
                b.stall(stall);
            }

            @Override
            public void marker(Marker marker) {
                a.marker(marker);
                b.marker(marker);
            }

            @Override
            public void bufferState(BufferStateChange change) {
                a.bufferState(change);
                b.bufferState(change);
            }

            @Override
            public void counter(CounterSample sample) {
                a.counter(sample);
                b.counter(sample);
            }

            @Override
            public boolean wantsApplicationIntervals() {
                return a.wantsApplicationIntervals() || b.wantsApplicationIntervals();
            }
        };
    }
}
