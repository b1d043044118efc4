package org.phos.workbench.internal.trace.core.model;

import org.phos.workbench.trace.core.TraceEvent;

/**
 * An {@link EventSink} that ignores every event: sinks that watch a few kinds (the live window, the live statistics)
 * override only those. Sinks that store events implement {@link EventSink} itself, so that a new kind cannot be
 * dropped by forgetting it.
 */
public abstract class EventWatcher implements EventSink {
    @Override
    public void addAlloc(long host, int thr, long address, long size, int kindCode, long stream) {
    }

    @Override
    public void addFree(long host, int thr, long address, int kindCode, long stream) {
    }

    @Override
    public void addMemcpy(long host, int thr, int kindCode, long src, long dst, long bytes, long stream,
            boolean async, byte[] payload, int payloadOffset, int payloadLength, long gpuStart, long gpuEnd) {
    }

    @Override
    public void addMemset(long host, int thr, long dst, long bytes, int value, int elementSize, long stream,
            boolean async, long gpuStart, long gpuEnd) {
    }

    @Override
    public void addLaunch(long host, int thr, int function, int gx, int gy, int gz, int bx, int by, int bz, int shm,
            long stream, byte[] buf, int paramOffset, int paramLength, long gpuStart, long gpuEnd, int kindCode,
            long graphLaunch) {
    }

    @Override
    public void addSync(long host, int thr, int kindCode, long stream, long cudaEvent, int flags) {
    }

    @Override
    public void addGraphLaunch(long host, int thr, long exec, long stream, int kernelNodes) {
    }

    @Override
    public void addUnknown(long host, int thr) {
    }

    @Override
    public void addArray(TraceEvent.CudaArray a) {
    }

    @Override
    public void addTensorMap(TraceEvent.TensorMap t) {
    }

    @Override
    public void addAllocatorBlock(TraceEvent.AllocatorBlock b) { // i15-alloc
    }
}
