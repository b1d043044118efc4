package org.phos.workbench.internal.speculation.core.engines;

import static org.phos.workbench.speculation.core.SpeculatedAccess.WHOLE_ALLOCATION;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.speculation.core.engines.CublasKernels.Bound;
import org.phos.workbench.internal.speculation.core.engines.CublasKernels.Decoded;
import org.phos.workbench.internal.speculation.core.engines.CublasKernels.Entry;
import org.phos.workbench.internal.speculation.core.engines.CublasKernels.Family;
import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * The {@code +cublas} modifier: narrows the accesses another engine speculates through the pointers of cuBLAS's
 * split-K kernels to the extents their parameters give ({@link CublasKernels}, a hand-written library table as
 * PhoenixOS keeps per API): the workspace the partial products go through (cuBLAS's own 32-64 MiB allocation, of
 * which a launch touches {@code 4 * m * n * splits} bytes) and the reduction's outputs. An access through a bounded
 * parameter word holding pointer {@code p} becomes {@code [p, p + extent)}, intersected with what the base engine
 * gave; every other access passes unchanged.
 * <p>
 * Only what is known before the launch is used (its parameters, the live allocations), so it could run live. A launch
 * passes unchanged as a whole when the table does not know its kernel, when its values are implausible
 * ({@link Decoded#fallback()}), when a workspace pointer is not an allocation's start, or when an extent runs past
 * its allocation's end. Where the table is wrong anyway (another cuBLAS version laying its parameters out
 * differently in a way the checks do not catch), the speculation misses bytes and {@code validate} reports missed
 * writes. It remembers nothing across launches ({@link Memory} of the base engine).
 */
public final class CublasEngine extends ModifierEngine {

	/** The suffix naming the modifier. */
	public static final String SUFFIX = "+cublas";

	private final Trace trace;
	/** The table's entry per function id, made at the function's first launch. */
	private @Nullable Entry[] entries = new Entry[64];
	/** The launch's bounds: parameter offsets and the ends of their ranges. */
	private int[] offsets = new int[4];
	private long[] pointers = new long[4];
	private long[] ends = new long[4];
	private int bounds;
	private AccessSink out = (a, b, c, d, e, f, g) -> {
	};
	private final AccessSink narrow = this::narrow;

	/**
	 * @param base the engine whose accesses are narrowed
	 * @param trace the trace both speculate
	 */
	public CublasEngine(SpeculationEngine base, Trace trace) {
		super(base, SUFFIX);
		this.trace = trace;
	}

	@Override
	public boolean speculate(LaunchContext launch, AccessSink sink) {
		bounds = 0;
		Entry entry = entry(launch);
		if (entry != null && (entry.family() == Family.CUTLASS_SPLIT_K || entry.family() == Family.SPLIT_K_REDUCE)) {
			Decoded decoded = CublasKernels.decode(entry, launch.paramBytes(), launch.paramLength(),
					trace.gridZ(launch.event()));
			if (!place(launch, decoded)) {
				bounds = 0;
			}
		}
		if (bounds == 0) {
			return base.speculate(launch, sink);
		}
		out = sink;
		return base.speculate(launch, narrow);
	}

	private @Nullable Entry entry(LaunchContext launch) {
		FunctionInfo function = launch.function();
		if (function == null) {
			return null;
		}
		int id = launch.functionId();
		if (id < 0 || id >= 1 << 20) {
			return CublasKernels.entry(function);
		}
		if (id >= entries.length) {
			entries = java.util.Arrays.copyOf(entries, Math.max(id + 1, entries.length * 2));
		}
		Entry e = entries[id];
		if (e == null) {
			e = CublasKernels.entry(function);
			entries[id] = e;
		}
		return e;
	}

	/** Turns the decoded extents into absolute ends; false when one is not plausible for the live allocations. */
	private boolean place(LaunchContext launch, Decoded decoded) {
		List<Bound> list = decoded.bounds();
		if (list.isEmpty()) {
			return false;
		}
		if (offsets.length < list.size()) {
			offsets = new int[list.size()];
			pointers = new long[list.size()];
			ends = new long[list.size()];
		}
		for (Bound b : list) {
			long pointer = launch.paramLong(b.offset());
			long id = launch.findAllocation(pointer);
			if (id < 0) {
				return false;
			}
			long start = launch.allocationBase(id);
			long end = start + launch.allocationSize(id);
			if (b.atAllocationStart() && pointer != start) {
				return false;
			}
			if (b.extent() <= 0 || b.extent() > end - pointer) {
				return false;
			}
			offsets[bounds] = b.offset();
			pointers[bounds] = pointer;
			ends[bounds++] = pointer + b.extent();
		}
		return true;
	}

	private void narrow(long id, long allocationBase, long begin, long end, int mode, int param, int offset) {
		if (offset >= 0) {
			for (int i = 0; i < bounds; i++) {
				long pointer = pointers[i];
				if (offsets[i] != offset || Long.compareUnsigned(pointer, begin) < 0
						|| Long.compareUnsigned(pointer, end) >= 0) {
					continue;
				}
				long to = Long.compareUnsigned(ends[i], end) < 0 ? ends[i] : end;
				out.access(id, allocationBase, pointer, to, mode & ~WHOLE_ALLOCATION, param, offset);
				return;
			}
		}
		out.access(id, allocationBase, begin, end, mode, param, offset);
	}
}
