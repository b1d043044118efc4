package org.phos.workbench.internal.speculation.core.ptx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.ptx.AccessRange;
import org.phos.workbench.speculation.core.ptx.LinearBound;
import org.phos.workbench.speculation.core.ptx.PtxFunction;
import org.phos.workbench.speculation.core.ptx.PtxOperand;
import org.phos.workbench.speculation.core.ptx.PtxParam;
import org.phos.workbench.speculation.core.ptx.PtxStatement.Instruction;
import org.phos.workbench.speculation.core.ptx.PtxTypes;

/**
 * Bounds the bytes an access touches relative to its base pointer. The address is decomposed along single
 * definitions into {@code base + sum(coefficient * index) + constant}; each index must be provably non-negative and
 * bounded above by a branch condition that dominates the access ({@code if (i < n)} compiles to
 * {@code setp.ge p, i, n; @p bra exit}) or by the access's own predicate. Anything else is {@link AccessRange#WHOLE}.
 */
final class RangeFinder {

	private static final int MAX_DEPTH = 24;

	private final PtxFunction function;
	private final List<Instruction> instructions;
	private final Map<String, List<Integer>> definitions;
	private final Map<String, Integer> paramIndex;
	private final ControlFlow flow;

	RangeFinder(PtxFunction function, List<Instruction> instructions, Map<String, List<Integer>> definitions,
			Map<String, Integer> paramIndex) {
		this.function = function;
		this.instructions = instructions;
		this.definitions = definitions;
		this.paramIndex = paramIndex;
		this.flow = new ControlFlow(function.body(), instructions);
	}

	/** {@code constant + sum(coefficient * atom)}, atoms being registers; {@code base} counts the base pointer. */
	private static final class Affine {
		long constant;
		final Map<String, Long> terms = new HashMap<>();
		/** The register holding the loaded parameter word, with its coefficient. */
		final Map<String, Long> params = new HashMap<>();

		Affine scale(long k) {
			Affine a = new Affine();
			a.constant = constant * k;
			terms.forEach((r, c) -> a.terms.put(r, c * k));
			params.forEach((r, c) -> a.params.put(r, c * k));
			return a;
		}

		Affine plus(Affine o) {
			Affine a = scale(1);
			a.constant += o.constant;
			o.terms.forEach((r, c) -> a.terms.merge(r, c, Long::sum));
			o.params.forEach((r, c) -> a.params.merge(r, c, Long::sum));
			a.terms.values().removeIf(c -> c == 0);
			a.params.values().removeIf(c -> c == 0);
			return a;
		}

		static Affine constant(long c) {
			Affine a = new Affine();
			a.constant = c;
			return a;
		}

		static Affine atom(String register) {
			Affine a = new Affine();
			a.terms.put(register, 1L);
			return a;
		}
	}

	private @Nullable Instruction singleDefinition(String register) {
		List<Integer> defs = definitions.get(register);
		return defs != null && defs.size() == 1 ? instructions.get(defs.get(0)) : null;
	}

	private @Nullable Integer paramLoaded(Instruction def) {
		if (def.baseOpcode().equals("ld") && def.has(".param") && def.vectorWidth() == 1
				&& def.operands().size() == 2 && def.operands().get(1) instanceof PtxOperand.Address a
				&& a.base() instanceof PtxOperand.Symbol s) {
			return paramIndex.get(s.name());
		}
		return null;
	}

	private Affine decompose(PtxOperand operand, int depth) {
		if (operand instanceof PtxOperand.Immediate imm && imm.integerValue() != null) {
			return Affine.constant(imm.integerValue());
		}
		if (!(operand instanceof PtxOperand.Register r)) {
			return Affine.atom(operand.toPtx());
		}
		String reg = r.name();
		Instruction def = singleDefinition(reg);
		if (def == null || depth > MAX_DEPTH || def.guard() != null) {
			return Affine.atom(reg);
		}
		if (paramLoaded(def) != null) {
			Affine a = new Affine();
			a.params.put(reg, 1L);
			return a;
		}
		List<PtxOperand> ops = def.operands();
		String op = def.baseOpcode();
		switch (op) {
			case "mov", "cvta", "cvt" -> {
				if (ops.size() == 2 && !(op.equals("cvt") && isNarrowing(def))) {
					return decompose(ops.get(1), depth + 1);
				}
			}
			case "add", "sub" -> {
				if (ops.size() == 3 && !def.opcode().contains(".f") && !def.has(".sat")) {
					Affine b = decompose(ops.get(2), depth + 1);
					return decompose(ops.get(1), depth + 1).plus(op.equals("sub") ? b.scale(-1) : b);
				}
			}
			case "shl" -> {
				Long k = FlowAnalysis.immediate(ops.get(2));
				if (k != null && k >= 0 && k < 32) {
					return decompose(ops.get(1), depth + 1).scale(1L << k);
				}
			}
			case "mul" -> {
				if (def.has(".lo") || def.has(".wide")) {
					Long k = FlowAnalysis.immediate(ops.get(2));
					Long k1 = FlowAnalysis.immediate(ops.get(1));
					if (k != null) {
						return decompose(ops.get(1), depth + 1).scale(k);
					}
					if (k1 != null) {
						return decompose(ops.get(2), depth + 1).scale(k1);
					}
				}
			}
			case "mad" -> {
				if (def.has(".lo") || def.has(".wide")) {
					Long k = FlowAnalysis.immediate(ops.get(2));
					if (k != null) {
						return decompose(ops.get(1), depth + 1).scale(k).plus(decompose(ops.get(3), depth + 1));
					}
				}
			}
			default -> {
				// not linear: an atom
			}
		}
		return Affine.atom(reg);
	}

