package org.phos.workbench.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * Small hand-made traces for the CLI tests, written with the real {@link TraceWriter}: every event kind, two host
 * threads, three streams, timed and untimed GPU operations, a graph launch with its nodes, names that need JSON and
 * CSV escaping.
 */
final class TestTraces {

	static final long BASE = 0x7f00_0000_0000L;
	static final String SAXPY = "saxpy(int, float, float const*, float*)";
	static final String TRICKY = "tricky<\"quoted\", a,b>\\(char\n)";
	static final long STREAM_A = 0x5555_0000_1000L;
	static final long STREAM_B = 0x5555_0000_2000L;

	/** The number of events {@link #writeSmall(Path)} writes. */
	static final int SMALL_EVENTS = 19;

	private TestTraces() {
	}

	static TraceHeader header() {
		return TraceHeader.builder("phos-test", "1.2").host("testhost").pid(4242)
				.argv(List.of("/usr/bin/python3", "train.py", "--epochs", "1")).workingDirectory("/home/researcher/run")
				.deviceName("NVIDIA H100 80GB HBM3")
				.computeCapability(9, 0).driverVersion(13000).runtimeVersion(13000).startUnixNs(1_763_750_000_000_000_000L)
				.payloadLimit(4096).gpuTiming(true).deviceMemory(80L << 30).build();
	}

	static byte[] params(long... values) {
		ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
		for (long v : values) {
			b.putLong(v);
		}
		return b.array();
	}

	/** Writes a closed trace of {@link #SMALL_EVENTS} events. */
	static void writeSmall(Path file) throws IOException {
		try (TraceWriter w = TraceWriter.create(file, header())) {
			writeSmallBody(w);
		}
	}

	/** Writes the same events but leaves out TraceEnd (a recorder killed before closing). */
	static void writeUnclosed(Path file) throws IOException {
		TraceWriter w = TraceWriter.create(file, header());
		writeSmallBody(w);
		w.closeUnfinished();
	}

	private static void writeSmallBody(TraceWriter w) throws IOException {
		w.module(ModuleInfo.of(1, ModuleKind.PTX, ".version 8.0\n.target sm_90\n".getBytes(), "cuModuleLoadData"));
		w.function(new FunctionInfo(1, 1, "_Z5saxpyifPKfPf", SAXPY,
				List.of(new ParamInfo(0, 4), new ParamInfo(4, 4), new ParamInfo(8, 8), new ParamInfo(16, 8))));
		w.function(new FunctionInfo(2, 1, "tricky_kernel", TRICKY, List.of(new ParamInfo(0, 8))));
		long x = BASE;
		long y = BASE + 0x10000;
		Dim3 grid = new Dim3(4, 1, 1);
		Dim3 block = new Dim3(256, 1, 1);
		w.write(new TraceEvent.Sync(1_000, 1, SyncKind.STREAM_CREATE, STREAM_A, 0, 0)); // 0
		w.write(new TraceEvent.Alloc(2_000, 1, x, 0x10000, AllocKind.PLAIN, 0)); // 1
		w.write(new TraceEvent.Alloc(3_000, 1, y, 0x40000, AllocKind.ASYNC, STREAM_A)); // 2
		w.write(new TraceEvent.Memcpy(4_000, 1, CopyKind.H2D, 0x1000, x, 16, STREAM_A, true,
				new byte[] { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 }, 10_000, 12_000)); // 3
		w.write(new TraceEvent.Launch(5_000, 1, 1, grid, block, 0, STREAM_A, params(0x4000_0000_0400L, x, y), 12_500,
				20_500, LaunchKind.PLAIN, 0)); // 4
		w.write(new TraceEvent.Launch(5_200, 1, 1, grid, block, 0, STREAM_A, params(0x4000_0000_0400L, x, y), 21_000,
				25_000, LaunchKind.PLAIN, 0)); // 5
		w.write(new TraceEvent.Launch(5_400, 2, 2, new Dim3(1, 2, 3), new Dim3(32, 4, 1), 1024, STREAM_B,
				params(y), 0, 0, LaunchKind.EX, 0)); // 6: untimed, second thread, other stream
		w.write(new TraceEvent.Memset(5_600, 2, y, 0x40000, 0, 1, STREAM_B, true, 0, 0)); // 7: untimed
		w.write(new TraceEvent.Sync(6_000, 1, SyncKind.EVENT_RECORD, STREAM_A, 0xe1, 0)); // 8
		w.write(new TraceEvent.Sync(6_100, 2, SyncKind.STREAM_WAIT_EVENT, STREAM_B, 0xe1, 0)); // 9
		w.write(new TraceEvent.GraphLaunch(7_000, 1, 0x9999, STREAM_A, 2)); // 10
		w.write(new TraceEvent.Launch(7_000, 1, 1, grid, block, 0, STREAM_A, params(1, x, y), 30_000, 31_000,
				LaunchKind.GRAPH_NODE, 10)); // 11
		w.write(new TraceEvent.Launch(7_000, 1, 2, grid, block, 0, STREAM_A, params(x), 31_000, 33_000,
				LaunchKind.GRAPH_NODE, 10)); // 12
		w.write(new TraceEvent.Memcpy(8_000, 1, CopyKind.D2H, y, 0x2000, 0x40000, 0, false, new byte[0], 34_000,
				40_000)); // 13: legacy default stream
		w.write(new TraceEvent.Sync(9_000, 1, SyncKind.CONTEXT_SYNCHRONIZE, 0, 0, 0)); // 14
		w.write(new TraceEvent.Free(10_000, 1, y, AllocKind.ASYNC, STREAM_A)); // 15
		w.write(new TraceEvent.Free(11_000, 1, 0xdead0000L, AllocKind.PLAIN, 0)); // 16: unknown address
		w.write(new TraceEvent.Alloc(12_000, 2, y, 0x1000, AllocKind.MANAGED, 0)); // 17: address reuse
		w.write(new TraceEvent.Launch(13_000, 1, 1, grid, block, 0, STREAM_A, params(7, x, y), 41_000, 45_000,
				LaunchKind.PLAIN, 0)); // 18
	}
}
