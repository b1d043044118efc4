package org.phos.workbench.live;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.speculation.core.ptx.PtxFunction;

/**
 * How a live replay runs one recorded launch: its own code ({@link #ptx} set: the module's PTX compiles on this
 * device) or a surrogate ({@link SurrogateKernels}) that spins for {@link #durationNs} and writes {@link #writes}.
 *
 * @param eventIndex the launch's trace event
 * @param moduleId the launch's module, or -1 when its function is unknown
 * @param ptx the PTX function to run, or null for a surrogate
 * @param durationNs a surrogate's GPU time (recorded duration, else the function's mean; 0 when unknown)
 * @param writes a surrogate's write ranges: the observed writes, else the speculated ones
 * @param writesSource where {@link #writes} came from: "observed", "speculated" (or "" for real code)
 * @param reason why the launch is a surrogate, in words (or "" for real code)
 */
public record LaunchPlan(long eventIndex, int moduleId, @Nullable PtxFunction ptx, long durationNs,
		List<BufferRange> writes, String writesSource, String reason) {

	public LaunchPlan {
		writes = List.copyOf(writes);
	}

	/** Whether the launch runs as a surrogate. */
	public boolean surrogate() {
		return ptx == null;
	}
}
