package org.phos.workbench.internal.speculation.core.ptx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.speculation.core.ptx.Origin.Kind;
import org.phos.workbench.speculation.core.ptx.AccessRange;
import org.phos.workbench.speculation.core.ptx.KernelAccessSummary;
import org.phos.workbench.speculation.core.ptx.ParamWordAccess;
import org.phos.workbench.speculation.core.ptx.PtxFunction;
import org.phos.workbench.speculation.core.ptx.PtxOperand;
import org.phos.workbench.speculation.core.ptx.PtxParam;
import org.phos.workbench.speculation.core.ptx.PtxStatement.Instruction;
import org.phos.workbench.speculation.core.ptx.PtxTypes;

/**
 * Flow-insensitive origin analysis of one function: iterates to a fixpoint the set of {@link Origin}s of every
 * register, then classifies each memory instruction by the origins of its address. Values stored to memory are
 * remembered, so a pointer spilled to local memory or written to global memory and loaded back keeps its origin.
 */
public final class FlowAnalysis {

	private static final Set<String> NO_DESTINATION = Set.of("st", "red", "bar", "barrier", "bra", "brx", "ret",
			"exit", "call", "membar", "fence", "trap", "sust", "sured", "prefetch", "prefetchu", "discard", "cp",
			"mbarrier", "wgmma", "tcgen05", "setmaxnreg", "griddepcontrol", "elect", "pmevent", "nanosleep");

	private final PtxFunction function;
	private final List<Instruction> instructions;
	private final Map<String, Integer> paramIndex = new HashMap<>();
	private final Map<String, Set<Origin>> values = new HashMap<>();
	private final Map<String, List<Integer>> definitions = new HashMap<>();
	/** Origins of values written to local/shared memory (spills), reloaded by any local/shared load. */
	private final Set<Origin> spilled = new LinkedHashSet<>();
	/** Origins of values written to global/generic memory, reloaded by any global/generic load. */
	private final Set<Origin> storedGlobally = new LinkedHashSet<>();
	/** Origins passed to called functions through st.param. */
	private final Set<Origin> passedToCalls = new LinkedHashSet<>();
	private final Map<Long, WordState> words = new HashMap<>();

	/** @param function the function to analyse */
	public FlowAnalysis(PtxFunction function) {
		this.function = function;
		this.instructions = function.instructions();
		for (int i = 0; i < function.params().size(); i++) {
			paramIndex.put(function.params().get(i).name(), i);
		}
		for (int i = 0; i < instructions.size(); i++) {
			for (String d : destinations(instructions.get(i))) {
				definitions.computeIfAbsent(d, k -> new ArrayList<>()).add(i);
			}
		}
	}

	/** @return the per-word verdicts */
	public KernelAccessSummary run() {
		boolean changed = true;
		int rounds = 0;
		while (changed && rounds++ < 1000) {
			changed = false;
			for (Instruction ins : instructions) {
				changed |= transfer(ins);
			}
		}
		RangeFinder ranges = new RangeFinder(function, instructions, definitions, paramIndex);
		for (int i = 0; i < instructions.size(); i++) {
			classify(i, instructions.get(i), ranges);
		}
		for (Origin o : passedToCalls) {
			forEachWord(o, w -> {
				w.unknown = true;
				w.note("passed to a called function");
			});
		}
		return summary();
	}

	// ------------------------------------------------------------------ transfer functions

	static List<String> destinations(Instruction ins) {
		String op = ins.baseOpcode();
		if (NO_DESTINATION.contains(op) || ins.operands().isEmpty() || op.startsWith("cp")) {
			return List.of();
		}
		if (op.equals("atom") || op.equals("ld") || op.equals("ldu") || op.equals("tex") || op.equals("suld")
				|| op.equals("tld4") || !ins.operands().isEmpty()) {
			return registersIn(ins.operands().get(0));
		}
		return List.of();
	}

	private static List<String> registersIn(PtxOperand operand) {
		List<String> out = new ArrayList<>();
		if (operand instanceof PtxOperand.Register r) {
			for (String part : r.name().replace("!", "").split("\\|")) {
				if (!part.equals("_")) {
					out.add(part);
				}
			}
		} else if (operand instanceof PtxOperand.Symbol s) {
			out.add(s.name());
		} else if (operand instanceof PtxOperand.Group g) {
			for (PtxOperand e : g.elements()) {
				out.addAll(registersIn(e));
			}
		}
		return out;
	}

