package org.phos.workbench.live;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.live.JCudaExecutor;
import org.phos.workbench.internal.live.SelfTestTrace;
import org.phos.workbench.speculation.core.instrument.AccessTableLayout;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;

/**
 * The replay's bookkeeping on the CPU (an executor that keeps device memory in host arrays and records launches),
 * and, tagged {@code gpu}, the self-test trace on a real GPU against the kernels' known accesses.
 */
class GpuReplayTest {

	private static String samplePtx() throws Exception {
		Path p = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces/programs/ptx/ptx_kernels.ptx");
		return Files.readString(p);
	}

	/** Device memory as host arrays at made-up addresses; launches are recorded, not run. */
	static class HostExecutor implements ReplayExecutor {
		final List<long[]> allocations = new ArrayList<>(); // base, size
		final List<byte[]> memory = new ArrayList<>();
		final List<List<byte[]>> launches = new ArrayList<>();
		final List<String> loaded = new ArrayList<>();
		long next = 0x5000_0000L;
		int tableWrites;
		/** Ranges the access table holds (the layout the replay is given). */
		int tableRanges = 8;

		@Override
		public String deviceName() {
			return "host";
		}

		@Override
		public long allocate(long bytes) {
			long base = next;
			next += (bytes + 0xffff) & ~0xffffL;
			allocations.add(new long[] { base, bytes });
			memory.add(new byte[(int) bytes]);
			return base;
		}

		private int block(long address) {
			for (int i = 0; i < allocations.size(); i++) {
				long[] a = allocations.get(i);
				if (address >= a[0] && address < a[0] + a[1]) {
					return i;
				}
			}
			throw new AssertionError("0x" + Long.toHexString(address) + " not allocated");
		}

		@Override
		public void free(long address) {
			int b = block(address);
			assertEquals(address, allocations.get(b)[0]);
			allocations.remove(b);
			memory.remove(b);
		}

		@Override
		public void copyToDevice(long dst, byte[] data, int offset, int length, long stream) {
			if (dst == 0x10) {
				tableWrites++;
				return;
			}
			int b = block(dst);
			System.arraycopy(data, offset, memory.get(b), (int) (dst - allocations.get(b)[0]), length);
		}

		@Override
		public void copyOnDevice(long dst, long src, long bytes, long stream) {
		}

		@Override
		public void copyToHost(long src, byte[] data, int offset, int length) {
			// the table as the host wrote it: nothing touched
			byte[] image = org.phos.workbench.speculation.core.instrument.AccessTable
					.of(new AccessTableLayout(tableRanges), List.of()).image();
			ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).putLong(0, allocations.size());
			System.arraycopy(image, 0, data, offset, length);
		}

		@Override
		public void fill(long dst, int value, int elementSize, long count, long stream) {
			int b = block(dst);
			int from = (int) (dst - allocations.get(b)[0]);
			java.util.Arrays.fill(memory.get(b), from, from + (int) (count * elementSize), (byte) value);
		}

		@Override
		public long loadModule(String ptx) {
			loaded.add(ptx);
			return loaded.size();
		}

		@Override
		public long function(long module, String name) {
			return 1;
		}

		@Override
		public DeviceSymbol global(long module, String name) {
			assertEquals(AccessTableLayout.SYMBOL, name);
			return new DeviceSymbol(0x10, new AccessTableLayout(tableRanges).bytes());
		}

		@Override
		public void launch(long function, Dim3 grid, Dim3 block, int sharedMem, long stream, List<byte[]> params) {
			launches.add(params);
		}

		@Override
		public long createStream(boolean nonBlocking) {
			return 1;
		}

		@Override
		public long createEvent() {
			return 1;
		}

		@Override
		public void recordEvent(long event, long stream) {
		}

		@Override
		public void waitEvent(long stream, long event) {
		}

		@Override
		public float elapsedMs(long start, long end) {
			return 1f;
		}

		@Override
		public void synchronize() {
		}

