package org.phos.workbench.internal.speculation.core.ptx;

import java.util.ArrayList;
import java.util.List;

/** Splits PTX text into tokens, dropping comments. Words may contain {@code .} and {@code ::}. */
final class PtxLexer {

	private PtxLexer() {
	}

	static List<PtxToken> tokenize(String s) {
		List<PtxToken> tokens = new ArrayList<>(s.length() / 4);
		int i = 0;
		int line = 1;
		int n = s.length();
		while (i < n) {
			char c = s.charAt(i);
			if (c == '\n') {
				line++;
				i++;
			} else if (Character.isWhitespace(c)) {
				i++;
			} else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
				while (i < n && s.charAt(i) != '\n') {
					i++;
				}
			} else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
				int close = s.indexOf("*/", i + 2);
				int stop = close < 0 ? n : close + 2;
				for (int k = i; k < stop; k++) {
					if (s.charAt(k) == '\n') {
						line++;
					}
				}
				i = stop;
			} else if (c == '"') {
				int j = i + 1;
				while (j < n && s.charAt(j) != '"' && s.charAt(j) != '\n') {
					j += s.charAt(j) == '\\' ? 2 : 1;
				}
				j = Math.min(n, j + 1);
				tokens.add(new PtxToken(s.substring(i, j), line, i, j));
				i = j;
			} else if (isWordChar(c)) {
				int j = i;
				while (j < n) {
					char d = s.charAt(j);
					if (isWordChar(d)) {
						j++;
					} else if (d == ':' && j + 1 < n && s.charAt(j + 1) == ':') {
						j += 2;
					} else {
						break;
					}
				}
				tokens.add(new PtxToken(s.substring(i, j), line, i, j));
				i = j;
			} else {
				tokens.add(new PtxToken(String.valueOf(c), line, i, i + 1));
				i++;
			}
		}
		return tokens;
	}

	private static boolean isWordChar(char c) {
		return Character.isLetterOrDigit(c) || c == '.' || c == '%' || c == '_' || c == '$';
	}
}
