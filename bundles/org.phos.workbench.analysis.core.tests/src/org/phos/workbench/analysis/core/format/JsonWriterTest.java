package org.phos.workbench.analysis.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Commas, indentation and misuse of {@link JsonWriter}. */
class JsonWriterTest {

	@Test
	void writesIndentedJson() {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		JsonWriter json = new JsonWriter(new PrintStream(bytes, true, StandardCharsets.UTF_8));
		json.beginObject().field("a", 1).name("b").beginArray().value("x\"y").value(true).beginObject().endObject()
				.endArray().name("c").beginObject().field("d", 1.5).endObject().name("e").unsignedValue(-1L)
				.endObject().finish();
		assertEquals("{\n  \"a\": 1,\n  \"b\": [\n    \"x\\\"y\",\n    true,\n    {}\n  ],\n  \"c\": {\n"
				+ "    \"d\": 1.5\n  },\n  \"e\": 18446744073709551615\n}\n", bytes.toString(StandardCharsets.UTF_8));
	}

	@Test
	void refusesMisuse() {
		JsonWriter json = new JsonWriter(new PrintStream(new ByteArrayOutputStream()));
		json.beginObject();
		assertThrows(IllegalStateException.class, () -> json.value(1));
		json.name("k");
		assertThrows(IllegalStateException.class, () -> json.name("again"));
		assertThrows(IllegalStateException.class, json::endObject);
		json.value(2).endObject();
		JsonWriter unclosed = new JsonWriter(new PrintStream(new ByteArrayOutputStream()));
		unclosed.beginArray();
		assertThrows(IllegalStateException.class, unclosed::finish);
	}
}
