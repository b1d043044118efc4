package org.phos.workbench.speculation.core.ptx;

import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.internal.speculation.core.ptx.FlowAnalysis;

/**
 * The {@code ptx-flow} analysis: traces every kernel parameter from {@code ld.param} through address arithmetic
 * ({@code mov}, {@code cvta}, {@code add}, {@code mad}, {@code shl}, {@code cvt}...) to global and generic memory
 * instructions, and bounds the accessed bytes where a dominating guard such as {@code if (i < n)} allows it.
 * Registers are tracked flow-insensitively (every definition of a register contributes), which over-approximates
 * and never drops a possible write. Assumes 32-bit index arithmetic does not wrap.
 */
public final class PtxFlowAnalyzer {

	private PtxFlowAnalyzer() {
	}

	/**
	 * @param kernel a function of a parsed module (kernels and device functions alike)
	 * @return its parameter words' verdicts
	 */
	public static KernelAccessSummary analyze(PtxFunction kernel) {
		return new FlowAnalysis(kernel).run();
	}

	/**
	 * @param module a parsed module
	 * @return one summary per kernel ({@code .entry}), in file order
	 */
	public static List<KernelAccessSummary> analyze(PtxModule module) {
		List<KernelAccessSummary> result = new ArrayList<>();
		for (PtxFunction f : module.entries()) {
			result.add(analyze(f));
		}
		return result;
	}
}
