package org.phos.workbench.speculation.core.ptx;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A byte count that depends linearly on scalar kernel arguments: {@code constant + sum(coefficient * argument)}, for
 * example {@code 4 * n} for {@code float out[n]}. It is evaluated per launch from the launch's parameter bytes.
 *
 * @param constant the constant part
 * @param terms the argument-dependent parts
 */
public record LinearBound(long constant, List<Term> terms) {

	/** Copies the list. */
	public LinearBound {
		terms = List.copyOf(terms);
	}

	/**
	 * One scalar argument read from the parameter buffer.
	 *
	 * @param paramName the parameter's PTX name
	 * @param paramOffset byte offset of the scalar in the parameter buffer
	 * @param size 1, 2, 4 or 8 bytes
	 * @param signed whether to sign-extend
	 * @param coefficient its multiplier in bytes
	 */
	public record Term(String paramName, long paramOffset, int size, boolean signed, long coefficient) {
	}

	/** @return a constant bound */
	public static LinearBound of(long constant) {
		return new LinearBound(constant, List.of());
	}

	/** @return whether no argument is involved */
	public boolean isConstant() {
		return terms.isEmpty();
	}

	/**
	 * @param paramBuffer the launch's parameter bytes, little-endian as the GPU sees them
	 * @return the bound's value for that launch
	 */
	public long evaluate(ByteBuffer paramBuffer) {
		ByteBuffer b = paramBuffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
		long value = constant;
		for (Term t : terms) {
			int at = (int) t.paramOffset();
			long v = switch (t.size()) {
				case 1 -> t.signed() ? b.get(at) : Byte.toUnsignedLong(b.get(at));
				case 2 -> t.signed() ? b.getShort(at) : Short.toUnsignedLong(b.getShort(at));
				case 4 -> t.signed() ? b.getInt(at) : Integer.toUnsignedLong(b.getInt(at));
				default -> b.getLong(at);
			};
			value += t.coefficient() * v;
		}
		return value;
	}

	@Override
	public String toString() {
		StringBuilder out = new StringBuilder();
		for (Term t : terms) {
			out.append(out.isEmpty() ? "" : " + ").append(t.coefficient() == 1 ? "" : t.coefficient() + "*")
					.append(t.paramName()).append('@').append(t.paramOffset());
		}
		if (constant != 0 || out.isEmpty()) {
			out.append(out.isEmpty() ? "" : constant < 0 ? " - " : " + ")
					.append(out.isEmpty() ? constant : Math.abs(constant));
		}
		return out.toString();
	}
}
