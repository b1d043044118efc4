package org.phos.workbench.trace.core.export;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A buffered byte writer for text formats, with the formatting an exporter needs done straight into the buffer
 * (decimal and hexadecimal numbers, microseconds from nanoseconds, JSON and CSV string escaping), so that writing
 * millions of events creates no garbage. Output is UTF-8.
 */
public final class ByteSink implements Closeable {

	private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
	private static final byte[] LONG_MIN = "-9223372036854775808".getBytes(StandardCharsets.US_ASCII);

	/**
	 * Bytes past {@link #limit} that the buffer also has, so that number formatting can store eight bytes at a time
	 * (and keep only the significant ones) without a bounds check per digit.
	 */
	private static final int SLACK = 32;

	private final OutputStream out;
	private byte[] buffer;
	/**
	 * With a background writer: the other buffer, which the writer may be writing out while this one fills
	 * ({@link #pending}); null without one.
	 */
	private byte[] spare;
	/** The background writer (one thread), or null when the buffer is written out by the thread that fills it. */
	private final ExecutorService writer;
	/** The block the background writer is writing, or null. */
	private Future<?> pending;
	/** How much of {@link #buffer} is filled before it is written out (its length less {@link #SLACK}). */
	private final int limit;
	private int position;
	private long flushed;

	public ByteSink(OutputStream out, int bufferSize) {
		this(out, bufferSize, false);
	}

	/**
	 * @param background whether a full buffer is written out by a background thread while the caller fills a
	 *                   second one (two buffers, so memory stays fixed); the stream is then used by that thread
	 *                   until {@link #flush()} or {@link #close()} returns, and the caller ends the sink with one
	 *                   of them or, when abandoning it, {@link #stopWriter()}
	 */
	public ByteSink(OutputStream out, int bufferSize, boolean background) {
		if (bufferSize < 64) {
			throw new IllegalArgumentException("buffer of " + bufferSize + " bytes is smaller than 64");
		}
		this.out = out;
		this.buffer = new byte[bufferSize + SLACK];
		this.limit = bufferSize;
		if (background) {
			this.spare = new byte[bufferSize + SLACK];
			this.writer = Executors.newSingleThreadExecutor(task -> {
				Thread thread = new Thread(task, "phos export writer");
				thread.setDaemon(true);
				return thread;
			});
		} else {
			this.writer = null;
		}
	}

	/** A sink with a 1 MiB buffer: files are written in 1 MiB blocks. */
	public ByteSink(OutputStream out) {
		this(out, 1 << 20);
	}

	/** Bytes written so far, including those still buffered. */
	public long written() {
		return flushed + position;
	}

	private void ensure(int n) throws IOException {
		if (position + n > limit) {
			flushBuffer();
			if (n > limit) {
				throw new IllegalArgumentException("write of " + n + " bytes exceeds the buffer");
			}
		}
	}

	private void flushBuffer() throws IOException {
		if (writer == null) {
			out.write(buffer, 0, position);
		} else {
			awaitPending();
			byte[] full = buffer;
			int length = position;
			pending = writer.submit(() -> {
				out.write(full, 0, length);
				return null;
			});
			buffer = spare;
			spare = full;
		}
		flushed += position;
		position = 0;
	}

