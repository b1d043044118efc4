package org.phos.workbench.live;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A checkpoint image in pinned host memory: for each buffer of the snapshot its bytes at the image's instant. The
 * bytes live in blocks of {@link LiveDevice#allocateHost pinned host memory} (at most {@value #BLOCK} bytes each, as
 * JCuda maps a block as one ByteBuffer); each buffer starts at a multiple of 4 KiB and may span blocks. An image is
 * filled by device-to-host copies ({@link #copyIn}) and read or compared on the host once they completed.
 */
public final class LiveImage implements AutoCloseable {

	/** Bytes of one pinned block. */
	public static final long BLOCK = 1L << 30;
	private static final long ALIGN = 4096;

	/** Where one buffer's bytes sit in the image. */
	public record Region(int buffer, long offset, long size) {
	}

	private final LiveDevice device;
	private final Map<Integer, Region> regions = new TreeMap<>();
	private final List<Long> blocks = new ArrayList<>();
	private long totalBytes;

	/**
	 * Reserves pinned memory for the buffers.
	 *
	 * @param sizes buffer id to size
	 */
	public LiveImage(LiveDevice device, Map<Integer, Long> sizes) throws ReplayException {
		this.device = device;
		long at = 0;
		long bytes = 0;
		for (Map.Entry<Integer, Long> e : new TreeMap<>(sizes).entrySet()) {
			regions.put(e.getKey(), new Region(e.getKey(), at, e.getValue()));
			at += (e.getValue() + ALIGN - 1) / ALIGN * ALIGN;
			bytes += e.getValue();
		}
		totalBytes = bytes;
		try {
			for (long b = 0; b < at; b += BLOCK) {
				blocks.add(device.allocateHost(Math.min(BLOCK, at - b)));
			}
		} catch (ReplayException e) {
			close();
			throw e;
		}
	}

	/**
	 * Adds a region for a buffer allocated after the image was reserved (soft recopy), in pinned blocks of its own.
	 */
	public void extend(int buffer, long bytes) throws ReplayException {
		if (regions.containsKey(buffer)) {
			throw new IllegalArgumentException("buffer " + buffer + " is already in the image");
		}
		long start = blocks.size() * BLOCK;
		for (long b = 0; b < bytes; b += BLOCK) {
			blocks.add(device.allocateHost(Math.min(BLOCK, bytes - b)));
		}
		regions.put(buffer, new Region(buffer, start, bytes));
		totalBytes += bytes;
	}

	/** Removes a buffer freed before the image was complete (soft recopy: the image is of a later state). */
	public void drop(int buffer) {
		Region r = regions.remove(buffer);
		if (r != null) {
			totalBytes -= r.size();
		}
	}

	/** @return the buffers' regions, by buffer id */
	public Map<Integer, Region> regions() {
		return regions;
	}

	/** @return bytes of the buffers in the image */
	public long bytes() {
		return totalBytes;
	}

	public @Nullable Region region(int buffer) {
		return regions.get(buffer);
	}

	/**
	 * Copies {@code bytes} from device address {@code src} into buffer {@code buffer}'s region at {@code from},
	 * asynchronously on {@code stream} (split where the region crosses a block).
	 */
	public void copyIn(int buffer, long from, long src, long bytes, long stream) throws ReplayException {
		Region r = regions.get(buffer);
		if (r == null || from < 0 || from + bytes > r.size()) {
			throw new IllegalArgumentException("buffer " + buffer + " [" + from + ", +" + bytes + ") is not in the image");
		}
		long pos = r.offset() + from;
		long done = 0;
		while (done < bytes) {
			int block = (int) (pos / BLOCK);
			long inBlock = pos % BLOCK;
			long n = Math.min(bytes - done, BLOCK - inBlock);
			device.copyToHostAsync(blocks.get(block), inBlock, src + done, n, stream);
			pos += n;
			done += n;
		}
	}

	/**
	 * Copies {@code bytes} of buffer {@code buffer}'s region from {@code from} to device address {@code dst},
	 * asynchronously on {@code stream} (a restore).
	 */
	public void copyOut(int buffer, long from, long dst, long bytes, long stream) throws ReplayException {
		Region r = regions.get(buffer);
		if (r == null || from < 0 || from + bytes > r.size()) {
			throw new IllegalArgumentException("buffer " + buffer + " [" + from + ", +" + bytes + ") is not in the image");
		}
		long pos = r.offset() + from;
		long done = 0;
		while (done < bytes) {
			int block = (int) (pos / BLOCK);
			long inBlock = pos % BLOCK;
			long n = Math.min(bytes - done, BLOCK - inBlock);
			device.copyFromHostAsync(dst + done, blocks.get(block), inBlock, n, stream);
			pos += n;
			done += n;
		}
	}

	/** Reads {@code length} bytes of a buffer's region from {@code from} (after the copies completed). */
	public byte[] read(int buffer, long from, int length) {
		Region r = regions.get(buffer);
		if (r == null || from < 0 || from + length > r.size()) {
			throw new IllegalArgumentException("buffer " + buffer + " [" + from + ", +" + length + ") is not in the image");
		}
		byte[] out = new byte[length];
		long pos = r.offset() + from;
		int done = 0;
		while (done < length) {
			int block = (int) (pos / BLOCK);
			int inBlock = (int) (pos % BLOCK);
			int n = (int) Math.min(length - done, BLOCK - inBlock);
			device.hostBuffer(blocks.get(block)).get(inBlock, out, done, n);
			pos += n;
			done += n;
		}
		return out;
	}

	/**
	 * Whether two differing 8-byte words of two replays' images are the same pointer: an address into the same buffer
	 * at the same offset, each in its own replay's placement of the buffers.
	 */
	public static final class Relocation {
		private final List<LiveRunResult.Placement> mine;
		private final Map<Integer, LiveRunResult.Placement> theirs = new java.util.HashMap<>();
		private long matched;

		public Relocation(List<LiveRunResult.Placement> mine, List<LiveRunResult.Placement> theirs) {
			this.mine = mine;
			theirs.forEach(p -> this.theirs.put(p.buffer(), p));
		}

		boolean same(long a, long b) {
			for (LiveRunResult.Placement p : mine) {
				if (Long.compareUnsigned(a - p.address(), p.size()) < 0) {
					LiveRunResult.Placement q = theirs.get(p.buffer());
					if (q != null && b - q.address() == a - p.address()) {
						matched++;
						return true;
					}
				}
			}
			return false;
		}

		/** Differing words found to be the same pointer so far. */
		public long matched() {
			return matched;
		}
	}

	/** The first difference of two images, in words; null when they hold the same buffers with equal bytes. */
	public @Nullable String firstDifference(LiveImage other) {
		return firstDifference(other, null);
	}

	/**
	 * As {@link #firstDifference(LiveImage)}, except that an 8-byte word (aligned in its buffer) that differs only as
	 * the two replays' addresses of the same buffer byte differ counts as equal ({@code relocation}, from this
	 * image's replay to the other's).
	 */
	public @Nullable String firstDifference(LiveImage other, @Nullable Relocation relocation) {
		if (!regions.keySet().equals(other.regions.keySet())) {
			return "buffer sets differ: " + regions.keySet() + " vs " + other.regions.keySet();
		}
		for (Region r : regions.values()) {
			Region o = other.regions.get(r.buffer());
			if (o.size() != r.size()) {
				return "buffer " + r.buffer() + ": " + r.size() + " vs " + o.size() + " bytes";
			}
			long step = 64L << 20;
			for (long at = 0; at < r.size(); at += step) {
				int n = (int) Math.min(step, r.size() - at);
				ByteBuffer a = slice(r, at, n);
				ByteBuffer b = other.slice(o, at, n);
				int from = 0;
				while (true) {
					int m = a.slice(from, n - from).mismatch(b.slice(from, n - from));
					if (m < 0) {
						break;
					}
					long pos = at + from + m;
					long word = pos & ~7L;
					if (relocation == null || word + 8 > r.size() || word < at || word + 8 > at + n) {
						return "buffer " + r.buffer() + " differs at byte " + pos + " of " + r.size();
					}
					int w = (int) (word - at);
					long wa = a.order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(w);
					long wb = b.order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(w);
					if (!relocation.same(wa, wb)) {
						return "buffer " + r.buffer() + " differs at byte " + pos + " of " + r.size()
								+ " (not the same pointer in the two replays)";
					}
					from = w + 8;
					if (from >= n) {
						break;
					}
				}
			}
		}
		return null;
	}

	/** Bytes {@code [at, at+n)} of a region as one buffer (a copy where the range crosses a block). */
	private ByteBuffer slice(Region r, long at, int n) {
		long pos = r.offset() + at;
		int block = (int) (pos / BLOCK);
		int inBlock = (int) (pos % BLOCK);
		if (inBlock + (long) n <= BLOCK) {
			return device.hostBuffer(blocks.get(block)).slice(inBlock, n);
		}
		return ByteBuffer.wrap(read(r.buffer(), at, n));
	}

	@Override
	public void close() {
		for (long b : blocks) {
			device.freeHost(b);
		}
		blocks.clear();
	}
}
