package org.phos.workbench.internal.analysis.core.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Reads the small JSON files of saved experiments (experiment.json, manifest.json) into maps, lists, strings,
 * {@code Long}/{@code Double} numbers, booleans and null. Strict: anything else is an {@link IllegalArgumentException}
 * whose message gives the character offset.
 */
public final class JsonReader {
	private final String text;
	private int at;

	private JsonReader(String text) {
		this.text = text;
	}

	/** The value {@code text} holds. */
	public static @Nullable Object parse(String text) {
		JsonReader r = new JsonReader(text);
		r.space();
		Object value = r.value();
		r.space();
		if (r.at != text.length()) {
			throw r.error("unexpected text after the value");
		}
		return value;
	}

	private IllegalArgumentException error(String what) {
		return new IllegalArgumentException("at character " + at + ": " + what);
	}

	private void space() {
		while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
			at++;
		}
	}

	private @Nullable Object value() {
		if (at >= text.length()) {
			throw error("unexpected end");
		}
		char c = text.charAt(at);
		switch (c) {
			case '{' -> {
				at++;
				Map<String, @Nullable Object> map = new LinkedHashMap<>();
				space();
				if (peek('}')) {
					return map;
				}
				do {
					space();
					if (at >= text.length() || text.charAt(at) != '"') {
						throw error("expected a field name");
					}
					String name = string();
					space();
					expect(':');
					space();
					map.put(name, value());
					space();
				} while (peek(','));
				expect('}');
				return map;
			}
			case '[' -> {
				at++;
				List<@Nullable Object> list = new ArrayList<>();
				space();
				if (peek(']')) {
					return list;
				}
				do {
					space();
					list.add(value());
					space();
				} while (peek(','));
				expect(']');
				return list;
			}
			case '"' -> {
				return string();
			}
			default -> {
				if (text.startsWith("true", at)) {
					at += 4;
					return Boolean.TRUE;
				}
				if (text.startsWith("false", at)) {
					at += 5;
					return Boolean.FALSE;
				}
				if (text.startsWith("null", at)) {
					at += 4;
					return null;
				}
				return number();
			}
		}
	}

	private boolean peek(char c) {
		if (at < text.length() && text.charAt(at) == c) {
			at++;
			return true;
		}
		return false;
	}

	private void expect(char c) {
		if (!peek(c)) {
			throw error("expected '" + c + "'");
		}
	}

	private String string() {
		expect('"');
		StringBuilder b = new StringBuilder();
		while (true) {
			if (at >= text.length()) {
				throw error("unterminated string");
			}
			char c = text.charAt(at++);
			if (c == '"') {
				return b.toString();
			}
			if (c != '\\') {
				b.append(c);
				continue;
			}
			if (at >= text.length()) {
				throw error("unterminated string");
			}
			char e = text.charAt(at++);
			switch (e) {
				case '"', '\\', '/' -> b.append(e);
				case 'b' -> b.append('\b');
				case 'f' -> b.append('\f');
				case 'n' -> b.append('\n');
				case 'r' -> b.append('\r');
				case 't' -> b.append('\t');
				case 'u' -> {
					if (at + 4 > text.length()) {
						throw error("bad \\u escape");
					}
					try {
						b.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
					} catch (NumberFormatException x) {
						throw error("bad \\u escape");
					}
					at += 4;
				}
				default -> throw error("bad escape \\" + e);
			}
		}
	}

	private Object number() {
		int start = at;
		while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
			at++;
		}
		String n = text.substring(start, at);
		if (n.isEmpty()) {
			throw error("expected a value");
		}
		try {
			if (n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0) {
				return Long.parseLong(n);
			}
			return Double.parseDouble(n);
		} catch (NumberFormatException e) {
			at = start;
			throw error("bad number '" + n + "'");
		}
	}
}
