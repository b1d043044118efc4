package org.phos.workbench.analysis.core.format;

/**
 * Text from a trace made safe for one line of a terminal or a table cell: names and command lines come from the
 * recorded process and may hold control characters.
 */
public final class PrintableText {

	private PrintableText() {
	}

	/** @return {@code text} with control characters escaped (a newline as {@code \\n}, others as {@code \\xNN}) */
	public static String printable(String text) {
		StringBuilder out = null;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < 0x20 || c == 0x7f) {
				if (out == null) {
					out = new StringBuilder(text.substring(0, i));
				}
				out.append(c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : String.format("\\x%02x", (int) c));
			} else if (out != null) {
				out.append(c);
			}
		}
		return out == null ? text : out.toString();
	}

	/** @return {@link #printable} text cut to {@code width} characters, ending in {@code ...} when cut */
	public static String clip(String text, int width) {
		text = printable(text);
		return text.length() <= width ? text : text.substring(0, Math.max(0, width - 3)) + "...";
	}
}