	private Set<Origin> originsOf(PtxOperand operand) {
		Set<Origin> out = new LinkedHashSet<>();
		switch (operand) {
			case PtxOperand.Register r -> {
				for (String name : registersIn(r)) {
					out.addAll(values.getOrDefault(name, Set.of()));
				}
			}
			case PtxOperand.Symbol s -> {
				String name = s.name().contains("+") ? s.name().substring(0, s.name().indexOf('+')) : s.name();
				Integer p = paramIndex.get(name);
				if (p != null) {
					out.add(new Origin(p, -1, Kind.PARAM_ADDRESS));
				} else {
					out.addAll(values.getOrDefault(name, Set.of()));
				}
			}
			case PtxOperand.Address a -> {
				out.addAll(originsOf(a.base()));
				for (PtxOperand e : a.extra()) {
					out.addAll(originsOf(e));
				}
			}
			case PtxOperand.Group g -> g.elements().forEach(e -> out.addAll(originsOf(e)));
			case PtxOperand.Immediate i -> {
				// no origin
			}
		}
		return out;
	}

	private boolean assign(String register, Set<Origin> origins) {
		if (origins.isEmpty()) {
			return false;
		}
		return values.computeIfAbsent(register, k -> new LinkedHashSet<>()).addAll(origins);
	}

	private boolean transfer(Instruction ins) {
		String op = ins.baseOpcode();
		List<PtxOperand> ops = ins.operands();
		if (ops.isEmpty()) {
			return false;
		}
		Space space = Space.of(ins);
		boolean changed = false;
		switch (op) {
			case "ld", "ldu" -> {
				PtxOperand address = ops.size() > 1 ? ops.get(1) : ops.get(0);
				List<String> dests = registersIn(ops.get(0));
				if (address instanceof PtxOperand.Address a && a.base() instanceof PtxOperand.Symbol s
						&& paramIndex.containsKey(s.name())) {
					int p = paramIndex.get(s.name());
					int element = Math.max(1, PtxTypes.sizeOf(ins.elementType()));
					for (int k = 0; k < dests.size(); k++) {
						long at = a.offset() + (long) k * element;
						changed |= assign(dests.get(k), Set.of(new Origin(p, Math.floorDiv(at, 8) * 8, Kind.DIRECT)));
					}
					return changed;
				}
				Set<Origin> loaded = new LinkedHashSet<>();
				for (Origin o : originsOf(address)) {
					if (o.kind() == Kind.PARAM_ADDRESS) {
						PtxParam param = function.params().get(o.param());
						for (long w = 0; w < param.size(); w += 8) {
							loaded.add(new Origin(o.param(), w, Kind.DIRECT));
						}
					} else {
						loaded.add(o.loaded());
					}
				}
				if (space == Space.LOCAL || space == Space.SHARED || space == Space.GENERIC) {
					loaded.addAll(spilled);
				}
				if (space == Space.GLOBAL || space == Space.GENERIC) {
					loaded.addAll(storedGlobally);
				}
				if (space == Space.PARAM) {
					loaded.addAll(passedToCalls);
				}
				for (String d : dests) {
					changed |= assign(d, loaded);
				}
			}
			case "st", "red", "st.async" -> {
				Set<Origin> stored = new LinkedHashSet<>();
				for (int k = 1; k < ops.size(); k++) {
					stored.addAll(originsOf(ops.get(k)));
				}
				if (canHoldAddress(ins) || space == Space.PARAM) {
					changed |= remember(space, stored);
				}
			}
			case "atom" -> {
				Set<Origin> stored = new LinkedHashSet<>();
				for (int k = 2; k < ops.size(); k++) {
					stored.addAll(originsOf(ops.get(k)));
				}
				if (canHoldAddress(ins)) {
					changed |= remember(space, stored);
				}
				Set<Origin> loaded = new LinkedHashSet<>();
				originsOf(ops.get(1)).forEach(o -> loaded.add(o.loaded()));
				loaded.addAll(storedGlobally);
				for (String d : registersIn(ops.get(0))) {
					changed |= assign(d, loaded);
				}
			}
			default -> {
				List<String> dests = destinations(ins);
				if (dests.isEmpty()) {
					return false;
				}
				Set<Origin> sources = new LinkedHashSet<>();
				for (int k = firstAddressCarryingOperand(ins); k < ops.size(); k++) {
					sources.addAll(originsOf(ops.get(k)));
				}
				for (String d : dests) {
					changed |= assign(d, sources);
				}
			}
		}
		return changed;
	}

