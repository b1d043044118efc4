package org.phos.workbench.speculation.core.ptx;

import java.util.List;

/** An instruction operand. */
public sealed interface PtxOperand {

	/** @return the operand as PTX text */
	String toPtx();

	/**
	 * A register ({@code %rd4}, {@code %tid.x}, {@code _} sink), possibly negated ({@code !%p1}) or a predicate pair
	 * ({@code %p1|%p2}) written as one name.
	 *
	 * @param name the register name as written
	 */
	record Register(String name) implements PtxOperand {
		@Override
		public String toPtx() {
			return name;
		}
	}

	/**
	 * A numeric literal: integer (decimal, hex, octal, binary, with optional {@code U}) or floating point
	 * ({@code 0f3F800000}, {@code 1.5}).
	 *
	 * @param text as written
	 */
	record Immediate(String text) implements PtxOperand {
		@Override
		public String toPtx() {
			return text;
		}

		/** @return the integer value, or {@code null} for floating point literals */
		public java.lang.@org.eclipse.jdt.annotation.Nullable Long integerValue() {
			return PtxNumbers.parseInteger(text);
		}
	}

	/**
	 * A name that is not a register: a variable, parameter, function or label.
	 *
	 * @param name the symbol
	 */
	record Symbol(String name) implements PtxOperand {
		@Override
		public String toPtx() {
			return name;
		}
	}

	/**
	 * A memory address {@code [base]}, {@code [base+imm]} or {@code [var+imm]}; {@code base} is a register, a symbol or
	 * an immediate absolute address. Tensor copies use {@code [tmap, {coords}]}: the extra operands are in
	 * {@code extra}.
	 *
	 * @param base the base
	 * @param offset the constant byte offset
	 * @param extra further operands inside the brackets, usually empty
	 */
	record Address(PtxOperand base, long offset, List<PtxOperand> extra) implements PtxOperand {

		/** Copies the list. */
		public Address {
			extra = List.copyOf(extra);
		}

		@Override
		public String toPtx() {
			StringBuilder out = new StringBuilder("[").append(base.toPtx());
			if (offset > 0) {
				out.append('+').append(offset);
			} else if (offset < 0) {
				out.append("+").append(offset);
			}
			for (PtxOperand e : extra) {
				out.append(", ").append(e.toPtx());
			}
			return out.append(']').toString();
		}
	}

	/**
	 * A brace vector {@code {%f1, %f2}} or a parenthesised call list {@code (param0, param1)}.
	 *
	 * @param elements the elements
	 * @param parentheses {@code true} for {@code ( )}, {@code false} for {@code { }}
	 */
	record Group(List<PtxOperand> elements, boolean parentheses) implements PtxOperand {

		/** Copies the list. */
		public Group {
			elements = List.copyOf(elements);
		}

		@Override
		public String toPtx() {
			StringBuilder out = new StringBuilder(parentheses ? "(" : "{");
			for (int i = 0; i < elements.size(); i++) {
				out.append(i == 0 ? "" : ", ").append(elements.get(i).toPtx());
			}
			return out.append(parentheses ? ")" : "}").toString();
		}
	}
}
