package org.phos.workbench.internal.speculation.core.ptx;

/**
 * A PTX token.
 *
 * @param text the token text (punctuation is one character; strings keep their quotes)
 * @param line 1-based line
 * @param start offset of the first character in the source
 * @param end offset after the last character
 */
record PtxToken(String text, int line, int start, int end) {

	boolean is(String s) {
		return text.equals(s);
	}

	boolean isWord() {
		char c = text.charAt(0);
		return Character.isLetterOrDigit(c) || c == '.' || c == '%' || c == '_' || c == '$';
	}
}
