package org.phos.workbench.cr.core.trace;

import java.util.List;

import org.phos.workbench.trace.core.AddressRange;

/**
 * What one launch reads and writes, as device address ranges (the adapter maps them onto buffers).
 *
 * @param reads ranges read
 * @param writes ranges written
 */
public record LaunchAccesses(List<AddressRange> reads, List<AddressRange> writes) {
    public LaunchAccesses {
        reads = List.copyOf(reads);
        writes = List.copyOf(writes);
    }

    public static final LaunchAccesses NONE = new LaunchAccesses(List.of(), List.of());
}
