package org.phos.workbench.speculation.core.ptx;

import org.eclipse.jdt.annotation.Nullable;

/** PTX integer literal syntax. */
public final class PtxNumbers {

	private PtxNumbers() {
	}

	/**
	 * @param text a literal such as {@code 42}, {@code -4}, {@code 0x1F}, {@code 0b101}, {@code 017}, {@code 4U}
	 * @return its value (64-bit two's complement), or {@code null} when not an integer literal
	 */
	public static @Nullable Long parseInteger(String text) {
		String t = text;
		boolean negative = t.startsWith("-");
		if (negative) {
			t = t.substring(1);
		}
		if (t.endsWith("U") || t.endsWith("u")) {
			t = t.substring(0, t.length() - 1);
		}
		if (t.isEmpty()) {
			return null;
		}
		try {
			long v;
			if (t.startsWith("0x") || t.startsWith("0X")) {
				v = Long.parseUnsignedLong(t.substring(2), 16);
			} else if (t.startsWith("0b") || t.startsWith("0B")) {
				v = Long.parseUnsignedLong(t.substring(2), 2);
			} else if (t.startsWith("0f") || t.startsWith("0F") || t.startsWith("0d") || t.startsWith("0D")
					|| t.contains(".")) {
				return null;
			} else if (t.length() > 1 && t.startsWith("0")) {
				v = Long.parseUnsignedLong(t.substring(1), 8);
			} else {
				v = Long.parseUnsignedLong(t);
			}
			return negative ? -v : v;
		} catch (NumberFormatException e) {
			return null;
		}
	}
}