		@Override
		public void close() {
		}
	}

	@Test
	void relocatesLaunchParametersAndReplaysCopies() throws Exception {
		Trace trace = SelfTestTrace.build(samplePtx());
		HostExecutor host = new HostExecutor();
		GpuReplayResult r = GpuReplay.run(trace, host, new GpuReplay.Options(true, new AccessTableLayout(8)), null);
		assertEquals(3, r.replayedLaunches());
		assertEquals(0, r.skippedLaunches());
		assertEquals(3, host.tableWrites, "the table is filled before every launch");
		assertEquals(1, host.loaded.size());
		assertTrue(host.loaded.get(0).contains(AccessTableLayout.SYMBOL), "the instrumented module is loaded");
		// saxpy(x, y, 2f, 1000): pointers moved to the replay allocations (x first, y second), scalars kept
		List<byte[]> saxpy = host.launches.get(0);
		assertEquals(4, saxpy.size());
		assertEquals(0x5000_0000L, ByteBuffer.wrap(saxpy.get(0)).order(ByteOrder.LITTLE_ENDIAN).getLong());
		assertEquals(0x5001_0000L, ByteBuffer.wrap(saxpy.get(1)).order(ByteOrder.LITTLE_ENDIAN).getLong());
		assertEquals(2f, ByteBuffer.wrap(saxpy.get(2)).order(ByteOrder.LITTLE_ENDIAN).getFloat());
		assertEquals(1000, ByteBuffer.wrap(saxpy.get(3)).order(ByteOrder.LITTLE_ENDIAN).getInt());
		// block_sum(x, n, out): out is the third allocation
		assertEquals(0x5002_0000L,
				ByteBuffer.wrap(host.launches.get(2).get(2)).order(ByteOrder.LITTLE_ENDIAN).getLong());
		assertEquals(2 * 3, r.relocatedWords(), "two pointers per launch, none in the float payload");
		assertEquals(3, r.timings().size());
		assertTrue(host.allocations.isEmpty(), "everything is freed at the end");
		assertEquals(List.of(), r.observed(), "an untouched table decodes to nothing");
	}

	@Test
	void replaysTheKernelsOfAFatbinThroughItsEmbeddedPtxGraphNodesIncluded() throws Exception {
		// the CUDA C suite: nvcc's fatbin holds sm_90 SASS and the compute_90 PTX the replay instruments
		Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces/cuda-suite.phos");
		Trace trace = org.phos.workbench.trace.core.TraceReader.read(file, null).trace();
		org.phos.workbench.trace.core.ModuleInfo module = trace.modules().get(0);
		assertEquals(org.phos.workbench.trace.core.ModuleKind.FATBIN, module.kind());
		String ptx = GpuReplay.ptxText(module, 90);
		assertNotNull(ptx, "the fatbin's PTX entry");
		assertTrue(ptx.contains(".target sm_90") && ptx.contains(".entry _Z12indirect_sumPKPKfjiPf"), ptx.substring(0,
				Math.min(ptx.length(), 300)));
		HostExecutor host = new HostExecutor();
		host.tableRanges = 16; // the suite has 9 allocations
		GpuReplayResult r = GpuReplay.run(trace, host, new GpuReplay.Options(true, new AccessTableLayout(16)), null);
		assertEquals(17, r.replayedLaunches(), "11 direct launches and 6 graph-node launches");
		assertEquals(0, r.skippedLaunches());
		assertEquals(1, host.loaded.size());
		assertTrue(host.loaded.get(0).contains(AccessTableLayout.SYMBOL), "the instrumented PTX is loaded");
	}

	@Test
	void aFatbinWithoutPtxHasNoText() {
		byte[] notFatbin = new byte[64];
		assertNull(GpuReplay.fatbinPtx(notFatbin, 90));
	}

	@Test
	void libraryFatbinsWithPtxOnlyForNewerDevicesAreNotLoaded() throws Exception {
		// cuRAND's fatbins in the CuPy sample carry cubins for sm_75..sm_120 but PTX only for sm_120, which an sm_90
		// device's JIT refuses (CUDA_ERROR_INVALID_PTX ended the first replay of such a trace on the H200)
		Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces/cupy-ops.phos");
		Trace trace = org.phos.workbench.trace.core.TraceReader.read(file, null).trace();
		org.phos.workbench.trace.core.ModuleInfo library = trace.modules().stream()
				.filter(m -> m.kind() == org.phos.workbench.trace.core.ModuleKind.FATBIN && m.image().length > 0
						&& GpuReplay.fatbinPtxTargets(m.image()).length > 0
						&& GpuReplay.fatbinPtxTargets(m.image())[0] > 90)
				.findFirst().orElseThrow();
		assertArrayEquals(new int[] { 120 }, GpuReplay.fatbinPtxTargets(library.image()));
		assertNull(GpuReplay.ptxText(library, 90), "no PTX an sm_90 device can compile");
		String newest = GpuReplay.ptxText(library, 120);
		assertNotNull(newest);
		assertTrue(newest.contains(".target sm_120"), newest.substring(0, Math.min(300, newest.length())));
		// the whole trace as the H200 replayed it: CuPy's 19 launches from PTX, the 14 of cuRAND and cuBLAS skipped
		HostExecutor host = new HostExecutor();
		host.tableRanges = 64;
		GpuReplayResult r = GpuReplay.run(trace, host, new GpuReplay.Options(true, new AccessTableLayout(64)), null);
		assertEquals(19, r.replayedLaunches(), String.join("\n", r.notes()));
		assertEquals(14, r.skippedLaunches(), String.join("\n", r.notes()));
		assertTrue(r.notes().stream().anyMatch(n -> n.contains("image was not recorded (over the recorder's "
				+ "PHOS_MODULE_IMAGE_LIMIT); its launches are skipped")), String.join("\n", r.notes()));
	}

	/** Reports, after every launch, that it read {@code x[0, 4000)} (the first allocation, slot 0). */
	static final class ReadsX extends HostExecutor {
		@Override
		public void copyToHost(long src, byte[] data, int offset, int length) {
			AccessTableLayout layout = new AccessTableLayout(tableRanges);
			ByteBuffer b = ByteBuffer.wrap(org.phos.workbench.speculation.core.instrument.AccessTable
					.of(layout, List.of()).image()).order(ByteOrder.LITTLE_ENDIAN);
			b.putLong(0, allocations.size());
			int at = (int) layout.slotOffset(0);
			b.putLong(at, 0x5000_0000L).putLong(at + 8, 0x5000_0000L + 4000).putLong(at + 16, -1L)
					.putLong(at + 24, 0).putLong(at + 32, 1000).putLong(at + 40, 0);
			System.arraycopy(b.array(), 0, data, offset, length);
		}
	}

	/** The self-test trace with only the first {@code captured} bytes of its 4 KiB copy into x recorded. */
	static Trace withPayload(Trace full, int captured) {
		Trace.Builder b = Trace.builder(full.header());
		full.modules().forEach(b::module);
		full.functions().forEach(b::function);
		for (int i = 0; i < full.eventCount(); i++) {
			org.phos.workbench.trace.core.TraceEvent e = full.event(i);
			if (e instanceof org.phos.workbench.trace.core.TraceEvent.Memcpy m) {
				e = new org.phos.workbench.trace.core.TraceEvent.Memcpy(m.hostNs(), m.thread(), m.copyKind(), m.src(),
						m.dst(), m.bytes(), m.stream(), m.async(), java.util.Arrays.copyOf(m.payload(), captured),
						m.gpuStartNs(), m.gpuEndNs());
			}
			b.event(e);
		}
		return b.build();
	}

	@Test
	void launchesThatReadBytesTheReplayDidNotHaveAreMarkedUnreliable() throws Exception {
		Trace full = SelfTestTrace.build(samplePtx());
		GpuReplayResult ok = GpuReplay.run(full, new ReadsX(), new GpuReplay.Options(true, new AccessTableLayout(8)),
				null);
		assertEquals(3, ok.observed().size());
		assertEquals(0, ok.unreliableLaunches());
		assertTrue(ok.observed().stream().noneMatch(ObservedAccess::inputsUnknown), ok.observed().toString());
		// 1 KiB of the 4 KiB copy recorded: the replay writes zeros over x[1024, 4096), which every launch reads
		GpuReplayResult r = GpuReplay.run(withPayload(full, 1024), new ReadsX(),
				new GpuReplay.Options(true, new AccessTableLayout(8)), null);
		assertEquals(1, r.zeroFilledCopies());
		assertEquals(3, r.unreliableLaunches());
		assertTrue(r.observed().stream().allMatch(ObservedAccess::inputsUnknown), r.observed().toString());
	}

	@Test
	void instrumentExitsNonZeroAndSaysHowManyLaunchesItCannotStandBehind(@org.junit.jupiter.api.io.TempDir Path dir)
			throws Exception {
		Path in = dir.resolve("partial.phos");
		Path out = dir.resolve("partial-observed.phos");
		org.phos.workbench.speculation.core.instrument.ObservedTraceWriter
				.write(withPayload(SelfTestTrace.build(samplePtx()), 1024), List.of(), in);
		java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
		java.io.ByteArrayOutputStream e = new java.io.ByteArrayOutputStream();
		int exit = InstrumentMain.run(new String[] { in.toString(), out.toString() }, new java.io.PrintStream(o, true),
				new java.io.PrintStream(e, true), () -> {
					ReadsX x = new ReadsX();
					x.tableRanges = AccessTableLayout.DEFAULT.maxRanges();
					return x;
				});
		assertEquals(4, exit, o + "\n" + e);
		assertTrue(e.toString().contains("UNRELIABLE: the truth of 3 of 3 observed launches"), e.toString());
		assertTrue(e.toString().contains("PHOS_PAYLOAD_LIMIT"), e.toString());
		Trace written = org.phos.workbench.trace.core.TraceReader.read(out, null).trace();
		assertEquals(3, written.observedAccesses().size());
		assertTrue(written.observedAccesses().stream().allMatch(ObservedAccess::inputsUnknown),
				"the marks survive the file");
	}

	@Test
	@Tag("gpu")
	void observesTheKnownAccessesOfTheSampleKernels() throws Exception {
		Trace trace = SelfTestTrace.build(samplePtx());
		try (JCudaExecutor gpu = new JCudaExecutor()) {
			GpuReplayResult r = GpuReplay.run(trace, gpu, new GpuReplay.Options(true, AccessTableLayout.DEFAULT),
					null);
			List<ObservedAccess> expected = SelfTestTrace.expected(GpuReplay.TOOL);
			assertEquals(expected, r.observed());
		}
	}
}
