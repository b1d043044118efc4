package org.phos.workbench.internal.speculation.core.engines;

import static org.phos.workbench.speculation.core.SpeculatedAccess.READ;
import static org.phos.workbench.speculation.core.SpeculatedAccess.READ_WRITE;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.demangle.DemangledName;
import org.phos.workbench.speculation.core.demangle.ItaniumDemangler;
import org.phos.workbench.speculation.core.demangle.KernelSignature;
import org.phos.workbench.speculation.core.demangle.ParameterType;
import org.phos.workbench.speculation.core.ptx.KernelAccessSummary;
import org.phos.workbench.speculation.core.ptx.ParamWordAccess;
import org.phos.workbench.speculation.core.ptx.PtxFlowAnalyzer;
import org.phos.workbench.speculation.core.ptx.PtxFunction;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * The direction {@code +indirect} gives the allocations it finds through stored pointers (i15-val, issue #15): read
 * unless evidence says the kernel may write through pointers loaded from the root allocation. Before, every such
 * allocation was read-write, so a pointer table of inputs (a gather, cuBLAS's batched {@code A[]}, CuPy's row
 * tables) cost write precision and direction accuracy. The evidence, best first:
 * <ol>
 * <li><b>The kernel's PTX</b> ({@link PtxFlowAnalyzer}): for the parameter word through which the root was found,
 * whether any store or atomic goes through a pointer loaded from what it points to, at any depth
 * ({@link ParamWordAccess#indirectWritten()}); a word the analysis could not follow ({@code unknown}: textures,
 * calls) is read-write. A root not found through a parameter word of the PTX (an {@code arg-scan} match inside a
 * struct the PTX sees as a whole, or a table found in a table) takes the union over the kernel's words.</li>
 * <li><b>Its signature</b> (demangled C++): a root passed as {@code T const**} (pointer to pointers to const) can
 * only be read through; any other pointer, or a by-value struct holding the root, may be written through.</li>
 * <li><b>Nothing</b> ({@code extern "C"} kernels without PTX: Triton, cuBLAS, cuDNN): read-write. No evidence says
 * the kernel does not write, and a missed write makes a concurrent checkpoint inconsistent, so safety wins over
 * precision here.</li>
 * </ol>
 * Computed once per function, at the first launch that reaches a pointer table.
 */
final class IndirectDirections {

	/** One function's evidence. */
	private record Plan(Map<Integer, Integer> modeByWord, int anyWordMode, @Nullable KernelSignature signature,
			boolean fromPtx) {
	}

	private static final Plan NONE = new Plan(Map.of(), READ_WRITE, null, false);

	private final Trace trace;
	private final PtxSource source;
	private final PerFunction<Plan> plans;

	IndirectDirections(Trace trace) {
		this.trace = trace;
		this.source = new PtxSource(trace, new ArrayList<>()); // notes are ptx-flow's to give
		this.plans = new PerFunction<>(this::plan);
	}

	/**
	 * @param functionId the launched function
	 * @param param the parameter the root pointer came from, -1 when not from a parameter
	 * @param offset the byte offset of the root pointer in the parameter buffer, -1 when not from a parameter
	 * @return {@code READ} or {@code READ_WRITE} for the allocations found through the root
	 */
	int mode(int functionId, int param, int offset) {
		Plan p = plans.get(functionId);
		if (p.fromPtx()) {
			Integer m = offset < 0 ? null : p.modeByWord().get(offset & ~7);
			return m != null ? m : p.anyWordMode();
		}
		KernelSignature s = p.signature();
		if (s != null && param >= 0 && param < s.size()) {
			ParameterType t = s.parameter(param);
			return readOnlyThrough(t) ? READ : READ_WRITE;
		}
		return READ_WRITE;
	}

	/** A pointer to pointers to const data ({@code float const**}, {@code float const* const*}): read through. */
	static boolean readOnlyThrough(@Nullable ParameterType t) {
		if (t == null || !t.isDataPointer() || t.pointerDepth() != 2 || t.reference()) {
			return false;
		}
		String text = t.text();
		int star = text.indexOf('*');
		return star > 0 && text.substring(0, star).matches("(?s).*\\bconst\\b.*");
	}

	private Plan plan(int functionId) {
		FunctionInfo f = trace.functionById(functionId);
		if (f == null) {
			return NONE;
		}
		PtxFunction kernel = source.kernel(f.moduleId(), f.mangledName());
		if (kernel != null) {
			try {
				KernelAccessSummary summary = PtxFlowAnalyzer.analyze(kernel);
				Map<Integer, Integer> byWord = new HashMap<>();
				int any = READ;
				for (ParamWordAccess w : summary.words()) {
					int m = w.indirectWritten() || w.unknown() ? READ_WRITE : READ;
					byWord.put((int) w.offset() & ~7, m);
					any |= m;
				}
				return new Plan(Map.copyOf(byWord), any, null, true);
			} catch (RuntimeException e) {
				// an analysis failure is ptx-flow's note to give; fall back to the signature
			}
		}
		DemangledName name = ItaniumDemangler.demangle(f.mangledName());
		KernelSignature s = name.signature();
		if (s != null && s.size() != f.params().size()) {
			s = null; // the layout disagrees: type nothing, as phos does
		}
		return new Plan(Map.of(), READ_WRITE, s, false);
	}

}
