package org.phos.workbench.internal.trace.core.model;

import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;

/** {@link Trace.Builder} over {@link TraceColumns}: unpacks event records into the columns. */
public final class TraceModelBuilder implements Trace.Builder {
    private final TraceColumns columns;
    private boolean built;

    public TraceModelBuilder(TraceHeader header) {
        this.columns = new TraceColumns(header);
    }

    @Override
    public Trace.Builder module(ModuleInfo module) {
        check();
        columns.addModule(module);
        return this;
    }

    @Override
    public Trace.Builder function(FunctionInfo function) {
        check();
        columns.addFunction(function);
        return this;
    }

    @Override
    public Trace.Builder event(TraceEvent event) {
        check();
        add(columns, event);
        return this;
    }

    /** Appends one event record to {@code c}. */
    public static void add(TraceColumns c, TraceEvent event) {
        switch (event) {
            case TraceEvent.Alloc a -> c.addAlloc(a.hostNs(), a.thread(), a.address(), a.size(), a.allocKind().code(),
                    a.stream());
            case TraceEvent.Free f -> c.addFree(f.hostNs(), f.thread(), f.address(), f.allocKind().code(), f.stream());
            case TraceEvent.Memcpy m -> c.addMemcpy(m.hostNs(), m.thread(), m.copyKind().code(), m.src(), m.dst(),
                    m.bytes(), m.stream(), m.async(), m.payload(), 0, m.payload().length, m.gpuStartNs(), m.gpuEndNs());
            case TraceEvent.Memset s -> c.addMemset(s.hostNs(), s.thread(), s.dst(), s.bytes(), s.value(),
                    s.elementSize(), s.stream(), s.async(), s.gpuStartNs(), s.gpuEndNs());
            case TraceEvent.Launch l -> c.addLaunch(l.hostNs(), l.thread(), l.function(), l.grid().x(), l.grid().y(),
                    l.grid().z(), l.block().x(), l.block().y(), l.block().z(), l.sharedMem(), l.stream(), l.params(), 0,
                    l.params().length, l.gpuStartNs(), l.gpuEndNs(), l.launchKind().code(), l.graphLaunch());
            case TraceEvent.Sync s -> c.addSync(s.hostNs(), s.thread(), s.syncKind().code(), s.stream(), s.event(),
                    s.flags());
            case TraceEvent.GraphLaunch g -> c.addGraphLaunch(g.hostNs(), g.thread(), g.graphExec(), g.stream(),
                    g.kernelNodes());
            case TraceEvent.Unknown u -> c.addUnknown(u.hostNs(), u.thread());
            case TraceEvent.CudaArray a -> c.addArray(a); // i16-rec
            case TraceEvent.TensorMap t -> c.addTensorMap(t); // i16-rec
            case TraceEvent.AllocatorBlock b -> c.addAllocatorBlock(b); // i15-alloc
        }
    }

    @Override
    public Trace.Builder observed(ObservedAccess access) {
        check();
        columns.addObserved(access);
        return this;
    }

    @Override
    public Trace.Builder coverage(ObservationCoverage coverage) {
        check();
        columns.addCoverage(coverage);
        return this;
    }

    @Override
    public Trace.Builder end(TraceEnd end) {
        check();
        columns.setEnd(end);
        return this;
    }

    @Override
    public Trace build() {
        check();
        built = true;
        return columns.freeze();
    }

    private void check() {
        if (built) {
            throw new IllegalStateException("builder already built its trace");
        }
    }
}
