package org.phos.workbench.internal.trace.core.model;

/**
 * Receives decoded events, one primitive call per event (nothing allocated): {@link TraceColumns} stores them, and
 * the trace reader's look-ahead thread buffers them to hand on. Byte slices ({@code buf[offset, offset + length)})
 * are only valid during the call. Codes are the wire's enum codes.
 */
public interface EventSink {
    void addAlloc(long host, int thr, long address, long size, int kindCode, long stream);

    void addFree(long host, int thr, long address, int kindCode, long stream);

    void addMemcpy(long host, int thr, int kindCode, long src, long dst, long bytes, long stream, boolean async,
            byte[] payload, int payloadOffset, int payloadLength, long gpuStart, long gpuEnd);

    void addMemset(long host, int thr, long dst, long bytes, int value, int elementSize, long stream, boolean async,
            long gpuStart, long gpuEnd);

    void addLaunch(long host, int thr, int function, int gx, int gy, int gz, int bx, int by, int bz, int shm,
            long stream, byte[] buf, int paramOffset, int paramLength, long gpuStart, long gpuEnd, int kindCode,
            long graphLaunch);

    void addSync(long host, int thr, int kindCode, long stream, long cudaEvent, int flags);

    void addGraphLaunch(long host, int thr, long exec, long stream, int kernelNodes);

    void addUnknown(long host, int thr);

    // i16-rec: begin
    /** A CUDA array event; rare, so it arrives as its record. */
    void addArray(org.phos.workbench.trace.core.TraceEvent.CudaArray a);

    /** A tensor map event; rare, so it arrives as its record. */
    void addTensorMap(org.phos.workbench.trace.core.TraceEvent.TensorMap t);
    // i16-rec: end

    /** i15-alloc: a caching allocator's block event, as its record. */
    void addAllocatorBlock(org.phos.workbench.trace.core.TraceEvent.AllocatorBlock b);
}
