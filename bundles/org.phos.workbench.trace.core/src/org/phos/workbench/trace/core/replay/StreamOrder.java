package org.phos.workbench.trace.core.replay;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.trace.core.replay.StreamOrderBuilder;
import org.phos.workbench.trace.core.Trace;

/**
 * The happens-before order of a trace's GPU operations (kernel launches, copies, fills, graph launches), as CUDA
 * guarantees it from stream order and event dependencies.
 * <p>
 * Rules, applied to the events in issue order:
 * <ul>
 * <li>An operation follows the previous operation of its stream.</li>
 * <li>{@code EVENT_RECORD(s, e)} captures everything stream {@code s} has been ordered after so far;
 * {@code STREAM_WAIT_EVENT(t, e)} orders every later operation of {@code t} after it (a wait on an event never
 * recorded orders nothing, as in CUDA).</li>
 * <li>The legacy default stream (handle 0, also 1 = {@code cudaStreamLegacy}) waits for all earlier work of blocking
 * streams, and blocking streams' later work waits for it. Streams created with flags bit 0
 * ({@code cudaStreamNonBlocking}) take no part. Handle 2 ({@code cudaStreamPerThread}) is a blocking stream per host
 * thread. Streams used without a recorded {@code STREAM_CREATE} are taken as blocking.</li>
 * <li>Host synchronisation ({@code STREAM_SYNCHRONIZE}, {@code EVENT_SYNCHRONIZE}, {@code CONTEXT_SYNCHRONIZE}, and
 * synchronous device-to-host / host-to-host copies, which return only when done) orders the operations the host
 * thread issues afterwards after what it waited for. Synchronous host-to-device and device-to-device copies and
 * synchronous memsets may return early, so they order nothing on the host.</li>
 * <li>The kernel nodes of a graph launch form one step of their stream: each follows what the graph launch follows,
 * later work follows the whole graph, and the nodes are unordered among themselves (the trace does not carry the
 * graph's edges). Operations issued on a stream while it is being captured into a graph are not operations.</li>
 * </ul>
 * Operations are named by their event index. The order is kept as vector clocks per stream, stored only where a
 * stream gains a dependency on another, so a query costs two binary searches.
 */
public interface StreamOrder {

    /** Computes the order of all of {@code trace}'s GPU operations; cancellable through the monitor. */
    static StreamOrder of(Trace trace, @Nullable IProgressMonitor monitor) {
        return StreamOrderBuilder.fromTrace(trace, monitor);
    }

    /** A builder fed by hand or by a live recorder, one event at a time in issue order. */
    static Builder builder() {
        return new StreamOrderBuilder();
    }

    /** Number of operations. */
    int operationCount();

    /** Event index of the {@code n}-th operation (in issue order). */
    int operationEvent(int n);

    /** Whether event {@code event} is an operation of this order. */
    boolean isOperation(int event);

    /** Stream handle the operation was issued on. */
    long stream(int event);

    /**
     * Whether operation {@code a} completes before operation {@code b} starts, by the rules above. False for
     * {@code a == b}, for two kernel nodes of the same graph launch, and for operations CUDA lets run concurrently.
     *
     * @throws IllegalArgumentException if either event is not an operation
     */
    boolean happensBefore(int a, int b);

    /** Neither {@code happensBefore(a, b)} nor {@code happensBefore(b, a)}: the two may overlap on the GPU. */
    default boolean concurrent(int a, int b) {
        return a != b && !happensBefore(a, b) && !happensBefore(b, a);
    }

    /**
     * The direct dependencies of operation {@code event}, as event indices in ascending order: the previous operation
     * of its stream (a graph launch stands for its nodes) and, per other stream it newly waits for (through an event,
     * the legacy default stream or host synchronisation), the latest operation of that stream it waits for. Their
     * transitive closure is exactly {@link #happensBefore}; the list is not reduced further.
     */
    int[] predecessors(int event);

    /** Builds a {@link StreamOrder} from events fed in issue order (event indices strictly increasing). */
    interface Builder {

        /** A launch, copy, fill or graph launch issued by host {@code thread} on {@code stream}. */
        Builder operation(int event, int thread, long stream);

        /** A kernel node of the graph launch {@code graphLaunchEvent} (which must have been added). */
        Builder graphNode(int event, int graphLaunchEvent);

        /** The host thread waits until operation {@code event} is done (a synchronous D2H copy). */
        Builder hostWaitsFor(int thread, int event);

        Builder streamCreate(long stream, int flags);

        Builder streamDestroy(long stream);

        /** {@code EVENT_CREATE} or {@code EVENT_DESTROY}: forgets what the event captured. */
        Builder eventReset(long cudaEvent);

        Builder eventRecord(int thread, long stream, long cudaEvent);

        Builder streamWaitEvent(int thread, long stream, long cudaEvent);

        Builder streamSynchronize(int thread, long stream);

        Builder eventSynchronize(int thread, long cudaEvent);

        Builder contextSynchronize(int thread);

        Builder captureBegin(int thread, long stream);

        Builder captureEnd(int thread, long stream);

        /** Whether operations issued on {@code stream} now would be captured into a graph instead of run. */
        boolean capturing(int thread, long stream);

        StreamOrder build();
    }
}
