package org.phos.workbench.internal.speculation.core.instrument;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.ptx.PtxOperand;
import org.phos.workbench.speculation.core.ptx.PtxStatement.Instruction;
import org.phos.workbench.speculation.core.ptx.PtxTypes;

/**
 * Decides which PTX instructions access global memory and how (PTX ISA 9.0 forms):
 * <ul>
 * <li>{@code ld}, {@code ldu} (read), {@code st} (write), {@code atom}, {@code red} (read and write) in the
 * {@code .global} space or generic (no state space: tested on the device with {@code isspacep.global}); size =
 * element size &times; vector width ({@code .v2/.v4/.v8}, {@code .b128});</li>
 * <li>{@code cp.async.*.shared.global [dst], [src], cp-size}: reads {@code cp-size} bytes at {@code src};</li>
 * <li>{@code cp.async.bulk.DST.SRC [dst], [src], size}: reads at {@code src} when SRC is global, writes at
 * {@code dst} when DST is global; {@code cp.reduce.async.bulk.global.SRC}: reads and writes {@code dst};</li>
 * <li>{@code discard.global.L2 [a], 128}: makes 128 bytes undefined, recorded as a write.</li>
 * </ul>
 * Forms whose global address is not an operand ({@code cp.async.bulk.tensor} and {@code cp.reduce.async.bulk.tensor}
 * through a {@code CUtensorMap}, {@code tex}, {@code tld4}, {@code suld}, {@code sust}, {@code sured}) are reported
 * as untracked. {@code st.async}/{@code red.async} only exist for {@code .shared::cluster}; prefetches access no data.
 */
public final class AccessClassifier {

	/** The result for one instruction: a site, a reason it cannot be tracked, or neither. */
	public record Classification(@Nullable AccessSite site, @Nullable String untracked) {
		static final Classification NONE = new Classification(null, null);
	}

	private AccessClassifier() {
	}

	/** @return how {@code insn} touches global memory */
	public static Classification classify(Instruction insn) {
		String op = insn.opcode();
		String base = insn.baseOpcode();
		List<String> spaces = spaces(op);
		switch (base) {
			case "ld", "ldu", "st", "atom", "red" -> {
				boolean global = spaces.contains("global");
				if (!global && !spaces.isEmpty()) {
					return Classification.NONE;
				}
				PtxOperand.Address a = address(insn, 0);
				if (a == null) {
					return Classification.NONE;
				}
				int size = PtxTypes.sizeOf(insn.elementType()) * insn.vectorWidth();
				if (size <= 0) {
					return new Classification(null, op + ": unknown access size");
				}
				int kind = switch (base) {
					case "st" -> AccessSite.WRITE;
					case "atom", "red" -> AccessSite.READ | AccessSite.WRITE;
					default -> AccessSite.READ;
				};
				return site(a, size, null, kind | (global ? 0 : AccessSite.GENERIC));
			}
			case "cp" -> {
				return classifyCopy(insn, op, spaces);
			}
			case "discard" -> {
				PtxOperand.Address a = address(insn, 0);
				if (!spaces.contains("global") || a == null) {
					return Classification.NONE;
				}
				return site(a, 128, null, AccessSite.WRITE);
			}
			case "tex", "tld4", "suld", "sust", "sured" -> {
				return new Classification(null, op + ": texture/surface access, address not visible in PTX");
			}
			default -> {
				return Classification.NONE;
			}
		}
	}

	private static Classification classifyCopy(Instruction insn, String op, List<String> spaces) {
		boolean reduce = op.startsWith("cp.reduce.async.bulk");
		boolean bulk = reduce || op.startsWith("cp.async.bulk");
		if (!bulk && !op.startsWith("cp.async.")) {
			return Classification.NONE;
		}
		if (!spaces.contains("global")) {
			return Classification.NONE;
		}
		if (insn.has(".tensor")) {
			return new Classification(null, op + ": tensor-map copy, global address inside the CUtensorMap");
		}
		if (insn.has(".prefetch")) {
			return Classification.NONE;
		}
		if (!bulk) {
			// cp.async.ca|cg.shared{::cta}.global [dst], [src], cp-size{, src-size}{, cache-policy}
			PtxOperand.Address src = address(insn, 1);
			Long size = insn.operands().size() > 2 && insn.operands().get(2) instanceof PtxOperand.Immediate i
					? i.integerValue() : null;
			if (src == null || size == null) {
				return new Classification(null, op + ": cannot read source address or copy size");
			}
			return site(src, size.intValue(), null, AccessSite.READ);
		}
		if (insn.operands().size() < 3) {
			return new Classification(null, op + ": expected [dst], [src], size");
		}
		PtxOperand sizeOperand = insn.operands().get(2);
		boolean dstGlobal = spaces.get(0).equals("global");
		PtxOperand.Address a = address(insn, dstGlobal ? 0 : 1);
		if (a == null) {
			return new Classification(null, op + ": cannot read the global address");
		}
		int kind = dstGlobal ? (reduce ? AccessSite.READ | AccessSite.WRITE : AccessSite.WRITE) : AccessSite.READ;
		if (sizeOperand instanceof PtxOperand.Immediate i && i.integerValue() != null) {
			return site(a, i.integerValue().intValue(), null, kind);
		}
		return site(a, 0, sizeOperand, kind);
	}

	private static Classification site(PtxOperand.Address a, int size, @Nullable PtxOperand sizeOperand, int kind) {
		return new Classification(new AccessSite(a, size, sizeOperand, kind), null);
	}

	/** @return the {@code n}-th address operand, or null */
	private static PtxOperand.@Nullable Address address(Instruction insn, int n) {
		int seen = 0;
		for (PtxOperand o : insn.operands()) {
			if (o instanceof PtxOperand.Address a && a.extra().isEmpty()) {
				if (seen++ == n) {
					return a;
				}
			}
		}
		return null;
	}

	/** @return the state spaces named in an opcode, in order, without {@code ::} qualifiers */
	static List<String> spaces(String opcode) {
		List<String> out = new ArrayList<>();
		for (String part : opcode.split("\\.")) {
			int q = part.indexOf("::");
			String p = q < 0 ? part : part.substring(0, q);
			switch (p) {
				case "global", "shared", "local", "const", "param", "tex" -> out.add(p);
				default -> {
					// not a space
				}
			}
		}
		return out;
	}
}
