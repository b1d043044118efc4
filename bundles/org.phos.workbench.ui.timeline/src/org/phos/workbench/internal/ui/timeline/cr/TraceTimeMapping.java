package org.phos.workbench.internal.ui.timeline.cr;

import java.util.Iterator;

import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.cr.core.trace.WholeAllocationParameterPlaceholder;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * How a simulated run's clock maps onto its trace's: the simulator starts its clock at 0 at the first call it
 * simulates (the first operation of the trace's workload), so trace time = simulated time + that call's host time.
 * An offset only: the stalls a policy adds are not in the trace, so later calls lie later on the simulated clock than
 * in the trace, by the stalls before them; and a restore run replays from its restore point with its own clock.
 *
 * @param trace the trace
 * @param offsetNs host time (trace clock) of the first simulated call
 */
public record TraceTimeMapping(LoadedTrace trace, long offsetNs) {
    /** The axis lock's tooltip and the documentation's sentence. */
    public static final String EXPLANATION = "Lock this timeline's time axis to the Trace Timeline's: zooming or "
            + "panning one moves the other.\nThe simulator's clock starts at 0 at the first simulated call, so the "
            + "mapping is an offset: trace time = simulated time + that call's host time in the trace.\nExact at the "
            + "start; stalls the policy adds are not in the trace, so after a stall the same call lies later on the "
            + "simulated clock (by the stalls so far).";

    /** The mapping of {@code trace}: the host time of the first operation its workload yields. */
    public static TraceTimeMapping of(LoadedTrace trace) {
        Iterator<Operation> ops = new TraceWorkload(trace.trace(), trace.name(), new WholeAllocationParameterPlaceholder(),
                null, false).operations();
        long offset = ops.hasNext() ? ops.next().hostTimeNs() : 0;
        return new TraceTimeMapping(trace, offset);
    }

    public long toTrace(long simulatedNs) {
        return simulatedNs + offsetNs;
    }

    public long toSimulated(long traceNs) {
        return traceNs - offsetNs;
    }
}
