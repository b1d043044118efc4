package org.phos.workbench.trace.core.export;

import java.nio.charset.StandardCharsets;

/**
 * JSON string escaping (RFC 8259): quotes, backslash and control characters escaped, everything else UTF-8. Lone
 * surrogates (which cannot be encoded) become U+FFFD so that the output stays valid UTF-8.
 */
public final class JsonEscape {

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private JsonEscape() {
	}

	/** The string as a quoted JSON literal. */
	public static String quote(String text) {
		StringBuilder out = new StringBuilder(text.length() + 2);
		out.append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
			case '"' -> out.append("\\\"");
			case '\\' -> out.append("\\\\");
			case '\n' -> out.append("\\n");
			case '\r' -> out.append("\\r");
			case '\t' -> out.append("\\t");
			case '\b' -> out.append("\\b");
			case '\f' -> out.append("\\f");
			default -> {
				if (c < 0x20 || c == 0x7f) {
					out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
				} else if (Character.isHighSurrogate(c) && i + 1 < text.length()
						&& Character.isLowSurrogate(text.charAt(i + 1))) {
					out.append(c).append(text.charAt(++i));
				} else if (Character.isSurrogate(c)) {
					out.append('\ufffd');
				} else {
					out.append(c);
				}
			}
			}
		}
		return out.append('"').toString();
	}

	/** The quoted literal as UTF-8 bytes, ready for a byte sink. */
	public static byte[] quoted(String text) {
		return quote(text).getBytes(StandardCharsets.UTF_8);
	}
}
