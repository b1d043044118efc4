package org.phos.workbench.internal.live;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

import org.phos.workbench.live.LiveDevice;
import org.phos.workbench.live.ReplayException;
import org.phos.workbench.live.SurrogateKernels;
import org.phos.workbench.trace.core.Dim3;

/**
 * A {@link LiveDevice} in host memory whose streams run <b>late and interleaved at random</b>: every operation is
 * queued on its stream; on each call a few queued operations of random streams run (a stream's head runs only when
 * the event it waits for has completed); synchronisation runs until the queues are empty. So an engine that forgets
 * an event wait, or reads a buffer the application is still writing, produces wrong images here as it would on a GPU.
 * Time: each operation takes 1 µs, plus its bytes at 1 byte/ns, plus a spin's nanoseconds, on one clock.
 * Launches of real code are recorded and do nothing (no PTX runs here).
 */
public final class HostLiveDevice implements LiveDevice {

	private static final class Work {
		final BooleanSupplier ready;
		final Runnable run;
		final long ns;

		Work(BooleanSupplier ready, Runnable run, long ns) {
			this.ready = ready;
			this.run = run;
			this.ns = ns;
		}
	}

	private static final class Event {
		long recorded;
		long completed;
		long timeNs;
	}

	private final Random random;
	private final TreeMap<Long, byte[]> memory = new TreeMap<>();
	private final Map<Long, ByteBuffer> host = new HashMap<>();
	private final Map<Long, ArrayDeque<Work>> streams = new HashMap<>();
	private final Map<Long, Event> events = new HashMap<>();
	private final long next = 0x7000_0000_0000L;
	private long generation;
	private long handles = 100;
	private long clock;
	public final List<Long> realLaunches = new ArrayList<>();

	public HostLiveDevice(long seed) {
		random = new Random(seed);
		streams.put(0L, new ArrayDeque<>());
	}

	@Override
	public String deviceName() {
		return "host memory (random interleaving)";
	}

	@Override
	public int computeCapability() {
		return 90;
	}

	private void enqueue(long stream, BooleanSupplier ready, Runnable run, long ns) {
		ArrayDeque<Work> q = streams.get(stream);
		if (q == null) {
			throw new AssertionError("no stream " + stream);
		}
		q.addLast(new Work(ready, run, ns));
		progress(random.nextInt(3));
	}

	private void enqueue(long stream, Runnable run, long ns) {
		enqueue(stream, () -> true, run, ns);
	}

	/** Runs up to {@code steps} ready heads of random streams; returns whether anything ran. */
	private boolean progress(int steps) {
		boolean any = false;
		for (int i = 0; i < steps; i++) {
			List<ArrayDeque<Work>> ready = new ArrayList<>();
			for (ArrayDeque<Work> q : streams.values()) {
				if (!q.isEmpty() && q.peekFirst().ready.getAsBoolean()) {
					ready.add(q);
				}
			}
			if (ready.isEmpty()) {
				return any;
			}
			Work w = ready.get(random.nextInt(ready.size())).pollFirst();
			clock += 1_000 + w.ns;
			w.run.run();
			any = true;
		}
		return any;
	}

	private void drain(BooleanSupplier until) {
		while (!until.getAsBoolean()) {
			if (!progress(1)) {
				throw new AssertionError("deadlock: queued work waits for an event that is never recorded");
			}
		}
	}

	private Map.Entry<Long, byte[]> block(long address, long bytes) {
		Map.Entry<Long, byte[]> e = memory.floorEntry(address);
		if (e == null || address - e.getKey() + bytes > e.getValue().length) {
			throw new AssertionError("[0x" + Long.toHexString(address) + ", +" + bytes + ") not inside an allocation");
		}
		return e;
	}

	/**
	 * First fit in 64 KiB granules from a base that moves by 1 TiB each time all memory has been freed: a second
	 * replay places its buffers elsewhere, as the driver does, so relocated pointer words differ between replays.
	 */
	@Override
	public long allocate(long bytes) {
		long span = (bytes + 0xffff) & ~0xffffL;
		long a = next + (generation << 40);
		for (Map.Entry<Long, byte[]> e : memory.entrySet()) {
			if (e.getKey() - a >= span) {
				break;
			}
			a = Math.max(a, e.getKey() + ((e.getValue().length + 0xffffL) & ~0xffffL));
		}
		memory.put(a, new byte[(int) bytes]);
		return a;
	}

	private long capacity = -1;

	/** Gives this device {@code bytes} of memory: {@link #freeMemory()} is then that less what is allocated. */
	public HostLiveDevice withMemory(long bytes) {
		capacity = bytes;
		return this;
	}

	/** The capacity given ({@link #withMemory}) less the allocated bytes; else the Java heap not in use. */
	@Override
	public long freeMemory() {
		if (capacity >= 0) {
			long used = 0;
			for (byte[] b : memory.values()) {
				used += b.length;
			}
			return capacity - used;
		}
		Runtime r = Runtime.getRuntime();
		return r.maxMemory() - (r.totalMemory() - r.freeMemory());
	}

	@Override
	public long allocateUninitialized(long bytes) {
		long a = allocate(bytes);
		random.nextBytes(memory.get(a));
		return a;
	}

