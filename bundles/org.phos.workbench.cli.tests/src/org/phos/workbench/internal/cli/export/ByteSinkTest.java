package org.phos.workbench.internal.cli.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The number and string formatting of {@link ByteSink} against the JDK's. */
class ByteSinkTest {

	private interface Write {
		void to(ByteSink sink) throws IOException;
	}

	private static String written(Write write) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		ByteSink sink = new ByteSink(bytes, 64);
		write.to(sink);
		sink.flush();
		return bytes.toString(StandardCharsets.UTF_8);
	}

	@Test
	void decimalsMatchLongToString() throws IOException {
		SplittableRandom random = new SplittableRandom(1);
		for (int k = 0; k < 20_000; k++) {
			long v = switch (k % 4) {
			case 0 -> random.nextLong();
			case 1 -> random.nextLong(1000);
			case 2 -> (long) Math.pow(10, random.nextInt(19)) - random.nextInt(2);
			default -> random.nextInt();
			};
			long value = v;
			assertEquals(Long.toString(value), written(s -> s.decimal(value)));
			assertEquals(Long.toUnsignedString(value), written(s -> s.unsignedDecimal(value)));
			assertEquals("0x" + Long.toHexString(value), written(s -> s.hexAddress(value)));
			if (value >= 0) {
				byte[] scratch = new byte[24];
				assertEquals(Long.toString(value), new String(scratch, 0, ByteSink.putDecimal(value, scratch, 0),
						StandardCharsets.US_ASCII));
				String micros = String.format("%d.%03d", value / 1000, value % 1000);
				assertEquals(micros, written(s -> s.micros(value)));
				assertEquals(micros, new String(scratch, 0, ByteSink.putMicros(value, scratch, 0),
						StandardCharsets.US_ASCII));
			}
		}
		assertEquals("-9223372036854775808 0 9223372036854775807", written(s -> s.decimal(Long.MIN_VALUE).ch(' ')
				.decimal(0).ch(' ').decimal(Long.MAX_VALUE)));
		assertEquals("0.000 0.001 1.000 1234.567", written(s -> s.micros(0).ch(' ').micros(1).ch(' ').micros(1000)
				.ch(' ').micros(1_234_567)));
	}

	@Test
	void hexBytesAndLongWritesAcrossTheBuffer() throws IOException {
		byte[] data = new byte[300];
		for (int i = 0; i < data.length; i++) {
			data[i] = (byte) (i * 7);
		}
		assertEquals(java.util.HexFormat.of().formatHex(data), written(s -> s.hexBytes(data, 0, data.length)));
		String longText = "x".repeat(1000);
		assertEquals(longText, written(s -> s.ascii(longText)));
	}

	@Test
	void jsonAndCsvEscaping() throws IOException {
		assertEquals("\"a\\\"b\\\\c\\nd\\u0001\u00e9\"", written(s -> s.jsonString("a\"b\\c\nd\u0001\u00e9")));
		assertEquals("\"\ufffd\"", JsonEscape.quote("\ud800"), "lone surrogate");
		assertEquals("plain", written(s -> s.csvField("plain")));
		assertEquals("\"a,b \"\"c\"\"\"", written(s -> s.csvField("a,b \"c\"")));
	}
}
