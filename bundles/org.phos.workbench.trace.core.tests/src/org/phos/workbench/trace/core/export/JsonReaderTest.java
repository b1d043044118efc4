package org.phos.workbench.trace.core.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link JsonReader}: the values it gives, and the offset it names for what RFC 8259 refuses. */
class JsonReaderTest {

	@Test
	void readsEveryKindOfValueInDocumentOrder() {
		Map<String, Object> doc = JsonReader.parseObject(
				" {\"z\": [1, -0, 2.5, -1e3, 9223372036854775808], \"a\": {\"t\": true, \"f\": false, \"n\": null},"
						+ " \"s\": \"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20AC\"}\n");
		assertEquals(List.of("z", "a", "s"), List.copyOf(doc.keySet()), "fields in document order");
		assertEquals(Arrays.asList(1L, 0L, 2.5, -1000.0, 9.223372036854775808E18), doc.get("z"),
				"integers as Long, fractions, exponents and integers beyond a long as Double");
		Map<?, ?> a = (Map<?, ?>) doc.get("a");
		assertEquals(Boolean.TRUE, a.get("t"));
		assertEquals(Boolean.FALSE, a.get("f"));
		assertTrue(a.containsKey("n"));
		assertNull(a.get("n"));
		assertEquals("q\"\\/\b\f\n\r\t\u00e9\u20ac", doc.get("s"));
		assertEquals(List.of(), JsonReader.parse("[]"));
		assertEquals(Map.of(), JsonReader.parse("{ }"));
	}

	/** Text, the offset named, and what is wrong there. */
	static Stream<Arguments> refused() {
		return Stream.of(
				Arguments.of("[1,]", 3, "unexpected character ']'"),
				Arguments.of("{\"a\":1,}", 7, "expected a field name"),
				Arguments.of("{a:1}", 1, "expected a field name"),
				Arguments.of("{\"a\":1,\"a\":2}", 7, "duplicate field \"a\""),
				Arguments.of("[01]", 2, "leading zero"),
				Arguments.of("[1.]", 3, "expected a digit"),
				Arguments.of("[-]", 2, "expected a digit"),
				Arguments.of("\"\\x\"", 3, "bad escape \\x"),
				Arguments.of("\"\\u12g4\"", 5, "bad \\u escape"),
				Arguments.of("[tru]", 1, "expected true"),
				Arguments.of("{\"a\" 1}", 5, "expected ':'"),
				Arguments.of("[1] [2]", 4, "unexpected text after the value"),
				Arguments.of("[1", 2, "unexpected end"),
				Arguments.of("", 0, "unexpected end"));
	}

	@ParameterizedTest(name = "[{index}] \"{0}\"")
	@MethodSource("refused")
	void refusesWhatRfc8259RefusesNamingTheOffset(String json, int offset, String what) {
		IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JsonReader.parse(json));
		assertEquals("at character " + offset + ": " + what, e.getMessage());
	}

	@Test
	void refusesAControlCharacterInAString() {
		IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
				() -> JsonReader.parse("[\"a\tb\"]"));
		assertEquals("at character 3: unescaped control character in a string", e.getMessage());
	}

	@Test
	void parseObjectRefusesAnythingButAnObject() {
		IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JsonReader.parseObject("[1]"));
		assertEquals("at character 0: not a JSON object", e.getMessage());
	}
}