	private static boolean isNarrowing(Instruction cvt) {
		String[] parts = cvt.opcode().split("\\.");
		if (parts.length < 3) {
			return true;
		}
		int to = PtxTypes.sizeOf(parts[parts.length - 2]);
		int from = PtxTypes.sizeOf(parts[parts.length - 1]);
		return to < from || cvt.opcode().contains(".f") || to == 0 || from == 0;
	}

	AccessRange rangeOf(int index, PtxOperand address, long size, Origin origin) {
		if (!(address instanceof PtxOperand.Address a)) {
			return AccessRange.WHOLE;
		}
		Affine expr = decompose(a.base(), 0).plus(Affine.constant(a.offset()));
		// exactly one loaded parameter word with coefficient 1 is the base pointer
		if (expr.params.size() != 1 || expr.params.values().iterator().next() != 1) {
			return AccessRange.WHOLE;
		}
		long low = expr.constant;
		long highConstant = expr.constant + size;
		List<LinearBound.Term> terms = new ArrayList<>();
		for (Map.Entry<String, Long> t : expr.terms.entrySet()) {
			long coefficient = t.getValue();
			if (coefficient <= 0 || !nonNegative(t.getKey(), 0)) {
				return AccessRange.WHOLE;
			}
			LinearBound bound = upperBound(index, t.getKey());
			if (bound == null) {
				return AccessRange.WHOLE;
			}
			// index in [0, bound): bytes up to coefficient * (bound - 1) + size
			highConstant += coefficient * (bound.constant() - 1);
			for (LinearBound.Term term : bound.terms()) {
				terms.add(new LinearBound.Term(term.paramName(), term.paramOffset(), term.size(), term.signed(),
						term.coefficient() * coefficient));
			}
		}
		return new AccessRange.Bounded(low, new LinearBound(highConstant, terms));
	}

	private boolean nonNegative(String reg, int depth) {
		if (reg.startsWith("%tid") || reg.startsWith("%ntid") || reg.startsWith("%ctaid") || reg.startsWith("%nctaid")
				|| reg.startsWith("%laneid") || reg.startsWith("%warpid") || reg.startsWith("%smid")) {
			return true;
		}
		Instruction def = singleDefinition(reg);
		if (def == null || depth > MAX_DEPTH || def.guard() != null) {
			return false;
		}
		String op = def.baseOpcode();
		List<PtxOperand> ops = def.operands();
		if (paramLoaded(def) != null) {
			return def.elementType().startsWith(".u");
		}
		switch (op) {
			case "mov", "cvt", "add", "mul", "mad", "shl", "min", "max" -> {
				if (op.equals("cvt") && isNarrowing(def) || def.opcode().contains(".f")) {
					return false;
				}
				if (op.equals("shl")) {
					return nonNegativeOperand(ops.get(1), depth) && !def.has(".s32") && !def.has(".s64")
							&& def.opcode().contains(".u") || nonNegativeOperand(ops.get(1), depth);
				}
				for (int k = 1; k < ops.size(); k++) {
					if (!nonNegativeOperand(ops.get(k), depth)) {
						return false;
					}
				}
				return true;
			}
			case "and" -> {
				Long k = FlowAnalysis.immediate(ops.get(2));
				return k != null && k >= 0 && k <= Integer.MAX_VALUE || nonNegativeOperand(ops.get(1), depth);
			}
			case "shr", "rem", "div" -> {
				return def.has(".u32") || def.has(".u64") || def.has(".b32") && op.equals("shr")
						|| nonNegativeOperand(ops.get(1), depth) && nonNegativeOperand(ops.get(2), depth);
			}
			default -> {
				return false;
			}
		}
	}

	private boolean nonNegativeOperand(PtxOperand o, int depth) {
		Long k = FlowAnalysis.immediate(o);
		if (k != null) {
			return k >= 0;
		}
		return o instanceof PtxOperand.Register r && nonNegative(r.name(), depth + 1);
	}

