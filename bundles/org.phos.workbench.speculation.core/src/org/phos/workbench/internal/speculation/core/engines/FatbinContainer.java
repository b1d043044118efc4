package org.phos.workbench.internal.speculation.core.engines;

import org.eclipse.jdt.annotation.Nullable;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the entries of CUDA fat binary containers (the {@code .nv_fatbin} payload): a 16-byte header (u32 magic
 * {@code 0xBA55ED50}, u16 version, u16 header size, u64 size of what follows), then entries, each a header (64 bytes
 * or more: +0 u16 kind, 1 = PTX, 2 = cubin; +4 u32 header size; +8 u32 padded payload size; +0x10 u32 payload
 * size; +0x1c u32 SM version; +0x28 u64 flags, 0x2000 LZ4 and 0x8000 ZSTD compression; +0x38 u64 uncompressed
 * size) followed by its payload. Several containers may follow each other. The layout is reverse-engineered
 * (ZLUDA, cuobjdump) and undocumented, so every length is checked against the image and a bad one ends reading
 * with a note instead of an exception.
 */
public final class FatbinContainer {

	/** The container magic. */
	public static final int MAGIC = 0xBA55ED50;
	/** Entry kind of PTX text. */
	public static final int KIND_PTX = 1;
	/** Entry kind of a cubin. */
	public static final int KIND_CUBIN = 2;
	private static final long FLAG_LZ4 = 0x2000;
	private static final long FLAG_ZSTD = 0x8000;
	/** Largest PTX entry inflated (PTX of big libraries reaches tens of MB). */
	private static final long MAX_INFLATED = 512L << 20;

	/**
	 * One entry.
	 *
	 * @param kind 1 PTX, 2 cubin, other values as found
	 * @param smVersion the SM version it targets (90 for sm_90)
	 * @param offset byte offset of its header in the image
	 * @param compressed whether the payload is still compressed (LZ4, or a zstd frame that did not inflate); zstd
	 *            entries are inflated
	 * @param payload the payload bytes as stored (no copy is made beyond this array)
	 */
	public record Entry(int kind, int smVersion, int offset, boolean compressed, byte[] payload) {

		/** @return the payload as PTX text, without trailing NULs */
		public String text() {
			int end = payload.length;
			while (end > 0 && payload[end - 1] == 0) {
				end--;
			}
			return new String(payload, 0, end, StandardCharsets.UTF_8);
		}
	}

	/**
	 * What was read.
	 *
	 * @param entries the entries of all containers, in image order
	 * @param problems why reading stopped early, if it did (with byte offsets)
	 */
	public record Contents(List<Entry> entries, List<String> problems) {
	}

	private FatbinContainer() {
	}

	/** @return the decompressed bytes, or null when the frame is damaged or its size is implausible */
	private static byte @Nullable [] inflateZstd(byte[] frame, long inflatedSize) {
		if (inflatedSize <= 0 || inflatedSize > MAX_INFLATED) {
			return null;
		}
		try {
			byte[] out = com.github.luben.zstd.Zstd.decompress(frame, (int) inflatedSize);
			return out.length == inflatedSize ? out : null;
		} catch (RuntimeException e) {
			return null;
		}
	}

	/** @return whether the image starts with the fatbin magic */
	public static boolean isFatbin(byte[] image) {
		return image.length >= 4 && ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).getInt(0) == MAGIC;
	}

	/**
	 * @param image a fatbin image (one or more containers)
	 * @return its entries
	 */
	public static Contents read(byte[] image) {
		ByteBuffer b = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
		List<Entry> entries = new ArrayList<>();
		List<String> problems = new ArrayList<>();
		int at = 0;
		while (at + 16 <= image.length) {
			if (b.getInt(at) != MAGIC) {
				if (at == 0) {
					problems.add("offset 0: not a fatbin (magic 0x" + Integer.toHexString(b.getInt(0)) + ")");
				}
				break;
			}
			int headerSize = Short.toUnsignedInt(b.getShort(at + 6));
			long size = b.getLong(at + 8);
			long end = at + (long) headerSize + size;
			if (headerSize < 16 || size < 0 || end > image.length) {
				problems.add("offset " + at + ": container header size " + headerSize + " and size " + size
						+ " pass the end of the " + image.length + "-byte image");
				break;
			}
			int entry = at + headerSize;
			while (entry + 64 <= end) {
				int kind = Short.toUnsignedInt(b.getShort(entry));
				long entryHeader = Integer.toUnsignedLong(b.getInt(entry + 4));
				long padded = Integer.toUnsignedLong(b.getInt(entry + 8));
				long payloadSize = Integer.toUnsignedLong(b.getInt(entry + 0x10));
				int sm = b.getInt(entry + 0x1c);
				long flags = b.getLong(entry + 0x28);
				if (entryHeader < 64 || payloadSize > padded || entry + entryHeader + padded > end) {
					problems.add("offset " + entry + ": entry header size " + entryHeader + ", payload " + payloadSize
							+ " (padded " + padded + ") pass the end of its container at " + end);
					break;
				}
				int from = (int) (entry + entryHeader);
				byte[] payload = java.util.Arrays.copyOfRange(image, from, from + (int) payloadSize);
				boolean compressed = (flags & (FLAG_LZ4 | FLAG_ZSTD)) != 0;
				if ((flags & FLAG_ZSTD) != 0) {
					// nvcc 13 zstd-compresses PTX entries by default; the inflated size is in the entry header
					byte[] inflated = inflateZstd(payload, b.getLong(entry + 0x38));
					if (inflated != null) {
						payload = inflated;
						compressed = false;
					} else {
						problems.add("offset " + entry + ": zstd entry (sm_" + sm + ") does not decompress");
					}
				}
				entries.add(new Entry(kind, sm, entry, compressed, payload));
				entry = (int) (entry + entryHeader + padded);
			}
			int next = (int) end;
			at = next + 4 <= image.length && b.getInt(next) == MAGIC ? next : (int) ((end + 7) & ~7L);
		}
		return new Contents(entries, problems);
	}
}
