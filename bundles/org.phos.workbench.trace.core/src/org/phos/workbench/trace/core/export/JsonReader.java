package org.phos.workbench.trace.core.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Reads JSON (RFC 8259, strictly) into plain values: objects become {@link LinkedHashMap}s in document order, arrays
 * {@link ArrayList}s, strings {@link String}s, numbers {@link Long}s when written without fraction or exponent and in
 * range, else {@link Double}s, {@code true}/{@code false} {@link Boolean}s, {@code null} null. The workbench reads its
 * own small JSON files with it (saved experiments) and the tests read every JSON export with it.
 * <p>
 * Anything RFC 8259 does not allow is an {@link IllegalArgumentException} whose message starts with the character
 * offset: a trailing comma, an unquoted or duplicate key, an unescaped control character in a string, a bad escape, a
 * leading zero, a missing digit, text after the value.
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

	/** The object {@code text} holds; anything else is an {@link IllegalArgumentException}. */
	@SuppressWarnings("unchecked")
	public static Map<String, @Nullable Object> parseObject(String text) {
		if (parse(text) instanceof Map<?, ?> map) {
			return (Map<String, @Nullable Object>) map;
		}
		throw new IllegalArgumentException("at character 0: not a JSON object");
	}

	private IllegalArgumentException error(String what) {
		return new IllegalArgumentException("at character " + at + ": " + what);
	}

	private void space() {
		while (at < text.length()) {
			char c = text.charAt(at);
			if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
				return;
			}
			at++;
		}
	}

	private char peek() {
		if (at >= text.length()) {
			throw error("unexpected end");
		}
		return text.charAt(at);
	}

	private void expect(char c) {
		if (peek() != c) {
			throw error("expected '" + c + "'");
		}
		at++;
	}

	private @Nullable Object value() {
		char c = peek();
		switch (c) {
			case '{' -> {
				return object();
			}
			case '[' -> {
				return array();
			}
			case '"' -> {
				return string();
			}
			case 't' -> {
				return literal("true", Boolean.TRUE);
			}
			case 'f' -> {
				return literal("false", Boolean.FALSE);
			}
			case 'n' -> {
				return literal("null", null);
			}
			default -> {
				if (c == '-' || (c >= '0' && c <= '9')) {
					return number();
				}
				throw error("unexpected character '" + c + "'");
			}
		}
	}

	private @Nullable Object literal(String word, @Nullable Object value) {
		if (!text.startsWith(word, at)) {
			throw error("expected " + word);
		}
		at += word.length();
		return value;
	}

	private Map<String, @Nullable Object> object() {
		expect('{');
		Map<String, @Nullable Object> map = new LinkedHashMap<>();
		space();
		if (peek() == '}') {
			at++;
			return map;
		}
		while (true) {
			space();
			if (peek() != '"') {
				throw error("expected a field name");
			}
			int keyAt = at;
			String key = string();
			if (map.containsKey(key)) {
				at = keyAt;
				throw error("duplicate field \"" + key + "\"");
			}
			space();
			expect(':');
			space();
			map.put(key, value());
			space();
			if (peek() != ',') {
				expect('}');
				return map;
			}
			at++;
		}
	}

	private List<@Nullable Object> array() {
		expect('[');
		List<@Nullable Object> list = new ArrayList<>();
		space();
		if (peek() == ']') {
			at++;
			return list;
		}
		while (true) {
			space();
			list.add(value());
			space();
			if (peek() != ',') {
				expect(']');
				return list;
			}
			at++;
		}
	}

	private String string() {
		expect('"');
		StringBuilder out = new StringBuilder();
		while (true) {
			char c = peek();
			at++;
			if (c == '"') {
				return out.toString();
			}
			if (c < 0x20) {
				at--;
				throw error("unescaped control character in a string");
			}
			if (c != '\\') {
				out.append(c);
				continue;
			}
			char e = peek();
			at++;
			switch (e) {
				case '"', '\\', '/' -> out.append(e);
				case 'b' -> out.append('\b');
				case 'f' -> out.append('\f');
				case 'n' -> out.append('\n');
				case 'r' -> out.append('\r');
				case 't' -> out.append('\t');
				case 'u' -> out.append(unicodeEscape());
				default -> throw error("bad escape \\" + e);
			}
		}
	}

	private char unicodeEscape() {
		int value = 0;
		for (int k = 0; k < 4; k++) {
			int digit = Character.digit(peek(), 16);
			if (digit < 0) {
				throw error("bad \\u escape");
			}
			value = value * 16 + digit;
			at++;
		}
		return (char) value;
	}

	private Object number() {
		int start = at;
		if (peek() == '-') {
			at++;
		}
		if (peek() == '0') {
			at++;
			if (at < text.length() && Character.isDigit(text.charAt(at))) {
				throw error("leading zero");
			}
		} else {
			digits();
		}
		boolean integral = true;
		if (at < text.length() && text.charAt(at) == '.') {
			at++;
			digits();
			integral = false;
		}
		if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
			at++;
			if (peek() == '+' || peek() == '-') {
				at++;
			}
			digits();
			integral = false;
		}
		String number = text.substring(start, at);
		if (integral) {
			try {
				return Long.parseLong(number);
			} catch (NumberFormatException e) {
				// beyond a long: keep it as a double, as JavaScript would
			}
		}
		return Double.parseDouble(number);
	}

	private void digits() {
		int start = at;
		while (at < text.length() && Character.isDigit(text.charAt(at))) {
			at++;
		}
		if (at == start) {
			throw error("expected a digit");
		}
	}
}