	/** An exclusive upper bound on {@code reg} that holds at instruction {@code index}, or null. */
	private @Nullable LinearBound upperBound(int index, String reg) {
		Instruction at = instructions.get(index);
		if (at.guard() != null) {
			LinearBound b = boundFromPredicate(at.guard(), at.guardNegated(), reg);
			if (b != null) {
				return b;
			}
		}
		Instruction def = singleDefinition(reg);
		if (def != null && def.baseOpcode().equals("and") && def.guard() == null) {
			Long mask = FlowAnalysis.immediate(def.operands().get(2));
			if (mask != null && mask >= 0 && mask <= Integer.MAX_VALUE) {
				return LinearBound.of(mask + 1);
			}
		}
		int block = flow.blockOf[index];
		for (int b = 0; b < flow.blockRange.size(); b++) {
			int lastIndex = flow.lastInstruction(b);
			Instruction last = instructions.get(lastIndex);
			if (!last.baseOpcode().equals("bra") || last.guard() == null) {
				continue;
			}
			int fall = flow.fallThrough(b);
			for (int target : flow.successors.get(b)) {
				boolean taken = target != fall;
				if (flow.successors.get(b).size() < 2 || flow.predecessors.get(target).size() != 1
						|| !flow.dominates(target, block)) {
					continue;
				}
				// the branch is taken when the guard holds (or fails, for @!p)
				boolean conditionHolds = taken != last.guardNegated();
				LinearBound bound = boundFromPredicate(last.guard(), !conditionHolds, reg);
				if (bound != null) {
					return bound;
				}
			}
		}
		return null;
	}

	/**
	 * @param predicate a predicate register
	 * @param negated whether the fact is "predicate is false"
	 * @param reg the index register
	 */
	private @Nullable LinearBound boundFromPredicate(String predicate, boolean negated, String reg) {
		Instruction setp = singleDefinition(predicate);
		if (setp == null || !setp.baseOpcode().equals("setp") || setp.operands().size() != 3
				|| setp.guard() != null || setp.opcode().contains(".f")) {
			return null;
		}
		String[] parts = setp.opcode().split("\\.");
		if (parts.length < 3) {
			return null;
		}
		String cmp = parts[1];
		if (negated) {
			cmp = switch (cmp) {
				case "lt" -> "ge";
				case "le" -> "gt";
				case "gt" -> "le";
				case "ge" -> "lt";
				case "lo" -> "hs";
				case "ls" -> "hi";
				case "hi" -> "ls";
				case "hs" -> "lo";
				default -> "";
			};
		}
		PtxOperand a = setp.operands().get(1);
		PtxOperand b = setp.operands().get(2);
		// normalise to "small < big (+ extra)"
		PtxOperand small;
		PtxOperand big;
		long extra;
		switch (cmp) {
			case "lt", "lo" -> {
				small = a;
				big = b;
				extra = 0;
			}
			case "le", "ls" -> {
				small = a;
				big = b;
				extra = 1;
			}
			case "gt", "hi" -> {
				small = b;
				big = a;
				extra = 0;
			}
			case "ge", "hs" -> {
				small = b;
				big = a;
				extra = 1;
			}
			default -> {
				return null;
			}
		}
		Affine compared = decompose(small, 0);
		if (compared.constant != 0 || !compared.params.isEmpty() || !compared.terms.equals(Map.of(reg, 1L))) {
			return null;
		}
		return boundOf(big, extra);
	}

	private @Nullable LinearBound boundOf(PtxOperand operand, long extra) {
		Affine a = decompose(operand, 0);
		if (!a.terms.isEmpty()) {
			return null;
		}
		List<LinearBound.Term> terms = new ArrayList<>();
		for (Map.Entry<String, Long> p : a.params.entrySet()) {
			Instruction def = singleDefinition(p.getKey());
			if (def == null) {
				return null;
			}
			PtxOperand.Address address = (PtxOperand.Address) def.operands().get(1);
			PtxParam param = function.params().get(paramIndex.get(((PtxOperand.Symbol) address.base()).name()));
			int size = Math.max(1, PtxTypes.sizeOf(def.elementType()));
			terms.add(new LinearBound.Term(param.name(), param.offset() + address.offset(), size,
					def.elementType().startsWith(".s"), p.getValue()));
		}
		return new LinearBound(a.constant + extra, terms);
	}

	/** Union of ranges: the hull when comparable, else whole. */
	static AccessRange merge(List<AccessRange> ranges) {
		AccessRange result = AccessRange.NONE;
		for (AccessRange r : ranges) {
			if (r instanceof AccessRange.Whole) {
				return AccessRange.WHOLE;
			}
			AccessRange.Bounded b = (AccessRange.Bounded) r;
			if (result instanceof AccessRange.Bounded acc) {
				if (!acc.high().terms().equals(b.high().terms())) {
					return AccessRange.WHOLE;
				}
				result = new AccessRange.Bounded(Math.min(acc.low(), b.low()), new LinearBound(
						Math.max(acc.high().constant(), b.high().constant()), acc.high().terms()));
			} else {
				result = b;
			}
		}
		return result;
	}
}