	/**
	 * Operands before the returned index cannot carry an address into the result: a product, shift or quotient of a
	 * pointer is no pointer into its allocation ({@code mad}'s addend, operand 3, still can). Returns the operand count
	 * when none can.
	 */
	private static int firstAddressCarryingOperand(Instruction ins) {
		return switch (ins.baseOpcode()) {
			case "mul", "mul24", "shl", "shr", "div", "rem", "setp", "set", "popc", "clz", "bfind", "brev", "cnot",
					"isspacep", "vote", "activemask" -> ins.operands().size();
			case "mad", "mad24" -> 3;
			default -> 1;
		};
	}

	/** Only values wide enough to hold a 64-bit address are remembered as stored pointers. */
	private static boolean canHoldAddress(Instruction ins) {
		int element = PtxTypes.sizeOf(ins.elementType());
		return element == 0 || element >= 8 || element * ins.vectorWidth() >= 8;
	}

	private boolean remember(Space space, Set<Origin> stored) {
		return switch (space) {
			case LOCAL, SHARED -> spilled.addAll(stored);
			case PARAM -> passedToCalls.addAll(stored);
			case GENERIC -> spilled.addAll(stored) | storedGlobally.addAll(stored);
			default -> storedGlobally.addAll(stored);
		};
	}

	// ------------------------------------------------------------------ classification of memory instructions

	private void classify(int index, Instruction ins, RangeFinder ranges) {
		String op = ins.baseOpcode();
		String opcode = ins.opcode();
		List<PtxOperand> ops = ins.operands();
		Space space = Space.of(ins);
		int typeSize = Math.max(1, PtxTypes.sizeOf(ins.elementType()));
		int size = typeSize * ins.vectorWidth();
		if (ops.isEmpty()) {
			return;
		}
		switch (op) {
			case "ld", "ldu" -> {
				if (space.isGlobalOrGeneric() && ops.size() > 1) {
					access(index, ops.get(1), size, true, false, false, ranges);
				}
			}
			case "st" -> {
				if (space.isGlobalOrGeneric()) {
					access(index, ops.get(0), size, false, true, false, ranges);
				}
			}
			case "atom", "red" -> {
				if (space.isGlobalOrGeneric()) {
					access(index, ops.get(op.equals("atom") ? 1 : 0), size, true, true, true, ranges);
				}
			}
			case "tex", "tld4", "suld", "sust", "sured", "txq", "suq" -> {
				boolean write = op.equals("sust") || op.equals("sured");
				for (int k = op.startsWith("su") && write ? 0 : 1; k < ops.size(); k++) {
					unknownAccess(ops.get(k), !write, write, opcode);
				}
			}
			case "discard" -> access(index, ops.get(0), 128, false, true, false, ranges);
			default -> {
				if (opcode.startsWith("cp.")) {
					classifyCopy(index, ins, ranges);
				} else if (opcode.startsWith("st.async") || opcode.startsWith("red.async")) {
					access(index, ops.get(0), size, opcode.startsWith("red"), true, opcode.startsWith("red"),
							ranges);
				}
			}
		}
	}

	private void classifyCopy(int index, Instruction ins, RangeFinder ranges) {
		String opcode = ins.opcode();
		List<PtxOperand> ops = ins.operands();
		if (opcode.startsWith("cp.async.bulk.tensor") || opcode.startsWith("cp.reduce.async.bulk.tensor")) {
			boolean toGlobal = opcode.contains(".global.shared");
			for (PtxOperand o : ops) {
				unknownAccess(o, !toGlobal, toGlobal || opcode.startsWith("cp.reduce"), "tensor copy");
			}
			return;
		}
		if (opcode.contains(".prefetch") || ops.size() < 2) {
			return;
		}
		long size = 0;
		if (ops.size() > 2 && ops.get(2) instanceof PtxOperand.Immediate imm && imm.integerValue() != null) {
			size = imm.integerValue();
		}
		boolean dstGlobal = dstSpace(opcode).equals(".global");
		boolean srcGlobal = !dstGlobal && opcode.contains(".global");
		boolean reduce = opcode.startsWith("cp.reduce");
		if (opcode.startsWith("cp.async.bulk") || reduce) {
			if (dstGlobal) {
				access(index, ops.get(0), size, reduce, true, reduce, ranges);
			} else if (srcGlobal) {
				access(index, ops.get(1), size, true, false, false, ranges);
			}
		} else if (opcode.startsWith("cp.async")) {
			access(index, ops.get(1), size, true, false, false, ranges);
		}
	}

	/** The first state space named after the copy mnemonic is the destination's. */
	private static String dstSpace(String opcode) {
		for (String part : opcode.split("\\.")) {
			if (part.equals("global")) {
				return ".global";
			}
			if (part.startsWith("shared")) {
				return ".shared";
			}
		}
		return "";
	}

