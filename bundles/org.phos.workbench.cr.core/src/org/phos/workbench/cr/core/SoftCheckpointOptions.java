package org.phos.workbench.cr.core;

/**
 * Parameters of a soft (concurrent) checkpoint.
 *
 * @param at the checkpoint instant
 * @param order order of the background copier
 * @param chunkBytes copy granularity: 0 copies whole buffers, else chunks of this many bytes (each chunk a separate
 *        engine transfer, so the application's own copies can go between chunks)
 * @param budgetBytes spare device memory for copy-on-write copies (PhOS: 14 GiB), or {@link #AUTO_BUDGET}: the device
 *        memory not in use at the instant less {@link #AUTO_BUDGET_HEADROOM} (simulated: the machine's
 *        {@code device-memory} minus the bytes live at the instant; live: the driver's free memory at the instant)
 * @param staging host memory the copier commits into
 * @param copyOnWrite whether a write to an uncopied buffer first copies it (false: writes only mark it dirty, for a
 *        recopy pre-copy that does not need a consistent image of the instant)
 */
public record SoftCheckpointOptions(CheckpointInstant at, CopierOrder order, long chunkBytes, long budgetBytes,
        Staging staging, boolean copyOnWrite) {

    public static final long PHOS_BUDGET = 14L << 30;
    public static final long COORDINATED_CHUNK = 4L << 20;
    // i13-cow: begin
    /** {@code budget=auto}: as much spare device memory as the instant leaves, less the headroom. */
    public static final long AUTO_BUDGET = -1;
    /**
     * Device memory {@code budget=auto} leaves free: room for the application's allocations after the instant and
     * for the CUDA context's and libraries' own allocations.
     */
    public static final long AUTO_BUDGET_HEADROOM = 2L << 30;

    /** The budget with {@code budget=auto} resolved: {@code free} device memory less the headroom, at least 0. */
    public long budgetFor(long freeDeviceBytes) {
        return budgetBytes == AUTO_BUDGET ? Math.max(0, freeDeviceBytes - AUTO_BUDGET_HEADROOM) : budgetBytes;
    }
    // i13-cow: end

    public SoftCheckpointOptions {
        if (chunkBytes < 0) {
            throw new IllegalArgumentException("chunk size must be >= 0 (0 = whole buffers), was " + chunkBytes);
        }
        if (budgetBytes < 0 && budgetBytes != AUTO_BUDGET) {
            throw new IllegalArgumentException("copy-on-write budget must be >= 0 or auto, was " + budgetBytes);
        }
    }

    /** PhOS's released defaults: pointer order, whole buffers, 14 GiB budget, pageable staging, copy-on-write. */
    public static SoftCheckpointOptions phosDefaults(CheckpointInstant at) {
        return new SoftCheckpointOptions(at, CopierOrder.POINTER, 0, PHOS_BUDGET, Staging.PAGEABLE, true);
    }

    public SoftCheckpointOptions withOrder(CopierOrder o) {
        return new SoftCheckpointOptions(at, o, chunkBytes, budgetBytes, staging, copyOnWrite);
    }

    public SoftCheckpointOptions withChunkBytes(long c) {
        return new SoftCheckpointOptions(at, order, c, budgetBytes, staging, copyOnWrite);
    }

    public SoftCheckpointOptions withBudgetBytes(long b) {
        return new SoftCheckpointOptions(at, order, chunkBytes, b, staging, copyOnWrite);
    }

    public SoftCheckpointOptions withStaging(Staging s) {
        return new SoftCheckpointOptions(at, order, chunkBytes, budgetBytes, s, copyOnWrite);
    }

    public SoftCheckpointOptions withCopyOnWrite(boolean c) {
        return new SoftCheckpointOptions(at, order, chunkBytes, budgetBytes, staging, c);
    }

    public SoftCheckpointOptions withAt(CheckpointInstant a) {
        return new SoftCheckpointOptions(a, order, chunkBytes, budgetBytes, staging, copyOnWrite);
    }

    @Override
    public String toString() {
        return "at " + at + ", order " + order.name().toLowerCase(java.util.Locale.ROOT) + ", "
                + (chunkBytes == 0 ? "whole buffers" : "chunks of " + chunkBytes + " B") + ", budget "
                + (budgetBytes == AUTO_BUDGET ? "auto (free device memory less 2 GiB)" : budgetBytes + " B") + ", " + staging.name().toLowerCase(java.util.Locale.ROOT) + " staging"
                + (copyOnWrite ? "" : ", no copy-on-write");
    }
}
