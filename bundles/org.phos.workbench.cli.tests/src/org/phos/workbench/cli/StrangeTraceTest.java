package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
 * Hostile but well-formed traces (issue #10): extreme unsigned 64-bit values and contents that cannot all be true.
 * Every command loads them; none fails internally; each kind of anomaly is reported once on stderr, with its count
 * and first event, and in {@code info}'s summary.
 */
class StrangeTraceTest {

	private static final long STREAM = 0x5555_0000_1000L;
	private static final long BASE = 0x7f00_0000_0000L;
	private static final Dim3 ONE = new Dim3(1, 1, 1);

	@TempDir
	Path dir;

	/** A sane prefix: a module, a function, a created stream, one allocation. */
	private static TraceWriter saneStart(Path file, TraceHeader header) throws IOException {
		TraceWriter w = TraceWriter.create(file, header);
		w.module(ModuleInfo.of(1, ModuleKind.PTX, ".version 8.0\n".getBytes(), "cuModuleLoadData"));
		w.function(new FunctionInfo(1, 1, "_Z1kPf", "k(float*)", List.of(new ParamInfo(0, 8))));
		w.write(new TraceEvent.Sync(1_000, 1, SyncKind.STREAM_CREATE, STREAM, 0, 0));
		w.write(new TraceEvent.Alloc(2_000, 1, BASE, 4096, AllocKind.PLAIN, 0));
		return w;
	}

	private static TraceEvent.Launch launch(long host, long gpuStart, long gpuEnd) {
		return new TraceEvent.Launch(host, 1, 1, ONE, ONE, 0, STREAM, TestTraces.params(BASE), gpuStart, gpuEnd,
				LaunchKind.PLAIN, 0);
	}

	@Test
	void infoFormatsGpuTimesAtAndBeyondTwoToThe63() throws IOException {
		Path file = dir.resolve("gpu63.phos");
		try (TraceWriter w = saneStart(file, TestTraces.header())) {
			w.write(launch(3_000, Long.MIN_VALUE, Long.MIN_VALUE + 5_000)); // GPU start 2^63 ns
			w.write(launch(4_000, -10_000L, -1L)); // ends at 2^64 - 1 ns
		}
		CliRun run = CliRun.of("info", file.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertFalse(run.err().contains("internal error"), run.toString());
		// 2^63 ns = 9223372036.855 s; the span runs to 2^64 - 1 ns
		assertTrue(run.out().contains("(9223372036.855 s .. 18446744073.710 s)"), run.out());
		assertTrue(run.out().contains("Kernels by GPU time (all 1, 15.0 us in all)"), run.out());
		assertTrue(run.err().contains("warning: " + file + ": strange trace: time beyond any real trace"
				+ " (plausible: 0 .. 2^62 ns, about 146 years, after the start): 2 times, first at event 2"
				+ " (launch GPU time 9223372036854775808 .. 9223372036854780808 ns)"), run.err());
		CliRun json = CliRun.of("info", "--json", file.toString());
		assertEquals(ExitCode.OK, json.exit(), json.toString());
		assertTrue(json.out().contains("\"gpuFirstNs\": 9223372036854775808"), json.out());
		assertTrue(json.out().contains("\"gpuLastNs\": 18446744073709551615"), json.out());
	}

	@Test
	void simulateCopesWithHostTimeTwoToThe64MinusOne() throws IOException {
		Path file = dir.resolve("host64.phos");
		try (TraceWriter w = saneStart(file, TestTraces.header())) {
			w.write(launch(3_000, 10_000, 12_000));
			w.write(launch(-1L, 13_000, 15_000)); // host time 2^64 - 1 ns
			w.write(launch(-1L, 16_000, 18_000));
		}
		for (String policy : List.of("stop-the-world", "soft-cow", "soft-recopy")) {
			CliRun run = CliRun.of("simulate", file.toString(), "--policy", policy, "--at", "launch:1", "--sets",
					"placeholder", "--out", dir.resolve("sim-" + policy).toString());
			assertFalse(run.err().contains("internal error"), run.toString());
			assertTrue(run.exit() == ExitCode.OK || run.err().contains("event 3"), run.toString());
			assertTrue(run.err().contains("strange trace: time beyond any real trace"), run.toString());
		}
		CliRun info = CliRun.of("info", file.toString());
		assertEquals(ExitCode.OK, info.exit(), info.toString());
		assertTrue(info.out().contains("host time  18446744073.710 s (1.0 us .. 18446744073.710 s after start)"),
				info.out());
	}

	@Test
	void unsignedCountsAndSizesArePrintedAndSummedAsUnsigned() throws IOException {
		Path file = dir.resolve("huge.phos");
		TraceWriter w = saneStart(file, TestTraces.header());
		w.write(new TraceEvent.Alloc(3_000, 1, 0x1_0000_0000_0000L, -1L >>> 1, AllocKind.PLAIN, 0)); // 8 EiB
		w.write(new TraceEvent.Alloc(4_000, 1, 0x9000_0000_0000_0000L, 1L << 62, AllocKind.PLAIN, 0)); // 4 EiB
		w.write(new TraceEvent.Alloc(5_000, 1, 0xe000_0000_0000_0000L, 1L << 62, AllocKind.PLAIN, 0)); // 4 EiB
		w.write(new TraceEvent.Memcpy(6_000, 1, CopyKind.D2D, BASE, BASE + 64, -1L, 0, false, new byte[0], 0, 0));
		w.write(new TraceEvent.Memcpy(7_000, 1, CopyKind.D2D, BASE, BASE + 64, 64, 0, false, new byte[0], 0, 0));
		w.closeUnfinished();
		// a TraceEnd chunk saying 2^64 - 1 events were written and 2^64 - 1 dropped
		appendChunk(file, 6, HexFormat.of().parseHex("08ffffffffffffffffff01" + "10ffffffffffffffffff01"));
		CliRun run = CliRun.of("info", file.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		String out = run.out();
		assertTrue(out.contains("closed     cleanly, 18,446,744,073,709,551,615 events written, "
				+ "18,446,744,073,709,551,615 dropped"), out);
		assertTrue(out.contains("TraceEnd says 18446744073709551615 events were written, the file holds 7"), out);
		assertTrue(out.contains("the recorder dropped 18446744073709551615 events"), out);
		assertTrue(run.err().contains("TraceEnd says 18446744073709551615 events"), run.err());
		assertFalse(out.contains(" -1 "), out);
		// 4 KiB + 8 EiB + 4 EiB + 4 EiB live: more than 2^64 - 1, shown saturated, never wrapped to a small number
		assertTrue(out.contains("peak live 16.0 EiB at event 4; live at end 16.0 EiB in 4 allocations"), out);
		assertTrue(out.contains("Allocations: 4 allocations"), out);
		assertTrue(java.util.regex.Pattern.compile("plain\\s+4\\s+16.0 EiB").matcher(out).find(), out);
		assertTrue(java.util.regex.Pattern.compile("D2D\\s+2\\s+16.0 EiB").matcher(out).find(), out);
		assertTrue(run.err().contains("strange trace: size beyond any real GPU"), run.err());
		CliRun json = CliRun.of("info", "--json", file.toString());
		assertTrue(json.out().contains("\"peakLiveBytes\": 18446744073709551615"), json.out());
		assertTrue(json.out().contains("\"droppedEvents\": 18446744073709551615"), json.out());
	}

	/** One trace with every kind of anomaly an event walk finds, each twice, plus duplicate ids. */
	private Path strange() throws IOException {
		Path file = dir.resolve("strange.phos");
		try (TraceWriter w = saneStart(file, TestTraces.header())) {
			w.module(ModuleInfo.of(1, ModuleKind.PTX, ".version 8.1\n".getBytes(), "again")); // duplicate module
			w.function(new FunctionInfo(1, 1, "_Z1kPf", "k(float*)", List.of())); // duplicate function
			w.function(new FunctionInfo(7, 99, "_Z1gv", "g()", List.of())); // module 99 never defined
			w.write(new TraceEvent.Alloc(3_000, 1, BASE + 1024, 4096, AllocKind.PLAIN, 0)); // 2: overlaps 1
			w.write(new TraceEvent.Alloc(2_500, 1, BASE + 8192, 64, AllocKind.PLAIN, 0)); // 3: host time back
			w.write(launch(4_000, 9_000, 8_000)); // 4: GPU end before start
			w.write(new TraceEvent.Launch(5_000, 1, 1, ONE, ONE, 0, 0xbad5, TestTraces.params(BASE), 0, 0,
					LaunchKind.PLAIN, 0)); // 5: stream never created
			w.write(new TraceEvent.Sync(6_000, 1, SyncKind.EVENT_RECORD, STREAM, 0xe1, 0)); // 6: event not created
			w.write(new TraceEvent.Launch(7_000, 1, 1, ONE, ONE, 0, STREAM, TestTraces.params(BASE), 0, 0,
					LaunchKind.GRAPH_NODE, 6)); // 7: graph node of a sync event
			w.write(new TraceEvent.Launch(8_000, 1, 42, ONE, ONE, 0, STREAM, TestTraces.params(BASE), 0, 0,
					LaunchKind.PLAIN, 0)); // 8: function 42 never defined
			w.write(new TraceEvent.Alloc(9_000, 1, BASE + 2048, 16, AllocKind.PLAIN, 0)); // 9: overlaps again
			w.write(new TraceEvent.Memset(8_500, 1, BASE, 16, 0, 1, 0, false, 5, 4)); // 10: back, inverted
			w.write(new TraceEvent.Memcpy(9_500, 1, CopyKind.D2D, BASE, BASE, 16, 0xbad6, false, new byte[0], 0,
					0)); // 11: stream never created
			w.write(new TraceEvent.Sync(9_600, 1, SyncKind.STREAM_WAIT_EVENT, STREAM, 0xe2, 0)); // 13
			w.write(new TraceEvent.Launch(9_700, 1, 1, ONE, ONE, 0, STREAM, TestTraces.params(BASE), 0, 0,
					LaunchKind.GRAPH_NODE, 1_000_000)); // 13: no such event
			w.write(new TraceEvent.Launch(9_800, 1, 43, ONE, ONE, 0, STREAM, TestTraces.params(BASE), 0, 0,
					LaunchKind.PLAIN, 0)); // 14: function 43 never defined
		}
		// a second TraceEnd and a second TraceHeader (copies of the file's last and first chunks)
		byte[] bytes = Files.readAllBytes(file);
		List<int[]> chunks = chunks(bytes);
		int[] first = chunks.get(0);
		int[] last = chunks.get(chunks.size() - 1);
		try (var out = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
			out.write(bytes, first[0], first[1]);
			out.write(bytes, last[0], last[1]);
		}
		return file;
	}

	private static final List<String> EXPECTED = List.of(
			"host time going backwards on a thread: 2 times, first at event 3 (thread 1: 3000 ns, then 2500 ns)",
			"GPU end time before GPU start time: 2 times, first at event 4 (launch GPU time 9000 .. 8000 ns)",
			"allocation overlapping a live allocation: 2 times, first at event 2 (4096 bytes at 0x7f0000000400 "
					+ "overlap the live allocation of event 1)",
			"stream used without being created (no STREAM_CREATE before): 2 times, first at event 5 (stream 0xbad5)",
			"CUDA event used without being created (no EVENT_CREATE before): 2 times, first at event 6 "
					+ "(EVENT_RECORD of event 0xe1)",
			"graph-node launch naming no earlier graph launch: 2 times, first at event 7 (graph launch 6, which is "
					+ "a SYNC event)",
			"launch of a function the trace never defines: 2 times, first at event 8 (function 42)",
			"function of a module the trace never defines: 1 time (function 7 of module 99)",
			"module id defined more than once (the first definition is used): 1 time (module id 1)",
			"function id defined more than once (the first definition is used): 1 time (function id 1)",
			"more than one TraceEnd chunk (the last is used): 1 time",
			"more than one TraceHeader chunk (the first is used): 1 time (at byte offset ");

	@Test
	void everyCommandThatLoadsATraceWarnsOfEachKindOnce() throws IOException {
		Path file = strange();
		Path side = dir.resolve("side.phos");
		saneStart(side, TestTraces.header()).close();
		Path outDir = dir.resolve("out");
		Files.createDirectories(outDir);
		List<CliRun> runs = List.of(
				CliRun.of("info", file.toString()),
				CliRun.of("export", file.toString(), "--out", outDir.resolve("x.json").toString()),
				CliRun.of("speculate", file.toString()),
				CliRun.of("validate", file.toString()),
				CliRun.of("simulate", file.toString(), "--policy", "soft-cow", "--at", "launch:1", "--sets",
						"placeholder", "--out", outDir.resolve("sim").toString()),
				CliRun.of("merge-observed", file.toString(), side.toString(), "--out",
						outDir.resolve("m.phos").toString()));
		for (CliRun run : runs) {
			assertFalse(run.err().contains("internal error"), run.toString());
			for (String line : EXPECTED) {
				String warning = "warning: " + file + ": strange trace: " + line;
				int at = run.err().indexOf(warning);
				assertTrue(at >= 0, "missing '" + warning + "' in\n" + run);
				assertEquals(-1, run.err().indexOf(warning, at + 1), "twice: " + warning + "\n" + run);
			}
		}
		String info = runs.get(0).out();
		assertTrue(info.contains("\nAnomalies ("), info);
		for (String line : EXPECTED) {
			assertTrue(info.contains("  " + line), "info lacks " + line + "\n" + info);
		}
	}

	@Test
	void headerClaimingAnotherFormatVersionIsReported() throws IOException {
		Path file = dir.resolve("v7.phos");
		TraceHeader h = TraceHeader.builder("phos-test", "1.2").formatVersion(7).build();
		try (TraceWriter w = TraceWriter.create(file, h)) {
			w.write(new TraceEvent.Sync(1_000, 1, SyncKind.CONTEXT_SYNCHRONIZE, 0, 0, 0));
		}
		CliRun run = CliRun.of("info", file.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertTrue(run.err().contains("strange trace: TraceHeader claims another format version than the file"
				+ " (read as version 1): 1 time (TraceHeader says version 7, the file header 1)"), run.err());
	}

	@Test
	void sampleLikeTracesHaveNoAnomalies() throws IOException {
		Path file = dir.resolve("sane.phos");
		try (TraceWriter w = saneStart(file, TestTraces.header())) {
			w.write(new TraceEvent.Sync(2_500, 1, SyncKind.EVENT_CREATE, 0, 0xe1, 0));
			w.write(launch(3_000, 10_000, 12_000));
			w.write(new TraceEvent.Sync(3_500, 1, SyncKind.EVENT_RECORD, STREAM, 0xe1, 0));
			w.write(new TraceEvent.Launch(4_000, 2, 1, ONE, ONE, 0, 2, TestTraces.params(BASE), 0, 0,
					LaunchKind.PLAIN, 0)); // per-thread default stream, another thread starting earlier in time
			w.write(new TraceEvent.Free(5_000, 1, BASE, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(6_000, 1, BASE + 1024, 4096, AllocKind.PLAIN, 0)); // reuse after free
		}
		CliRun run = CliRun.of("info", file.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertEquals("", run.err());
		assertFalse(run.out().contains("Anomalies"), run.out());
	}

	/** {offset, length} of each chunk of a well-formed file. */
	private static List<int[]> chunks(byte[] file) {
		ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
		List<int[]> out = new java.util.ArrayList<>();
		int at = 16;
		while (at + 24 <= file.length) {
			int length = 24 + b.getInt(at + 8);
			out.add(new int[] { at, length });
			at += length;
		}
		return out;
	}

	/** Appends one uncompressed chunk framed as docs/trace-format.md says. */
	private static void appendChunk(Path file, int type, byte[] payload) throws IOException {
		ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
		h.put(new byte[] { 'P', 'C', 'H', 'K' }).putShort((short) type).put((byte) 0).put((byte) 0)
				.putInt(payload.length).putInt(payload.length);
		CRC32C crc = new CRC32C();
		crc.update(payload);
		h.putInt((int) crc.getValue());
		crc.reset();
		crc.update(h.array(), 0, 20);
		h.putInt((int) crc.getValue());
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(h.array());
		out.writeBytes(payload);
		Files.write(file, out.toByteArray(), StandardOpenOption.APPEND);
	}
}
