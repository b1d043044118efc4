package org.phos.workbench.cr.core;

import java.util.Iterator;

/**
 * What the simulator replays: an application's operations in issue order. The simulator may pass over a workload
 * more than once (the run without C/R for the slowdown, lookahead for first-use copy order), so
 * {@link #operations()} starts a fresh pass each time; implementations should generate or read operations lazily so
 * that very long workloads need no memory proportional to their length.
 * <p>
 * Buffers are introduced by {@link OperationKind#ALLOC} operations (ids need not be dense but should be small
 * integers; an id is never reused after its free).
 */
public interface SimulationWorkload {

    /** A name for reports ("trace foo.phos, engine signature"). */
    String name();

    /** A fresh pass over the operations, in issue order. */
    Iterator<Operation> operations();

    /** The number of operations if known cheaply, else -1 (used for progress only). */
    default long sizeHint() {
        return -1;
    }

    /** A workload over a list of operations already in memory (hand-built workloads, tests, small traces). */
    static SimulationWorkload of(String name, java.util.List<Operation> operations) {
        java.util.List<Operation> ops = java.util.List.copyOf(operations);
        return new SimulationWorkload() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Iterator<Operation> operations() {
                return ops.iterator();
            }

            @Override
            public long sizeHint() {
                return ops.size();
            }
        };
    }
}
