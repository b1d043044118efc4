package org.phos.workbench.trace.core.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
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

	@Test
	void backgroundWriterKeepsTheOrderAcrossManyBuffers() throws IOException {
		StringBuilder expected = new StringBuilder();
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		ByteSink sink = new ByteSink(bytes, 64, true);
		SplittableRandom random = new SplittableRandom(3);
		for (int k = 0; k < 50_000; k++) {
			long value = random.nextLong(Long.MAX_VALUE);
			sink.reserve(48);
			sink.putMicros(value);
			sink.put(new byte[] { ',' });
			sink.putDecimal(k);
			sink.ch('\n');
			expected.append(String.format("%d.%03d", value / 1000, value % 1000)).append(',').append(k).append('\n');
		}
		sink.flush();
		sink.stopWriter();
		assertEquals(expected.toString(), bytes.toString(StandardCharsets.US_ASCII));
		assertEquals(expected.length(), sink.written());
	}

	@Test
	void backgroundWriteFailureSurfacesInTheWritingThread() throws IOException, InterruptedException {
		Thread[] writers = new Thread[1];
		OutputStream failing = new OutputStream() {
			@Override
			public void write(int b) throws IOException {
				write(new byte[] { (byte) b }, 0, 1);
			}

			@Override
			public void write(byte[] b, int off, int len) throws IOException {
				writers[0] = Thread.currentThread();
				throw new IOException("No space left on device");
			}
		};
		ByteSink sink = new ByteSink(failing, 64, true);
		IOException e = assertThrows(IOException.class, () -> {
			for (int k = 0; k < 1000; k++) {
				sink.ascii("0123456789");
			}
			sink.flush();
		});
		assertEquals("No space left on device", e.getMessage());
		assertTrue(writers[0] != null && writers[0] != Thread.currentThread(), "written by the background thread");
		sink.stopWriter();
		writers[0].join(5_000);
		assertFalse(writers[0].isAlive(), "the writer thread ends");
	}
}
