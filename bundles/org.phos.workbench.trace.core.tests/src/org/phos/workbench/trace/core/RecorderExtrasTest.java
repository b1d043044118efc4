package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What issue 16 added to the format, read from traces the recorder wrote: CUDA arrays, array copies, host functions in
 * streams, tensor maps and the calls TraceEnd counts as unrecorded. {@code fake-extras-*.phos} are the CPU tests'
 * recordings of {@code fake_app more} over the fake libcuda (one by LD_PRELOAD, one by CUDA_INJECTION64_PATH);
 * {@code hopper-extras.phos} is the H100 recording of {@code programs/hopper_extras.cu} (sample-traces/README.md).
 */
class RecorderExtrasTest {

	@TempDir
	Path dir;

	/** hopper-extras.phos from sample-traces/, the fake-driver traces from this bundle's data/ (not samples). */
	private static Path sample(String name) {
		Path p = name.startsWith("fake-") ? Path.of("data", name)
				: Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(p), p + " missing (set -Dphos.repo to the repository root)");
		return p;
	}

	private static Trace load(String name) throws IOException {
		TraceLoadResult r = TraceReader.read(sample(name), null);
		assertTrue(r.warnings().isEmpty(), name + ": " + r.warnings());
		assertTrue(r.anomalies().isEmpty(), name + ": " + r.anomalies());
		return r.trace();
	}

	private static List<Integer> events(Trace t, EventKind k) {
		List<Integer> out = new ArrayList<>();
		for (int i = 0; i < t.eventCount(); i++) {
			if (t.kind(i) == k) {
				out.add(i);
			}
		}
		return out;
	}

	private static Map<String, Long> unrecorded(Trace t) {
		Map<String, Long> m = new TreeMap<>();
		for (TraceEnd.UnrecordedCalls u : t.end().unrecorded()) {
			m.put(u.call(), u.count());
		}
		return m;
	}

	/** The checks both fake recordings pass: what fake_app's "more" mode did, call by call. */
	private static void checkFake(Trace t, String how) {
		assertEquals(6, t.count(EventKind.ARRAY), how);
		assertEquals(1, t.count(EventKind.TENSOR_MAP), how);
		List<CopyKind> copies = new ArrayList<>();
		for (int i : events(t, EventKind.MEMCPY)) {
			copies.add(t.copyKind(i));
		}
		assertEquals(List.of(CopyKind.H2D, CopyKind.H2A, CopyKind.D2A, CopyKind.A2A, CopyKind.A2D, CopyKind.A2H,
				CopyKind.H2A, CopyKind.A2H, CopyKind.H2A, CopyKind.A2D, CopyKind.D2H), copies, how);
		List<Long> created = new ArrayList<>();
		List<Long> bytes = new ArrayList<>();
		Set<Long> destroyed = new HashSet<>();
		for (int i : events(t, EventKind.ARRAY)) {
			TraceEvent.CudaArray a = t.cudaArray(i);
			assertEquals(a, t.event(i), how);
			if (a.op() == ArrayOp.CREATE) {
				created.add(a.handle());
				bytes.add(a.bytes());
			} else {
				assertEquals(ArrayOp.DESTROY, a.op(), how);
				destroyed.add(a.handle());
			}
		}
		assertEquals(List.of(1024L, 512L, 1024L), bytes, how + ": 64x4 float, 16x4x2 x 2 channels u16, 64x4 float");
		assertEquals(new HashSet<>(created), destroyed, how);
		for (int i : events(t, EventKind.MEMCPY)) {
			CopyKind k = t.copyKind(i);
			if (k == CopyKind.A2H || k == CopyKind.A2D || k == CopyKind.A2A) {
				assertTrue(created.contains(t.src(i)), how + ": source of " + k + " is an array handle");
			}
			if (k == CopyKind.H2A || k == CopyKind.D2A || k == CopyKind.A2A) {
				assertTrue(created.contains(t.dst(i)), how + ": destination of " + k + " is an array handle");
			}
		}
		// host functions on the stream the program created
		long stream = -1;
		List<SyncKind> host = new ArrayList<>();
		for (int i : events(t, EventKind.SYNC)) {
			if (t.syncKind(i) == SyncKind.STREAM_CREATE) {
				stream = t.stream(i);
			} else if (t.syncKind(i) == SyncKind.HOST_FUNCTION || t.syncKind(i) == SyncKind.STREAM_CALLBACK) {
				host.add(t.syncKind(i));
				assertEquals(stream, t.stream(i), how);
				assertTrue(t.cudaEvent(i) != 0, how + ": the function's address");
			}
		}
		assertEquals(List.of(SyncKind.HOST_FUNCTION, SyncKind.STREAM_CALLBACK), host, how);
		// the tensor map and the launch that takes it by value
		int tmEvent = events(t, EventKind.TENSOR_MAP).get(0);
		TraceEvent.TensorMap tm = t.tensorMap(tmEvent);
		assertEquals(TensorMapKind.TILED, tm.mapKind(), how);
		assertArrayEquals(new long[] { 64, 16 }, tm.dims(), how);
		assertArrayEquals(new long[] { 256 }, tm.strides(), how);
		assertArrayEquals(new int[] { 32, 8 }, tm.box(), how);
		assertEquals(7, tm.dataType(), how + ": FLOAT32");
		assertEquals(15 * 256 + 64 * 4, tm.extent(), how);
		assertEquals(t.address(events(t, EventKind.ALLOC).get(0)), tm.address(), how + ": the map points at src");
		assertEquals(128, tm.map().length, how);
		int launch = events(t, EventKind.LAUNCH).get(0);
		byte[] p = new byte[t.paramLength(launch)];
		t.copyParams(launch, p, 0);
		assertArrayEquals(tm.map(), Arrays.copyOf(p, 128), how + ": the launch's parameters hold the map by value");
		assertEquals(Map.of("cuStreamWriteValue32", 2L, "cuStreamWriteValue64", 1L), unrecorded(t), how);
		assertEquals(3, t.end().unrecordedTotal(), how);
		assertEquals(List.of("trace may be incomplete: 2 calls to cuStreamWriteValue32 that change memory were not recorded",
				"trace may be incomplete: 1 calls to cuStreamWriteValue64 that change memory were not recorded"),
				t.end().incompleteWarnings(), how);
	}

	@Test
	void fakeRecordingByPreloadHoldsArraysHostFunctionsTensorMapsAndUnrecordedCounts() throws IOException {
		checkFake(load("fake-extras-preload.phos"), "LD_PRELOAD");
	}

	@Test
	void fakeRecordingByInjectionHoldsTheSameEvents() throws IOException {
		Trace inj = load("fake-extras-inject.phos");
		checkFake(inj, "CUDA_INJECTION64_PATH");
		Trace pre = load("fake-extras-preload.phos");
		assertEquals(pre.eventCount(), inj.eventCount());
		for (int i = 0; i < pre.eventCount(); i++) {
			assertEquals(pre.kind(i), inj.kind(i), "event " + i);
		}
	}

	@Test
	void h100RecordingOfTheHopperProgram() throws IOException {
		Trace t = load("hopper-extras.phos");
		assertTrue(t.header().deviceName().startsWith("NVIDIA H100"), t.header().deviceName());
		Map<Long, Long> arrayBytes = new TreeMap<>();
		for (int i : events(t, EventKind.ARRAY)) {
			if (t.cudaArray(i).op() == ArrayOp.CREATE) {
				arrayBytes.put(t.cudaArray(i).handle(), t.cudaArray(i).bytes());
			}
		}
		List<Long> sizes = new ArrayList<>(arrayBytes.values());
		sizes.sort(null);
		assertEquals(List.of(512L, 16384L, 16384L, 256L * 128 * 4), sizes, "1D x2, 3D, the runtime's 2D array");
		Map<CopyKind, Integer> kinds = new TreeMap<>();
		for (int i : events(t, EventKind.MEMCPY)) {
			kinds.merge(t.copyKind(i), 1, Integer::sum);
		}
		assertEquals(4, kinds.get(CopyKind.H2A), kinds.toString());
		assertEquals(2, kinds.get(CopyKind.A2H), kinds.toString());
		assertEquals(1, kinds.get(CopyKind.D2A), kinds.toString());
		assertEquals(2, kinds.get(CopyKind.A2D), kinds.toString());
		assertEquals(1, kinds.get(CopyKind.A2A), kinds.toString());
		// two tensor maps over pitched 256 x 128 float tensors: the extent stops 256 bytes short of the allocation
		List<Integer> maps = events(t, EventKind.TENSOR_MAP);
		assertEquals(2, maps.size());
		Map<Long, Long> allocs = new TreeMap<>();
		for (int i : events(t, EventKind.ALLOC)) {
			allocs.put(t.address(i), t.size(i));
		}
		for (int m : maps) {
			TraceEvent.TensorMap tm = t.tensorMap(m);
			assertEquals(127L * 1280 + 256 * 4, tm.extent());
			assertEquals(1280L * 128, allocs.get(tm.address()), "the map points at the start of its allocation");
		}
		// the TMA kernel gets both maps by value at the offsets of its layout
		int launch = -1;
		for (int i : events(t, EventKind.LAUNCH)) {
			if (t.functionById(t.functionId(i)).mangledName().contains("tma_scale")) {
				launch = i;
			}
		}
		assertTrue(launch >= 0);
		List<ParamInfo> layout = t.functionById(t.functionId(launch)).params();
		byte[] p = new byte[t.paramLength(launch)];
		t.copyParams(launch, p, 0);
		for (int k = 0; k < 2; k++) {
			int off = layout.get(k).offset();
			assertArrayEquals(t.tensorMap(maps.get(k)).map(), Arrays.copyOfRange(p, off, off + 128), "map " + k);
		}
		int hostFunctions = 0;
		for (int i : events(t, EventKind.SYNC)) {
			hostFunctions += t.syncKind(i) == SyncKind.HOST_FUNCTION || t.syncKind(i) == SyncKind.STREAM_CALLBACK ? 1 : 0;
		}
		assertTrue(hostFunctions >= 2, "host functions: " + hostFunctions);
		assertEquals(1L, unrecorded(t).get("cuGraphLaunch memcpy/memset/mem-op nodes"), unrecorded(t).toString());
	}

	@Test
	void newEventsAndUnrecordedCountsSurviveAWriteAndARead() throws IOException {
		TraceHeader h = TraceHeader.builder("phos-test", "1").build();
		byte[] map = new byte[128];
		for (int i = 0; i < map.length; i++) {
			map[i] = (byte) (i * 7 + 3);
		}
		List<TraceEvent> evs = List.of(
				new TraceEvent.CudaArray(10, 1, ArrayOp.CREATE, 0x5555_0000_1000L, 1024, 0x20, 1, 64, 4, 0, 0),
				new TraceEvent.Memcpy(20, 1, CopyKind.H2A, 0x7ffd_0000_0000L, 0x5555_0000_1000L, 512, 0, false,
						new byte[] { 1, 2, 3 }, 0, 0),
				new TraceEvent.Sync(30, 1, SyncKind.HOST_FUNCTION, 0x7f00_0000_2000L, 0x5555_0000_9000L, 0),
				new TraceEvent.TensorMap(40, 2, TensorMapKind.TILED, 0x7f10_0000_0000L, 7, 3, new long[] { 64, 16, 4 },
						new long[] { 256, 4096 }, new int[] { 32, 8, 1 }, new int[] { 1, 1, 1 }, 0, 3, 1, 0, map,
						3 * 4096 + 15 * 256 + 256),
				new TraceEvent.CudaArray(50, 1, ArrayOp.DESTROY, 0x5555_0000_1000L, 0, 0, 0, 0, 0, 0, 0));
		Trace.Builder b = Trace.builder(h);
		evs.forEach(b::event);
		TraceEnd end = new TraceEnd(evs.size(), 0, 50, List.of(new TraceEnd.UnrecordedCalls("cuStreamWriteValue32", 5)));
		Trace built = b.end(end).build();
		Path file = dir.resolve("extras.phos");
		TraceWriter.write(built, file, TraceWriter.Options.DEFAULT);
		TraceLoadResult r = TraceReader.read(file, null);
		assertTrue(r.warnings().isEmpty(), r.warnings().toString());
		Trace t = r.trace();
		for (int i = 0; i < evs.size(); i++) {
			assertEquals(evs.get(i), t.event(i), "event " + i);
		}
		assertEquals(end, t.end());
		assertEquals(0x7f00_0000_2000L, t.stream(2));
	}

	@Test
	void tracesOfEarlierRecordersReadWithoutTheNewParts() throws IOException {
		Trace t = load("cuda-suite.phos");
		assertEquals(0, t.count(EventKind.ARRAY));
		assertEquals(0, t.count(EventKind.TENSOR_MAP));
		assertTrue(t.end().unrecorded().isEmpty());
		assertTrue(t.end().incompleteWarnings().isEmpty());
	}
}
