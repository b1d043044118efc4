package org.phos.workbench.analysis.core.format;

/**
 * HTML/XML escaping for text and attribute values: {@code & < > " '} become character references, and characters
 * XML 1.0 does not allow (C0 controls other than tab, line feed and carriage return, lone surrogates, U+FFFE/U+FFFF)
 * become U+FFFD, so that a kernel name or a command line from a trace can never break the document. The one HTML
 * escaping routine of the workbench (beside {@code JsonEscape} and {@link CsvEscape}); the report writes XHTML that
 * both browsers and an XML parser read.
 */
public final class HtmlEscape {

	private HtmlEscape() {
	}

	/**
	 * @param text any text
	 * @return the text, safe inside an element or a double- or single-quoted attribute value
	 */
	public static String escape(String text) {
		return escape(text, false);
	}

	/**
	 * @param text any text
	 * @return the text, safe inside a double- or single-quoted attribute value, with tab, line feed and carriage
	 *         return as character references too (an XML parser would otherwise turn them into spaces)
	 */
	public static String attribute(String text) {
		return escape(text, true);
	}

	private static String escape(String text, boolean attribute) {
		StringBuilder out = null;
		int n = text.length();
		for (int i = 0; i < n; i++) {
			char c = text.charAt(i);
			String replacement = switch (c) {
				case '&' -> "&amp;";
				case '<' -> "&lt;";
				case '>' -> "&gt;";
				case '"' -> "&quot;";
				case '\'' -> "&#39;";
				case '\t' -> attribute ? "&#9;" : null;
				case '\n' -> attribute ? "&#10;" : null;
				case '\r' -> attribute ? "&#13;" : null;
				default -> allowed(text, i) ? null : "\uFFFD";
			};
			if (replacement == null && Character.isHighSurrogate(c) && i + 1 < n
					&& Character.isLowSurrogate(text.charAt(i + 1))) {
				if (out != null) {
					out.append(c).append(text.charAt(i + 1));
				}
				i++;
				continue;
			}
			if (replacement != null && out == null) {
				out = new StringBuilder(n + 16).append(text, 0, i);
			}
			if (out != null) {
				if (replacement != null) {
					out.append(replacement);
				} else {
					out.append(c);
				}
			}
		}
		return out == null ? text : out.toString();
	}

	private static boolean allowed(String text, int i) {
		char c = text.charAt(i);
		if (c < 0x20) {
			return c == '\t' || c == '\n' || c == '\r';
		}
		if (c == 0xFFFE || c == 0xFFFF) {
			return false;
		}
		if (Character.isHighSurrogate(c)) {
			return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
		}
		return !Character.isLowSurrogate(c);
	}
}