	/** Waits for the block the background writer is writing, and rethrows what writing it threw. */
	private void awaitPending() throws IOException {
		Future<?> block = pending;
		if (block == null) {
			return;
		}
		pending = null;
		boolean interrupted = false;
		try {
			while (true) {
				try {
					block.get();
					return;
				} catch (InterruptedException e) {
					interrupted = true; // the block must be written (or fail) before the stream is used again
				}
			}
		} catch (ExecutionException e) {
			Throwable cause = e.getCause();
			if (cause instanceof IOException io) {
				throw io;
			}
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new IOException(cause);
		} finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Waits for the background writer (if any) and ends its thread; what is still buffered is not written. For
	 * the end of an export, whether it completed (after {@link #flush()}) or not.
	 */
	public void stopWriter() throws IOException {
		if (writer != null) {
			try {
				awaitPending();
			} finally {
				writer.shutdown();
			}
		}
	}

	/** Bytes as they are (already encoded, e.g. a pre-escaped name). */
	public ByteSink raw(byte[] bytes) throws IOException {
		if (bytes.length > limit / 2) {
			flushBuffer();
			awaitPending();
			out.write(bytes);
			flushed += bytes.length;
			return this;
		}
		ensure(bytes.length);
		System.arraycopy(bytes, 0, buffer, position, bytes.length);
		position += bytes.length;
		return this;
	}

	/**
	 * Makes room for {@code n} bytes (writing the buffer out if needed), so that that many bytes may follow through
	 * the unchecked {@code put} methods, which an exporter uses for the fixed-size parts of a record.
	 */
	public void reserve(int n) throws IOException {
		ensure(n);
	}

	/** Bytes as they are, into room made by {@link #reserve(int)}. */
	void put(byte[] bytes) {
		System.arraycopy(bytes, 0, buffer, position, bytes.length);
		position += bytes.length;
	}

	/** {@code length} bytes from {@code offset}, into room made by {@link #reserve(int)}. */
	void put(byte[] bytes, int offset, int length) {
		System.arraycopy(bytes, offset, buffer, position, length);
		position += length;
	}

	/** A non-negative decimal, into room made by {@link #reserve(int)} (20 bytes). */
	void putDecimal(long value) {
		position = putDigitsFast(value, buffer, position);
	}

	/** {@link #micros(long)} of a non-negative time, into room made by {@link #reserve(int)} (24 bytes). */
	void putMicros(long nanos) {
		long whole = nanos / 1000;
		int p = putDigitsFast(whole, buffer, position);
		INT_LE.set(buffer, p, FRACTIONS[(int) (nanos - whole * 1000)]);
		position = p + 4;
	}

	/** {@code length} bytes of {@code bytes} from {@code offset}, as they are. */
	public ByteSink raw(byte[] bytes, int offset, int length) throws IOException {
		ensure(length);
		System.arraycopy(bytes, offset, buffer, position, length);
		position += length;
		return this;
	}

	/**
	 * Formats a non-negative value in decimal into {@code dst} at {@code offset} (20 bytes of room needed); returns
	 * the number of bytes written. For numbers written more than once, formatted once.
	 */
	public static int putDecimal(long value, byte[] dst, int offset) {
		return putDigitsFast(value, dst, offset) - offset;
	}

	/** {@link #micros(long)} into {@code dst} at {@code offset} (24 bytes of room); returns the bytes written. */
	public static int putMicros(long nanos, byte[] dst, int offset) {
		if (nanos < 0) {
			throw new IllegalArgumentException("negative time " + nanos);
		}
		long whole = nanos / 1000;
		int p = putDigitsFast(whole, dst, offset);
		INT_LE.set(dst, p, FRACTIONS[(int) (nanos - whole * 1000)]);
		return p + 4 - offset;
	}

	/** A string known to be ASCII (literals of the format). */
	public ByteSink ascii(String text) throws IOException {
		int n = text.length();
		if (n > limit / 2) {
			return raw(text.getBytes(StandardCharsets.UTF_8));
		}
		ensure(n);
		for (int i = 0; i < n; i++) {
			buffer[position++] = (byte) text.charAt(i);
		}
		return this;
	}

	public ByteSink ch(char c) throws IOException {
		ensure(1);
		buffer[position++] = (byte) c;
		return this;
	}

	/** A signed decimal integer. */
	public ByteSink decimal(long value) throws IOException {
		if (value == Long.MIN_VALUE) {
			return raw(LONG_MIN);
		}
		ensure(21);
		if (value < 0) {
			buffer[position++] = '-';
			value = -value;
		}
		position = putDigitsFast(value, buffer, position);
		return this;
	}

	/** An unsigned 64-bit integer in decimal. */
	public ByteSink unsignedDecimal(long value) throws IOException {
		if (value >= 0) {
			return decimal(value);
		}
		long quotient = (value >>> 1) / 5;
		long remainder = value - quotient * 10;
		decimal(quotient);
		return ch((char) ('0' + remainder));
	}

	private static final byte[] DIGIT_PAIRS = new byte[200];
	private static final byte[] HEX_PAIRS = new byte[512];
	private static final long[] POW10 = new long[19];
	static {
		for (int i = 0; i < 100; i++) {
			DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
			DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
		}
		for (int i = 0; i < 256; i++) {
			HEX_PAIRS[2 * i] = HEX[i >>> 4];
			HEX_PAIRS[2 * i + 1] = HEX[i & 0xf];
		}
		POW10[0] = 1;
		for (int i = 1; i < POW10.length; i++) {
			POW10[i] = POW10[i - 1] * 10;
		}
	}

	/** Number of decimal digits of a non-negative value. */
	static int digitCount(long value) {
		int log2 = 63 - Long.numberOfLeadingZeros(value | 1);
		int guess = (log2 * 1233) >>> 12; // floor(log10) or one less
		return guess + 1 + (guess + 1 < POW10.length && value >= POW10[guess + 1] ? 1 : 0);
	}

	private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
			ByteOrder.LITTLE_ENDIAN);
	private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class,
			ByteOrder.LITTLE_ENDIAN);
	/** {@code .ddd} for 0..999 as little-endian ints: the three decimals of a microsecond value in one store. */
	private static final int[] FRACTIONS = new int[1000];
	private static final long ASCII_ZEROS = 0x3030303030303030L;
	static {
		for (int f = 0; f < 1000; f++) {
			FRACTIONS[f] = '.' | ('0' + f / 100) << 8 | ('0' + f / 10 % 10) << 16 | ('0' + f % 10) << 24;
		}
	}

	/**
	 * The eight decimal digits of {@code 0 <= value < 10^8} (with leading zeros) as byte values 0-9 in a long whose
	 * little-endian byte order is the reading order: SWAR, splitting into 4+4, then 2+2, then 1+1 digits with
	 * multiply-shift divisions that are exact in these ranges (no division instruction, no loop).
	 */
	static long eightDigits(int value) {
		int high = value / 10_000;
		long merged = high | (long) (value - high * 10_000) << 32;
		long hundreds = ((merged * 10_486) >>> 20) & 0x0000_007F_0000_007FL;
		long pairs = (merged - 100 * hundreds) << 16 | hundreds;
		long tens = ((pairs * 103) >>> 10) & 0x000F_000F_000F_000FL;
		return (pairs - 10 * tens) << 8 | tens;
	}

	/**
	 * Writes a non-negative value in decimal at {@code p} of {@code b}, which has room for 8 bytes past the last
	 * digit (numbers below 10^8 are stored as one 8-byte word, of which the significant bytes are kept); returns the
	 * position after the last digit.
	 */
	private static int putDigitsFast(long value, byte[] b, int p) {
		if (value < 100_000_000L) {
			return putUpTo8(b, p, eightDigits((int) value));
		}
		if (value < 10_000_000_000_000_000L) {
			long high = value / 100_000_000L;
			p = putUpTo8(b, p, eightDigits((int) high));
			LONG_LE.set(b, p, eightDigits((int) (value - high * 100_000_000L)) + ASCII_ZEROS);
			return p + 8;
		}
		int end = p + digitCount(value);
		putDigits(value, b, end);
		return end;
	}

	/** The digits of {@link #eightDigits} without their leading zeros (one digit at least). */
	private static int putUpTo8(byte[] b, int p, long digits) {
		int leadingZeros = Long.numberOfTrailingZeros(digits | 1L << 56) >>> 3;
		LONG_LE.set(b, p, (digits + ASCII_ZEROS) >>> (leadingZeros << 3));
		return p + 8 - leadingZeros;
	}

	/** Writes the digits of a non-negative value so that the last one lands at {@code end - 1}. */
	private static void putDigits(long value, byte[] b, int end) {
		int p = end;
		while (value > Integer.MAX_VALUE) {
			long q = value / 100;
			int r = (int) (value - q * 100);
			b[--p] = DIGIT_PAIRS[2 * r + 1];
			b[--p] = DIGIT_PAIRS[2 * r];
			value = q;
		}
		int v = (int) value;
		while (v >= 100) {
			int q = v / 100;
			int r = v - q * 100;
			b[--p] = DIGIT_PAIRS[2 * r + 1];
			b[--p] = DIGIT_PAIRS[2 * r];
			v = q;
		}
		if (v >= 10) {
			b[--p] = DIGIT_PAIRS[2 * v + 1];
			b[--p] = DIGIT_PAIRS[2 * v];
		} else {
			b[--p] = (byte) ('0' + v);
		}
	}

	/**
	 * Nanoseconds as microseconds with three decimals ({@code 1234567 -> 1234.567}), the unit and precision of the
	 * {@code ts}/{@code dur} fields Kineto writes.
	 */
	public ByteSink micros(long nanos) throws IOException {
		if (nanos < 0) {
			ch('-');
			if (nanos == Long.MIN_VALUE) {
				return ascii("9223372036854775.808");
			}
			nanos = -nanos;
		}
		ensure(24);
		long whole = nanos / 1000;
		int p = putDigitsFast(whole, buffer, position);
		INT_LE.set(buffer, p, FRACTIONS[(int) (nanos - whole * 1000)]);
		position = p + 4;
		return this;
	}

	/** {@code 0x} and the lower-case hexadecimal of an unsigned 64-bit value, without leading zeros. */
	public ByteSink hexAddress(long value) throws IOException {
		ensure(18);
		buffer[position++] = '0';
		buffer[position++] = 'x';
		int digits = Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 3) / 4);
		for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
			buffer[position++] = HEX[(int) (value >>> shift) & 0xf];
		}
		return this;
	}

	private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
	private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class,
			ByteOrder.BIG_ENDIAN);

	/**
	 * The eight hexadecimal digits of {@code value} as ASCII bytes in a big-endian long (SWAR: the nibbles are spread
	 * to one per byte, then turned into {@code 0-9a-f} with one add and a correction for the letters).
	 */
	static long hexDigits(int value) {
		long x = Integer.toUnsignedLong(value);
		x = ((x & 0xFFFF0000L) << 16) | (x & 0xFFFFL);
		x = ((x & 0x0000FF000000FF00L) << 8) | (x & 0x000000FF000000FFL);
		x = ((x & 0x00F000F000F000F0L) << 4) | (x & 0x000F000F000F000FL);
		long letters = ((x + 0x0606060606060606L) >>> 4) & 0x0101010101010101L;
		return x + 0x3030303030303030L + 0x27 * letters;
	}

	/** Bytes as lower-case hexadecimal, two digits each. */
	public ByteSink hexBytes(byte[] bytes, int offset, int length) throws IOException {
		int chunk = limit / 4;
		for (int start = 0; start < length; start += chunk) {
			int n = Math.min(chunk, length - start);
			ensure(2 * n);
			byte[] out = buffer;
			int p = position;
			int from = offset + start;
			int end = from + n;
			for (; from + 4 <= end; from += 4, p += 8) {
				LONG_BE.set(out, p, hexDigits((int) INT_BE.get(bytes, from)));
			}
			for (; from < end; from++) {
				int b = (bytes[from] & 0xff) << 1;
				out[p++] = HEX_PAIRS[b];
				out[p++] = HEX_PAIRS[b + 1];
			}
			position = p;
		}
		return this;
	}

	/** A JSON string literal with its quotes, escaped per RFC 8259. */
	public ByteSink jsonString(String text) throws IOException {
		return raw(JsonEscape.quoted(text));
	}

	/**
	 * A CSV field per RFC 4180: as it is when it has no comma, quote, CR or LF, else quoted with quotes doubled.
	 */
	public ByteSink csvField(String text) throws IOException {
		boolean quote = false;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == ',' || c == '"' || c == '\n' || c == '\r') {
				quote = true;
				break;
			}
		}
		if (!quote) {
			return raw(text.getBytes(StandardCharsets.UTF_8));
		}
		return raw(("\"" + text.replace("\"", "\"\"") + "\"").getBytes(StandardCharsets.UTF_8));
	}

	public void flush() throws IOException {
		flushBuffer();
		awaitPending();
		out.flush();
	}

	@Override
	public void close() throws IOException {
		try {
			flushBuffer();
			awaitPending();
		} finally {
			try {
				if (writer != null) {
					writer.shutdown();
				}
			} finally {
				out.close();
			}
		}
	}
}
