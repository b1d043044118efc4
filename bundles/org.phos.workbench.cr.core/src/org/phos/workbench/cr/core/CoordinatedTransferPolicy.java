package org.phos.workbench.cr.core;

/**
 * Soft copy-on-write checkpoint with PhOS's coordinated transfer: the copier moves 4 MiB chunks (or the chunk size
 * given), each a separate engine transfer, so an application copy waits at most one chunk instead of a whole buffer;
 * CPU state (machine knob {@code cpu-state}) is dumped before GPU state.
 */
public final class CoordinatedTransferPolicy extends SoftCopyOnWritePolicy {

    public CoordinatedTransferPolicy(SoftCheckpointOptions options) {
        super(options.chunkBytes() == 0 ? options.withChunkBytes(SoftCheckpointOptions.COORDINATED_CHUNK) : options);
    }

    @Override
    public String name() {
        return "coordinated";
    }
}
