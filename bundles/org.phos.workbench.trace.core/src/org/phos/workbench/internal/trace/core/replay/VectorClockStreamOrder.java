package org.phos.workbench.internal.trace.core.replay;

import java.util.Arrays;

import org.phos.workbench.trace.core.replay.StreamOrder;

/** The immutable result of {@link StreamOrderBuilder}: operations as steps of lanes, clocks at join steps. */
final class VectorClockStreamOrder implements StreamOrder {

    private final int[] opEvent; // ascending
    private final int[] opLane;
    private final int[] opSeq;
    private final long[] laneStream;
    private final int[][] stepOps; // per lane, op index of each step (seq - 1)
    private final int[][] joinSeqs; // per lane, ascending steps that store a clock
    private final int[][][] joinClocks;
    private final int[] extraOps; // ascending ops with cross-lane predecessors
    private final int[] extraStart;
    private final int[] extraEvents;

    VectorClockStreamOrder(int[] opEvent, int[] opLane, int[] opSeq, long[] laneStream, int[][] stepOps,
            int[][] joinSeqs, int[][][] joinClocks, int[] extraOps, int[] extraStart, int[] extraEvents) {
        this.opEvent = opEvent;
        this.opLane = opLane;
        this.opSeq = opSeq;
        this.laneStream = laneStream;
        this.stepOps = stepOps;
        this.joinSeqs = joinSeqs;
        this.joinClocks = joinClocks;
        this.extraOps = extraOps;
        this.extraStart = extraStart;
        this.extraEvents = extraEvents;
    }

    @Override
    public int operationCount() {
        return opEvent.length;
    }

    @Override
    public int operationEvent(int n) {
        return opEvent[n];
    }

    @Override
    public boolean isOperation(int event) {
        return Arrays.binarySearch(opEvent, event) >= 0;
    }

    @Override
    public long stream(int event) {
        return laneStream[opLane[op(event)]];
    }

    private int op(int event) {
        int op = Arrays.binarySearch(opEvent, event);
        if (op < 0) {
            throw new IllegalArgumentException("event " + event + " is not a GPU operation of this trace (launch, "
                    + "copy, fill or graph launch)");
        }
        return op;
    }

    @Override
    public boolean happensBefore(int a, int b) {
        int opA = op(a);
        int opB = op(b);
        int laneA = opLane[opA];
        int laneB = opLane[opB];
        if (laneA == laneB) {
            return opSeq[opA] < opSeq[opB];
        }
        int[] seqs = joinSeqs[laneB];
        int j = Arrays.binarySearch(seqs, opSeq[opB]);
        j = j >= 0 ? j : -j - 2; // last join at or before b's step
        if (j < 0) {
            return false;
        }
        int[] clock = joinClocks[laneB][j];
        return laneA < clock.length && clock[laneA] >= opSeq[opA];
    }

    @Override
    public int[] predecessors(int event) {
        int op = op(event);
        int lane = opLane[op];
        int seq = opSeq[op];
        int rep = stepOps[lane][seq - 1]; // a graph node answers for its graph launch
        int[] result = new int[0];
        if (seq > 1) {
            result = new int[] { opEvent[stepOps[lane][seq - 2]] };
        }
        int x = Arrays.binarySearch(extraOps, rep);
        if (x >= 0) {
            int from = extraStart[x];
            int to = x + 1 < extraOps.length ? extraStart[x + 1] : extraEvents.length;
            int[] merged = Arrays.copyOf(result, result.length + to - from);
            System.arraycopy(extraEvents, from, merged, result.length, to - from);
            Arrays.sort(merged);
            result = merged;
        }
        return result;
    }

    @Override
    public String toString() {
        return "StreamOrder[" + opEvent.length + " operations, " + laneStream.length + " stream lanes]";
    }
}
