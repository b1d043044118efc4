package org.phos.workbench.cli.speculation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cli.CliRun;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * Ground truth that cannot be stood behind is never counted (issue #10): truth of a GPU replay that lacked a launch's
 * inputs, records naming no launch, graph nodes the sanitizer tool could not see.
 */
class ObservedTruthCommandsTest {

	static final long A = 0x7f00_0000_0000L;
	static final long B = 0x7f00_0100_0000L;
	static final int BIG = 128 * 1024;

	@TempDir
	Path dir;

	private static byte[] params(long p0, long p1) {
		return ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN).putLong(p0).putLong(p1).putLong(7).array();
	}

	private static TraceEvent.Launch launch(long t, byte[] params, LaunchKind kind, long graph) {
		return new TraceEvent.Launch(t, 0, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0, params, 0, 0, kind, graph);
	}

	/**
	 * A 128 KiB host-to-device copy into A recorded with only its first 64 KiB (the recorder's default payload
	 * limit), then two launches of gather(const float*, float*, int): the first reads A up to 100 KiB (bytes the
	 * replay wrote as zeros) and writes B, the second reads only A's first KiB and writes B's first 8 bytes.
	 */
	private Path partlyCapturedTrace(String tool) throws IOException {
		Path file = dir.resolve("partial-" + tool + ".phos");
		try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("test", "1").build())) {
			w.function(new FunctionInfo(1, 0, "_Z6gatherPKfPfi", "gather(float const*, float*, int)",
					List.of(new ParamInfo(0, 8), new ParamInfo(8, 8), new ParamInfo(16, 4))));
			w.write(new TraceEvent.Alloc(1, 0, A, BIG, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(2, 0, B, 4096, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Memcpy(3, 0, CopyKind.H2D, 0x1000, A, BIG, 0, false, new byte[64 * 1024], 0, 0));
			long first = w.write(launch(4, params(A, B), LaunchKind.PLAIN, 0));
			long second = w.write(launch(5, params(A, B), LaunchKind.PLAIN, 0));
			w.observed(new ObservedAccess(first, A, List.of(new AddressRange(A, A + 100 * 1024)), List.of(), 10, 0,
					tool));
			w.observed(new ObservedAccess(first, B, List.of(), List.of(new AddressRange(B, B + 16)), 0, 4, tool));
			w.observed(new ObservedAccess(second, A, List.of(new AddressRange(A, A + 1024)), List.of(), 10, 0, tool));
			w.observed(new ObservedAccess(second, B, List.of(), List.of(new AddressRange(B, B + 8)), 0, 2, tool));
		}
		return file;
	}

	@Test
	void validateExcludesTheLaunchWhoseReplayLackedTheBytesItRead() throws IOException {
		Path csv = dir.resolve("v.csv");
		Path json = dir.resolve("v.json");
		CliRun r = CliRun.of("validate", partlyCapturedTrace("ptx-instrument").toString(), "--engine", "arg-scan",
				"--csv", csv.toString(), "--json", json.toString());
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("1 of 2 observed launches reliable; 1 excluded"), r.out());
		assertTrue(r.out().contains("PHOS_PAYLOAD_LIMIT"), r.out());
		// arg-scan judged on the second launch only; the EXCLUDED column counts the first
		assertTrue(r.out().matches("(?s).*\\narg-scan +1 +0 +100\\.00% +100\\.00% +\\S+ +0 +1\\n.*"), r.out());
		List<String> rows = Files.readAllLines(csv);
		// excluded_launches is the last of the columns before i15-val's direction counts
		int excluded = List.of(rows.get(0).split(",")).indexOf("excluded_launches");
		assertEquals(18, excluded, rows.get(0));
		assertTrue(rows.get(1).startsWith("arg-scan,(all kernels),-1,1,")
				&& rows.get(1).split(",")[excluded].equals("1"), rows.toString());
		String j = Files.readString(json);
		assertTrue(j.contains("\"excluded_launches\": 1"), j);
	}

	@Test
	void sanitizerTruthFromTheRealProcessIsReliableWhateverThePayloads() throws IOException {
		CliRun r = CliRun.of("validate", partlyCapturedTrace("sanitizer").toString(), "--engine", "arg-scan");
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("all 2 observed launches reliable"), r.out());
		assertTrue(r.out().matches("(?s).*\\narg-scan +2 +0 .* +0\\n.*"), r.out());
	}

	@Test
	void infoSaysHowMuchOfTheTruthIsReliable() throws IOException {
		CliRun r = CliRun.of("info", partlyCapturedTrace("ptx-instrument").toString());
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("truth      1 of 2 observed launches reliable; 1 excluded"), r.out());
	}

	/** Records naming an allocation event and an index past the end, beside one good record. */
	private Path badIndexTrace() throws IOException {
		Path file = dir.resolve("bad-index.phos");
		try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("test", "1").build())) {
			w.function(new FunctionInfo(1, 0, "_Z6gatherPKfPfi", "gather(float const*, float*, int)",
					List.of(new ParamInfo(0, 8), new ParamInfo(8, 8), new ParamInfo(16, 4))));
			long alloc = w.write(new TraceEvent.Alloc(1, 0, A, 4096, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(2, 0, B, 4096, AllocKind.PLAIN, 0));
			long l = w.write(launch(3, params(A, B), LaunchKind.PLAIN, 0));
			w.observed(new ObservedAccess(l, B, List.of(), List.of(new AddressRange(B, B + 8)), 0, 2, "sanitizer"));
			w.observed(new ObservedAccess(alloc, A, List.of(new AddressRange(A, A + 8)), List.of(), 2, 0,
					"sanitizer"));
			w.observed(new ObservedAccess(99, A, List.of(new AddressRange(A, A + 8)), List.of(), 2, 0, "sanitizer"));
		}
		return file;
	}

	@Test
	void recordsNamingNoLaunchAreNotCountedAndAreNamed() throws IOException {
		Path file = badIndexTrace();
		CliRun info = CliRun.of("info", file.toString());
		assertEquals(ExitCode.OK, info.exit(), info.toString());
		assertTrue(info.out().contains("1 access records for 1 of 1 launches"), info.out());
		assertTrue(info.out().contains("2 observed-access records name no launch of the trace and are ignored "
				+ "(first: observed record 1 (tool sanitizer) names event 0, a ALLOC event, not a launch)"),
				info.out());
		CliRun v = CliRun.of("validate", file.toString(), "--engine", "arg-scan");
		assertEquals(ExitCode.OK, v.exit(), v.toString());
		assertTrue(v.out().contains("1 of 1 launches observed (1 records by sanitizer)"), v.out());
		assertTrue(v.err().contains("warning: ") && v.err().contains("2 observed-access records name no launch"),
				v.err());
	}

	/**
	 * A plain launch and a graph launch with two kernel nodes; the sanitizer tool observed the plain launch only
	 * (it writes nothing for the nodes of a multi-node graph launch), or, with {@code nodeRecords}, an older side
	 * file holding records for the nodes.
	 */
	private Path graphTrace(boolean nodeRecords) throws IOException {
		Path file = dir.resolve("graph-" + nodeRecords + ".phos");
		try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("test", "1").build())) {
			w.function(new FunctionInfo(1, 0, "_Z6gatherPKfPfi", "gather(float const*, float*, int)",
					List.of(new ParamInfo(0, 8), new ParamInfo(8, 8), new ParamInfo(16, 4))));
			w.write(new TraceEvent.Alloc(1, 0, A, 4096, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(2, 0, B, 4096, AllocKind.PLAIN, 0));
			long plain = w.write(launch(3, params(A, B), LaunchKind.PLAIN, 0));
			long graph = w.write(new TraceEvent.GraphLaunch(4, 0, 0x9999, 0, 2));
			long n0 = w.write(launch(5, params(A, B), LaunchKind.GRAPH_NODE, graph));
			long n1 = w.write(launch(6, params(B, A), LaunchKind.GRAPH_NODE, graph));
			w.observed(new ObservedAccess(plain, B, List.of(), List.of(new AddressRange(B, B + 8)), 0, 2,
					"sanitizer"));
			if (nodeRecords) {
				w.observed(new ObservedAccess(n1, A, List.of(), List.of(new AddressRange(A, A + 8)), 0, 2,
						"sanitizer"));
			}
			assertEquals(n0 + 1, n1);
		}
		return file;
	}

	@Test
	void graphNodesWithoutRecordsAreUnobservedEverywhere() throws IOException {
		Path file = graphTrace(false);
		CliRun info = CliRun.of("info", file.toString());
		assertTrue(info.out().contains("1 access records for 1 of 3 launches, by sanitizer"), info.out());
		CliRun v = CliRun.of("validate", file.toString(), "--engine", "arg-scan");
		assertEquals(ExitCode.OK, v.exit(), v.toString());
		assertTrue(v.out().contains("1 of 3 launches observed"), v.out());
		assertTrue(v.out().matches("(?s).*\\narg-scan +1 +0 .*"), v.out());
	}

	@Test
	void sanitizerRecordsOfANodeOfAMultiNodeGraphLaunchAreExcluded() throws IOException {
		CliRun v = CliRun.of("validate", graphTrace(true).toString(), "--engine", "arg-scan");
		assertEquals(ExitCode.OK, v.exit(), v.toString());
		assertTrue(v.out().contains("1 of 2 observed launches reliable; 1 excluded (1 sanitizer records of kernel "
				+ "nodes of multi-node graph launches"), v.out());
		assertFalse(v.out().matches("(?s).*\\narg-scan +2 .*"), v.out());
	}
}