	@Override
	public void free(long address) {
		synchronize();
		if (memory.remove(address) == null) {
			throw new AssertionError("free of 0x" + Long.toHexString(address));
		}
		if (memory.isEmpty()) {
			generation++;
		}
	}

	@Override
	public void copyToDevice(long dst, byte[] data, int offset, int length, long stream) {
		byte[] copy = java.util.Arrays.copyOfRange(data, offset, offset + length);
		var b = block(dst, length);
		enqueue(stream, () -> System.arraycopy(copy, 0, b.getValue(), (int) (dst - b.getKey()), length), length);
	}

	@Override
	public void copyOnDevice(long dst, long src, long bytes, long stream) {
		var d = block(dst, bytes);
		var s = block(src, bytes);
		enqueue(stream, () -> System.arraycopy(s.getValue(), (int) (src - s.getKey()), d.getValue(),
				(int) (dst - d.getKey()), (int) bytes), bytes);
	}

	@Override
	public void copyToHost(long src, byte[] data, int offset, int length) {
		synchronize();
		var s = block(src, length);
		System.arraycopy(s.getValue(), (int) (src - s.getKey()), data, offset, length);
	}

	@Override
	public void fill(long dst, int value, int elementSize, long count, long stream) {
		var b = block(dst, count * elementSize);
		enqueue(stream, () -> {
			int at = (int) (dst - b.getKey());
			for (long i = 0; i < count; i++) {
				for (int k = 0; k < elementSize; k++) {
					b.getValue()[at++] = (byte) (value >>> (8 * k));
				}
			}
		}, count * elementSize);
	}

	@Override
	public long loadModule(String ptx) {
		return handles++;
	}

	@Override
	public long function(long module, String name) {
		return handles++;
	}

	@Override
	public DeviceSymbol global(long module, String name) {
		throw new UnsupportedOperationException("no module globals here");
	}

	@Override
	public void launch(long function, Dim3 grid, Dim3 block, int sharedMem, long stream, List<byte[]> params) {
		enqueue(stream, () -> realLaunches.add(function), 0);
	}

	@Override
	public long createStream(boolean nonBlocking) {
		long h = handles++;
		streams.put(h, new ArrayDeque<>());
		return h;
	}

	@Override
	public long createEvent() {
		long h = handles++;
		events.put(h, new Event());
		return h;
	}

	@Override
	public void recordEvent(long event, long stream) {
		Event e = events.get(event);
		long gen = ++e.recorded;
		enqueue(stream, () -> {
			e.completed = Math.max(e.completed, gen);
			e.timeNs = clock;
		}, 0);
	}

	@Override
	public void waitEvent(long stream, long event) {
		Event e = events.get(event);
		long gen = e.recorded;
		enqueue(stream, () -> e.completed >= gen, () -> {
		}, 0);
	}

	@Override
	public float elapsedMs(long start, long end) {
		Event a = events.get(start);
		Event b = events.get(end);
		drain(() -> a.completed >= a.recorded && b.completed >= b.recorded);
		return (b.timeNs - a.timeNs) / 1e6f;
	}

	@Override
	public void synchronize() {
		drain(() -> streams.values().stream().allMatch(ArrayDeque::isEmpty));
	}

	@Override
	public void synchronize(long stream) {
		ArrayDeque<Work> q = streams.get(stream);
		drain(q::isEmpty);
	}

	@Override
	public boolean done(long event) {
		progress(1 + random.nextInt(4));
		Event e = events.get(event);
		return e.completed >= e.recorded;
	}

	@Override
	public long allocateHost(long bytes) {
		long h = handles++;
		host.put(h, ByteBuffer.allocate((int) bytes));
		return h;
	}

	@Override
	public void freeHost(long handle) {
		host.remove(handle);
	}

	@Override
	public ByteBuffer hostBuffer(long handle) {
		return host.get(handle).duplicate().clear();
	}

	@Override
	public void copyToHostAsync(long hostBlock, long offset, long src, long bytes, long stream) {
		ByteBuffer h = host.get(hostBlock);
		var s = block(src, bytes);
		enqueue(stream, () -> h.put((int) offset, s.getValue(), (int) (src - s.getKey()), (int) bytes), bytes);
	}

	@Override
	public void copyFromHostAsync(long dst, long hostBlock, long offset, long bytes, long stream) {
		ByteBuffer h = host.get(hostBlock);
		var d = block(dst, bytes);
		enqueue(stream, () -> h.get((int) offset, d.getValue(), (int) (dst - d.getKey()), (int) bytes), bytes);
	}

	@Override
	public void surrogateWrite(long dst, long bytes, long seed, long first, long stream) {
		var b = block(dst, bytes);
		enqueue(stream, () -> {
			int at = (int) (dst - b.getKey());
			for (long i = 0; i < bytes; i++) {
				b.getValue()[at + (int) i] = SurrogateKernels.pattern(seed, first + i);
			}
		}, bytes);
	}

	@Override
	public void spin(long ns, long stream) {
		enqueue(stream, () -> {
		}, ns);
	}

	@Override
	public void close() {
		memory.clear();
		host.clear();
	}
}
