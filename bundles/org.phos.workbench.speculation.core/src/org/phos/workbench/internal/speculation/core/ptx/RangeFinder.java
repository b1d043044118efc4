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
			case "or" -> { // i15-prec: Triton's offsets (pid << 10 | (tid << 2) & 508, then | 512): disjoint bits add
				if (ops.size() == 3 && (possibleBits(ops.get(1), 0) & possibleBits(ops.get(2), 0)) == 0) {
					return decompose(ops.get(1), depth + 1).plus(decompose(ops.get(2), depth + 1));
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

	/** The bits a value may have set (-1: any), from masks, shifts and disjoint ors; registers of one definition. */
	private long possibleBits(PtxOperand operand, int depth) {
		Long k = FlowAnalysis.immediate(operand);
		if (k != null) {
			return k;
		}
		if (!(operand instanceof PtxOperand.Register r) || depth > MAX_DEPTH) {
			return -1;
		}
		Instruction def = singleDefinition(r.name());
		if (def == null || def.guard() != null || paramLoaded(def) != null) {
			return -1;
		}
		List<PtxOperand> ops = def.operands();
		switch (def.baseOpcode()) {
			case "and" -> {
				return ops.size() == 3 ? possibleBits(ops.get(1), depth + 1) & possibleBits(ops.get(2), depth + 1) : -1;
			}
			case "or" -> {
				return ops.size() == 3 ? possibleBits(ops.get(1), depth + 1) | possibleBits(ops.get(2), depth + 1) : -1;
			}
			case "shl" -> {
				Long shift = ops.size() == 3 ? FlowAnalysis.immediate(ops.get(2)) : null;
				if (shift == null || shift < 0 || shift >= 32) {
					return -1;
				}
				long bits = possibleBits(ops.get(1), depth + 1);
				long width = def.has(".b32") || def.has(".u32") || def.has(".s32") ? 0xffff_ffffL : -1L;
				return bits == -1 ? ~((1L << shift) - 1) & width : (bits << shift) & width;
			}
			case "mov" -> {
				return ops.size() == 2 ? possibleBits(ops.get(1), depth + 1) : -1;
			}
			default -> {
				return -1;
			}
		}
	}

	/**
	 * i15-prec: the access's own guard ({@code @p st [base + c * S + k]} with {@code p = S < n}, Triton's masked
	 * loads and stores): when the address's index terms are {@code c} times those of the compared value {@code S}
	 * and all are non-negative, the offset runs over {@code [k, c * (n - 1 - s0) + k + size)}, {@code s0} being
	 * {@code S}'s constant.
	 */
	private @Nullable AccessRange guardedRange(int index, Affine expr, List<LinearBound.Term> offsets, long size) {
		Instruction at = instructions.get(index);
		if (at.guard() == null || at.guardNegated() || expr.terms.isEmpty()) {
			return null;
		}
		Instruction setp = singleDefinition(at.guard());
		if (setp == null || !setp.baseOpcode().equals("setp") || setp.operands().size() != 3 || setp.guard() != null
				|| setp.opcode().contains(".f")) {
			return null;
		}
		String[] parts = setp.opcode().split("\\.");
		if (parts.length < 3) {
			return null;
		}
		PtxOperand small;
		PtxOperand big;
		long extra;
		switch (parts[1]) {
			case "lt", "lo" -> {
				small = setp.operands().get(1);
				big = setp.operands().get(2);
				extra = 0;
			}
			case "le", "ls" -> {
				small = setp.operands().get(1);
				big = setp.operands().get(2);
				extra = 1;
			}
			case "gt", "hi" -> {
				small = setp.operands().get(2);
				big = setp.operands().get(1);
				extra = 0;
			}
			case "ge", "hs" -> {
				small = setp.operands().get(2);
				big = setp.operands().get(1);
				extra = 1;
			}
			default -> {
				return null;
			}
		}
		Affine compared = decompose(small, 0);
		if (!compared.params.isEmpty() || !compared.terms.keySet().equals(expr.terms.keySet())) {
			return null;
		}
		long c = 0;
		for (Map.Entry<String, Long> t : expr.terms.entrySet()) {
			List<Integer> defs = definitions.get(t.getKey());
			if (defs != null && defs.size() > 1) { // a loop variable: its value at the setp may not be the access's
				return null;
			}
			long inCompare = compared.terms.get(t.getKey());
			if (inCompare <= 0 || t.getValue() <= 0 || t.getValue() % inCompare != 0) {
				return null;
			}
			long ratio = t.getValue() / inCompare;
			if (c != 0 && ratio != c || !nonNegative(t.getKey(), 0)) {
				return null;
			}
			c = ratio;
		}
		LinearBound bound = boundOf(big, extra);
		if (bound == null) {
			return null;
		}
		List<LinearBound.Term> terms = new ArrayList<>(offsets);
		for (LinearBound.Term term : bound.terms()) {
			terms.add(new LinearBound.Term(term.paramName(), term.paramOffset(), term.size(), term.signed(),
					term.coefficient() * c));
		}
		long high = c * (bound.constant() - 1 - compared.constant) + expr.constant + size;
		return new AccessRange.Bounded(new LinearBound(expr.constant, offsets), new LinearBound(high, terms));
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
		// the base pointer: the origin's parameter word with coefficient 1 (else the only parameter, coefficient 1)
		String base = registerOf(expr, origin);
		if (base == null && expr.params.size() == 1) {
			base = expr.params.keySet().iterator().next();
		}
		if (base == null || expr.params.get(base) != 1) {
			return AccessRange.WHOLE;
		}
		// i15-prec: other parameter words are scalar offsets (base[off + i]): in both ends of the range
		List<LinearBound.Term> offsets = new ArrayList<>();
		for (Map.Entry<String, Long> p : expr.params.entrySet()) {
			if (p.getKey().equals(base)) {
				continue;
			}
			LinearBound.Term term = scalarTerm(p.getKey(), p.getValue());
			if (term == null) {
				return AccessRange.WHOLE;
			}
			offsets.add(term);
		}
		AccessRange guarded = guardedRange(index, expr, offsets, size);
		if (guarded != null) {
			return guarded;
		}
		long low = expr.constant;
		long highConstant = expr.constant + size;
		List<LinearBound.Term> terms = new ArrayList<>(offsets);
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
		return new AccessRange.Bounded(new LinearBound(low, offsets), new LinearBound(highConstant, terms));
	}

	/** The register among the affine's parameter loads that loads the origin's parameter word, or null. */
	private @Nullable String registerOf(Affine expr, Origin origin) {
		String found = null;
		for (String reg : expr.params.keySet()) {
			Instruction def = singleDefinition(reg);
			Integer param = def == null ? null : paramLoaded(def);
			if (param != null && param == origin.param() && def.operands().get(1) instanceof PtxOperand.Address at
					&& Math.floorDiv(at.offset(), 8) * 8 == origin.word()) {
				if (found != null) {
					return null;
				}
				found = reg;
			}
		}
		return found;
	}

	/** A by-value parameter loaded into {@code reg}, as a term with its coefficient, or null. */
	private LinearBound.@Nullable Term scalarTerm(String reg, long coefficient) {
		Instruction def = singleDefinition(reg);
		if (def == null || !(def.operands().get(1) instanceof PtxOperand.Address address)
				|| !(address.base() instanceof PtxOperand.Symbol symbol)) {
			return null;
		}
		Integer index = paramIndex.get(symbol.name());
		int size = PtxTypes.sizeOf(def.elementType());
		if (index == null || size < 1 || size > 8 || def.elementType().startsWith(".f")) {
			return null;
		}
		PtxParam param = function.params().get(index);
		return new LinearBound.Term(param.name(), param.offset() + address.offset(), size,
				def.elementType().startsWith(".s"), coefficient);
	}

	/**
	 * Of an address's parameter origins, the one that is its base pointer: the only 8-byte parameter load with
	 * coefficient 1 when every other origin is a scalar parameter added to it ({@code base + 4 * (off + i)}).
	 *
	 * @return the base's origin, or null when there is no single one
	 */
	@Nullable Origin baseOrigin(PtxOperand address, java.util.Set<Origin> origins) {
		if (!(address instanceof PtxOperand.Address a)) {
			return null;
		}
		Affine expr = decompose(a.base(), 0);
		Origin found = null;
		for (Origin o : origins) {
			if (o.kind() != Origin.Kind.DIRECT) {
				return null;
			}
			String reg = registerOf(expr, o);
			if (reg == null) {
				return null;
			}
			Instruction def = singleDefinition(reg);
			if (expr.params.get(reg) == 1 && def != null && PtxTypes.sizeOf(def.elementType()) == 8) {
				if (found != null) {
					return null;
				}
				found = o;
			} else if (scalarTerm(reg, expr.params.get(reg)) == null) {
				return null;
			}
		}
		return found;
	}

	private boolean nonNegative(String reg, int depth) {
		if (reg.startsWith("%tid") || reg.startsWith("%ntid") || reg.startsWith("%ctaid") || reg.startsWith("%nctaid")
				|| reg.startsWith("%laneid") || reg.startsWith("%warpid") || reg.startsWith("%smid")) {
			return true;
		}
		List<Integer> defs = definitions.get(reg);
		if (defs != null && defs.size() > 1 && depth <= MAX_DEPTH) {
			// i15-prec: a loop variable (i = start; i += stride): non-negative when every definition is, assuming
			// the variable itself is (induction over the definitions' order; overflow is not considered)
			if (!assumedNonNegative.add(reg)) {
				return true;
			}
			try {
				for (int d : defs) {
					if (instructions.get(d).guard() != null || !nonNegativeDefinition(instructions.get(d), depth)) {
						return false;
					}
				}
				return true;
			} finally {
				assumedNonNegative.remove(reg);
			}
		}
		Instruction def = singleDefinition(reg);
		if (def == null || depth > MAX_DEPTH || def.guard() != null) {
			return false;
		}
		return nonNegativeDefinition(def, depth);
	}

	/** Registers assumed non-negative while their definitions are checked (loop variables). */
	private final java.util.Set<String> assumedNonNegative = new java.util.HashSet<>();

	private boolean nonNegativeDefinition(Instruction def, int depth) {
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
		List<Integer> defs = definitions.get(reg);
		if (defs != null && defs.size() > 1) {
			return loopBound(index, reg);
		}
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
	 * i15-prec: an exclusive upper bound on a register with several definitions (a grid-stride loop's index) at
	 * instruction {@code index}: no definition of it precedes the access in its block, and every edge into the block
	 * carries the same bound, either as the condition of the branch ending the predecessor (evaluated after that
	 * predecessor's last definition of the register: the loop's back edge {@code i += s; if (i < n) goto body}) or,
	 * for a predecessor that falls through without defining it, as what holds on every edge into that one (the
	 * pre-check {@code if (i >= n) goto exit}).
	 */
	private @Nullable LinearBound loopBound(int index, String reg) {
		int block = flow.blockOf[index];
		if (definedIn(block, reg, flow.blockRange.get(block)[0], index)) {
			return null;
		}
		return entryBound(block, reg, new java.util.HashSet<>());
	}

	private boolean definedIn(int block, String reg, int from, int to) {
		List<Integer> defs = definitions.get(reg);
		for (int d : defs) {
			if (d >= from && d < to && flow.blockOf[d] == block) {
				return true;
			}
		}
		return false;
	}

	private @Nullable LinearBound entryBound(int block, String reg, java.util.Set<Integer> visiting) {
		if (!visiting.add(block) || flow.predecessors.get(block).isEmpty()) {
			return null;
		}
		LinearBound common = null;
		for (int p : flow.predecessors.get(block)) {
			LinearBound b = edgeBound(p, block, reg, visiting);
			if (b == null || common != null && !common.equals(b)) {
				return null;
			}
			common = b;
		}
		return common;
	}

	private @Nullable LinearBound edgeBound(int from, int to, String reg, java.util.Set<Integer> visiting) {
		int[] range = flow.blockRange.get(from);
		int lastIndex = flow.lastInstruction(from);
		Instruction last = instructions.get(lastIndex);
		if (last.baseOpcode().equals("bra") && last.guard() != null && flow.successors.get(from).size() == 2) {
			Instruction setp = singleDefinition(last.guard());
			List<Integer> setpDefs = definitions.get(last.guard());
			if (setp == null || setpDefs == null) {
				return null;
			}
			int setpIndex = setpDefs.get(0);
			// the comparison must see the register's last value in this block: set after its last definition here
			if (flow.blockOf[setpIndex] != from || definedIn(from, reg, setpIndex, lastIndex + 1)) {
				return null;
			}
			boolean taken = to != flow.fallThrough(from);
			boolean conditionHolds = taken != last.guardNegated();
			LinearBound b = boundFromPredicate(last.guard(), !conditionHolds, reg);
			if (b != null || definedIn(from, reg, range[0], lastIndex + 1)) {
				return b;
			}
			return entryBound(from, reg, visiting);
		}
		if (last.baseOpcode().equals("bra") && last.guard() != null || definedIn(from, reg, range[0], range[1])) {
			return null;
		}
		return entryBound(from, reg, visiting);
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
				if (!acc.high().terms().equals(b.high().terms())
						|| !acc.lowBound().terms().equals(b.lowBound().terms())) {
					return AccessRange.WHOLE;
				}
				result = new AccessRange.Bounded(
						new LinearBound(Math.min(acc.low(), b.low()), acc.lowBound().terms()), new LinearBound(
								Math.max(acc.high().constant(), b.high().constant()), acc.high().terms()));
			} else {
				result = b;
			}
		}
		return result;
	}
}
