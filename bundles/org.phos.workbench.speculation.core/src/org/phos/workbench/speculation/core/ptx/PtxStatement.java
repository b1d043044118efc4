package org.phos.workbench.speculation.core.ptx;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;

/** One statement of a function body: an instruction, a label, or a directive (declarations, scopes, debug info). */
public sealed interface PtxStatement {

	/** @return the 1-based line in the PTX text */
	int line();

	/** @return the statement as PTX text */
	String toPtx();

	/**
	 * An instruction such as {@code @!%p1 ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4+16];}.
	 *
	 * @param guard the predicate register guarding it, or {@code null}
	 * @param guardNegated whether the guard is {@code @!p}
	 * @param opcode the full opcode with modifiers ({@code ld.global.nc.v4.f32})
	 * @param operands the operands in order
	 * @param line source line
	 */
	record Instruction(@Nullable String guard, boolean guardNegated, String opcode, List<PtxOperand> operands,
			int line) implements PtxStatement {

		/** Copies the list. */
		public Instruction {
			operands = List.copyOf(operands);
		}

		/** @return the opcode without modifiers ({@code ld}) */
		public String baseOpcode() {
			int dot = opcode.indexOf('.');
			return dot < 0 ? opcode : opcode.substring(0, dot);
		}

		/**
		 * @param modifier a modifier with its dot ({@code .global}) or a dotted sequence ({@code .shared::cta})
		 * @return whether the opcode has it as a whole component
		 */
		public boolean has(String modifier) {
			int from = 0;
			while (true) {
				int at = opcode.indexOf(modifier, from);
				if (at < 0) {
					return false;
				}
				int end = at + modifier.length();
				if (end == opcode.length() || opcode.charAt(end) == '.') {
					return true;
				}
				from = at + 1;
			}
		}

		/** @return the last modifier, usually the data type ({@code .f32}) */
		public String typeSuffix() {
			int dot = opcode.lastIndexOf('.');
			return dot < 0 ? "" : opcode.substring(dot);
		}

		/** @return the last modifier naming a sized data type ({@code .f32} in {@code atom.global.v2.f32.add}), or "" */
		public String elementType() {
			String[] parts = opcode.split("\\.");
			for (int i = parts.length - 1; i > 0; i--) {
				if (PtxTypes.sizeOf(parts[i]) > 0) {
					return "." + parts[i];
				}
			}
			return "";
		}

		/** @return the vector width from {@code .v2/.v4/.v8}, 1 otherwise */
		public int vectorWidth() {
			return has(".v2") ? 2 : has(".v4") ? 4 : has(".v8") ? 8 : 1;
		}

		@Override
		public String toPtx() {
			StringBuilder out = new StringBuilder();
			if (guard != null) {
				out.append('@').append(guardNegated ? "!" : "").append(guard).append(' ');
			}
			out.append(opcode);
			for (int i = 0; i < operands.size(); i++) {
				out.append(i == 0 ? " " : ", ").append(operands.get(i).toPtx());
			}
			return out.append(';').toString();
		}
	}

	/**
	 * A label {@code $L__BB0_2:}.
	 *
	 * @param name the label
	 * @param line source line
	 */
	record Label(String name, int line) implements PtxStatement {
		@Override
		public String toPtx() {
			return name + ":";
		}
	}

	/**
	 * Anything else kept verbatim: {@code .reg} declarations, {@code .loc}, {@code .pragma}, scope braces.
	 *
	 * @param text the directive including its terminating {@code ;} when it has one
	 * @param line source line
	 */
	record Directive(String text, int line) implements PtxStatement {
		@Override
		public String toPtx() {
			return text;
		}
	}
}
