package org.phos.workbench.speculation.core.instrument;

import org.phos.workbench.internal.speculation.core.instrument.PtxRewriter;
import org.phos.workbench.speculation.core.ptx.PtxModule;
import org.phos.workbench.speculation.core.ptx.PtxParseException;
import org.phos.workbench.speculation.core.ptx.PtxParser;

/**
 * Rewrites PTX so that every global memory access of every function records itself into the module's access table
 * ({@link AccessTableLayout}). Before each access (after its label, so branches to it are covered) the rewriter
 * inserts a call to the record routine with the access's address, size and kind, guarded by the access's own
 * predicate ({@code @p}/{@code @!p}); the parameter layout of every kernel is unchanged, so recorded launches replay
 * with their recorded parameter bytes. Which forms are recorded, and which are reported as untracked, is listed in
 * the {@code AccessClassifier} of the implementation; in short: {@code ld}/{@code ldu}/{@code st}/{@code atom}/
 * {@code red} in {@code .global} or generic space (vectors and {@code .b128} included), {@code cp.async} (4/8/16 B),
 * {@code cp.async.bulk} and {@code cp.reduce.async.bulk} on their global side.
 * <p>
 * Costs and hazards: each kernel gains two registers and an ABI call per access (ptxas may spill under
 * {@code .maxnreg}); calls inside {@code wgmma} regions serialise the warpgroup MMA; every recorded access does up to
 * three global atomics on a few shared words, so heavily parallel kernels slow down by large factors (the replay
 * measures it). Results are exact for the set of allocations touched and their counts, and over-approximate the byte
 * ranges (min to max per allocation).
 */
public final class PtxInstrumenter {

	private PtxInstrumenter() {
	}

	/**
	 * @param module a parsed 64-bit module
	 * @param layout the table layout to compile in
	 * @return the instrumented module
	 * @throws PtxParseException when the module cannot be instrumented (32-bit addressing, names that clash with the
	 *         instrumentation's own)
	 */
	public static InstrumentedModule instrument(PtxModule module, AccessTableLayout layout) throws PtxParseException {
		return new PtxRewriter(module, layout).rewrite();
	}

	/**
	 * Parses and instruments PTX text.
	 *
	 * @param source a name for messages
	 * @param ptx the PTX text
	 * @param layout the table layout
	 * @return the instrumented module
	 * @throws PtxParseException when the text is not PTX the parser understands or cannot be instrumented
	 */
	public static InstrumentedModule instrument(String source, String ptx, AccessTableLayout layout)
			throws PtxParseException {
		return instrument(PtxParser.parse(source, ptx), layout);
	}
}