	private void access(int index, PtxOperand address, long size, boolean read, boolean write, boolean atomic,
			RangeFinder ranges) {
		Set<Origin> origins = originsOf(address);
		long direct = origins.stream().filter(o -> o.kind() == Kind.DIRECT).count();
		// i15-prec: base[off + i] with off by value: only the base is a pointer, off bounds its range
		Origin base = direct > 1 ? ranges.baseOrigin(address, origins) : null;
		for (Origin o : origins) {
			if (base != null && !o.equals(base)) {
				continue;
			}
			switch (o.kind()) {
				case DIRECT -> forEachWord(o, w -> {
					w.pointer = true;
					w.read |= read;
					w.written |= write;
					w.atomic |= atomic;
					AccessRange range = (direct == 1 || base != null) && size > 0
							? ranges.rangeOf(index, address, size, o)
							: AccessRange.WHOLE;
					if (range == AccessRange.WHOLE && direct > 1) {
						w.note("address mixes several parameters");
					}
					if (read) {
						w.readRanges.add(range);
					}
					if (write) {
						w.writeRanges.add(range);
					}
				});
				case LOADED -> forEachWord(o, w -> {
					w.indirectRead |= read;
					w.indirectWritten |= write;
				});
				case PARAM_ADDRESS -> forEachWord(o, w -> {
					w.unknown = true;
					w.note("parameter address used in a global access");
				});
			}
		}
	}

	private void unknownAccess(PtxOperand operand, boolean read, boolean write, String what) {
		for (Origin o : originsOf(operand)) {
			forEachWord(o, w -> {
				w.unknown = true;
				if (o.kind() == Kind.DIRECT) {
					w.pointer = true;
					w.read |= read;
					w.written |= write;
					if (read) {
						w.readRanges.add(AccessRange.WHOLE);
					}
					if (write) {
						w.writeRanges.add(AccessRange.WHOLE);
					}
				} else {
					w.indirectRead |= read;
					w.indirectWritten |= write;
				}
				w.note("used by " + what);
			});
		}
	}

	private interface WordAction {
		void apply(WordState w);
	}

	private void forEachWord(Origin o, WordAction action) {
		PtxParam param = function.params().get(o.param());
		if (o.word() >= 0) {
			action.apply(word(o.param(), o.word()));
		} else {
			for (long w = 0; w < Math.max(8, param.size()); w += 8) {
				action.apply(word(o.param(), w));
			}
		}
	}

	private WordState word(int param, long wordOffset) {
		return words.computeIfAbsent(((long) param << 32) | wordOffset, k -> new WordState());
	}

	private KernelAccessSummary summary() {
		List<ParamWordAccess> out = new ArrayList<>();
		for (int p = 0; p < function.params().size(); p++) {
			PtxParam param = function.params().get(p);
			for (long w = 0; w < param.size(); w += 8) {
				WordState s = words.getOrDefault(((long) p << 32) | w, new WordState());
				out.add(new ParamWordAccess(param.name(), p, param.offset() + w, w, s.pointer, s.read, s.written,
						s.atomic, s.indirectRead, s.indirectWritten, s.unknown, RangeFinder.merge(s.readRanges),
						RangeFinder.merge(s.writeRanges), new ArrayList<>(s.notes)));
			}
		}
		return new KernelAccessSummary(function.name(), out);
	}

	/** Mutable per-word accumulator. */
	private static final class WordState {
		boolean pointer;
		boolean read;
		boolean written;
		boolean atomic;
		boolean indirectRead;
		boolean indirectWritten;
		boolean unknown;
		final List<AccessRange> readRanges = new ArrayList<>();
		final List<AccessRange> writeRanges = new ArrayList<>();
		final Set<String> notes = new LinkedHashSet<>();

		void note(String n) {
			notes.add(n);
		}
	}

	/** The state space an instruction addresses. */
	enum Space {
		GLOBAL, GENERIC, SHARED, LOCAL, PARAM, CONST, OTHER;

		static Space of(Instruction ins) {
			String opcode = ins.opcode();
			if (ins.has(".global")) {
				return GLOBAL;
			}
			if (opcode.contains(".shared")) {
				return SHARED;
			}
			if (ins.has(".local")) {
				return LOCAL;
			}
			if (ins.has(".param")) {
				return PARAM;
			}
			if (ins.has(".const")) {
				return CONST;
			}
			if (ins.has(".tex") || ins.has(".surf")) {
				return OTHER;
			}
			return GENERIC;
		}

		boolean isGlobalOrGeneric() {
			return this == GLOBAL || this == GENERIC;
		}
	}

	static @Nullable Long immediate(PtxOperand o) {
		return o instanceof PtxOperand.Immediate i ? i.integerValue() : null;
	}
}
