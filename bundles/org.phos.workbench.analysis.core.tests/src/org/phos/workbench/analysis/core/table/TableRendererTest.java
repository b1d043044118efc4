package org.phos.workbench.analysis.core.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class TableRendererTest {

	record Row(String name, long count, double share, long address) {
	}

	static final TableDef<Row> DEF = new TableDef<>("rows", List.of(Column.text("name", Row::name),
			Column.integer("count", "", Row::count), Column.decimal("share", "", Row::share),
			Column.address("address", Row::address)));

	static String render(TableRenderer r, List<Row> rows) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		r.render(Table.of(DEF, rows), new PrintStream(bytes, true, StandardCharsets.UTF_8));
		return bytes.toString(StandardCharsets.UTF_8);
	}

	@Test
	void csvQuotesCommasQuotesAndNewlinesOnly() {
		String csv = render(TableRenderer.CSV, List.of(new Row("a,b", 1, 0.5, 16), new Row("say \"hi\"", 2, 0.25, 255),
				new Row("two\nlines", 3, 1, 0), new Row("plain", -4, Double.NaN, -1)));
		assertEquals("name,count,share,address\n" + "\"a,b\",1,0.5,0x10\n" + "\"say \"\"hi\"\"\",2,0.25,0xff\n"
				+ "\"two\nlines\",3,1,0x0\n" + "plain,-4,,0xffffffffffffffff\n", csv);
	}

	@Test
	void jsonEscapesAndKeepsNumbersBare() {
		String json = render(TableRenderer.JSON, List.of(new Row("q\"\\\u0001", 7, Double.POSITIVE_INFINITY, 1)));
		String compact = json.replaceAll("\\s*\n\\s*", "");
		assertEquals("{\"table\": \"rows\",\"offset\": 0,\"total\": 1,\"columns\": [{\"name\": \"name\",\"unit\": \"\"},"
				+ "{\"name\": \"count\",\"unit\": \"\"},{\"name\": \"share\",\"unit\": \"\"},"
				+ "{\"name\": \"address\",\"unit\": \"\"}],\"rows\": [{\"name\": \"q\\\"\\\\\\u0001\",\"count\": 7,"
				+ "\"share\": null,\"address\": \"0x1\"}]}", compact);
	}

	@Test
	void textAlignsNumbersRightAndTextLeft() {
		String text = render(TableRenderer.TEXT, List.of(new Row("x", 1, 0.5, 16), new Row("longer\tname", 1000, 2, 0)));
		assertEquals("""
				name         count  share  address
				x                1    0.5     0x10
				longer name   1000      2      0x0
				""", text);
	}

	@Test
	void namedAndHeadersAreChecked() {
		assertEquals(TableRenderer.CSV, TableRenderer.named("csv"));
		assertThrows(IllegalArgumentException.class, () -> TableRenderer.named("xml"));
		assertThrows(IllegalArgumentException.class, () -> Column.text("Bad Header", (Row r) -> r.name()));
		assertThrows(IllegalArgumentException.class, () -> DEF.column("nope"));
	}
}
