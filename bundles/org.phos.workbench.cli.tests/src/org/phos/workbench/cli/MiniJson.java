package org.phos.workbench.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser (RFC 8259) for the tests: objects become {@link LinkedHashMap}s, arrays {@link ArrayList}s,
 * numbers {@link Double}s (or {@link Long}s when integral and written without fraction or exponent), strings
 * {@link String}s. Rejects trailing commas, unescaped control characters, bad escapes, leading zeros, duplicate
 * keys and trailing garbage, naming the offset.
 */
final class MiniJson {

	private final String text;
	private int at;

	private MiniJson(String text) {
		this.text = text;
	}

	static Object parse(String text) {
		MiniJson p = new MiniJson(text);
		p.space();
		Object value = p.value();
		p.space();
		if (p.at != text.length()) {
			throw p.error("trailing characters");
		}
		return value;
	}

	private IllegalArgumentException error(String what) {
		int from = Math.max(0, at - 30);
		int to = Math.min(text.length(), at + 30);
		return new IllegalArgumentException(what + " at offset " + at + ": ..." + text.substring(from, to) + "...");
	}

	private void space() {
		while (at < text.length()) {
			char c = text.charAt(at);
			if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
				at++;
			} else {
				break;
			}
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

	private Object value() {
		char c = peek();
		switch (c) {
		case '{':
			return object();
		case '[':
			return array();
		case '"':
			return string();
		case 't':
			literal("true");
			return Boolean.TRUE;
		case 'f':
			literal("false");
			return Boolean.FALSE;
		case 'n':
			literal("null");
			return null;
		default:
			if (c == '-' || (c >= '0' && c <= '9')) {
				return number();
			}
			throw error("unexpected character '" + c + "'");
		}
	}

	private void literal(String word) {
		if (!text.startsWith(word, at)) {
			throw error("expected " + word);
		}
		at += word.length();
	}

	private Map<String, Object> object() {
		expect('{');
		Map<String, Object> map = new LinkedHashMap<>();
		space();
		if (peek() == '}') {
			at++;
			return map;
		}
		while (true) {
			space();
			if (peek() != '"') {
				throw error("expected a key");
			}
			String key = string();
			space();
			expect(':');
			space();
			if (map.containsKey(key)) {
				throw error("duplicate key " + key);
			}
			map.put(key, value());
			space();
			if (peek() == ',') {
				at++;
				continue;
			}
			expect('}');
			return map;
		}
	}

	private List<Object> array() {
		expect('[');
		List<Object> list = new ArrayList<>();
		space();
		if (peek() == ']') {
			at++;
			return list;
		}
		while (true) {
			space();
			list.add(value());
			space();
			if (peek() == ',') {
				at++;
				continue;
			}
			expect(']');
			return list;
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
				throw error("unescaped control character");
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
			case 'u' -> {
				if (at + 4 > text.length()) {
					throw error("short \\u escape");
				}
				out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
				at += 4;
			}
			default -> throw error("bad escape \\" + e);
			}
		}
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
				return Double.parseDouble(number);
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
			throw error("expected digits");
		}
	}
}
