package org.phos.workbench.cli.speculation;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;

/** speculate and validate through the real command-line parser, on traces written with the real writer. */
class SpeculationCommandsTest {

	static final long A = 0x7f00_0000_0000L;
	static final long B = 0x7f00_0001_0000L;

	@TempDir
	Path dir;

	/** test(float const*, float*, int) launched once with (A, B, 7); it writes 8 bytes of A when observed. */
	private Path trace(boolean observed) throws IOException {
		Path file = dir.resolve(observed ? "observed.phos" : "plain.phos");
		byte[] params = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN).putLong(A).putLong(B).putLong(7)
				.array();
		try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("test", "1").build())) {
			w.function(new FunctionInfo(1, 0, "_Z4testPKfPfi", "test(float const*, float*, int)",
					List.of(new ParamInfo(0, 8), new ParamInfo(8, 8), new ParamInfo(16, 4))));
			w.write(new TraceEvent.Alloc(1, 0, A, 4096, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(2, 0, B, 65536, AllocKind.PLAIN, 0));
			long launch = w.write(new TraceEvent.Launch(3, 0, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0, params,
					0, 0, LaunchKind.PLAIN, 0));
			if (observed) {
				w.observed(new ObservedAccess(launch, A, List.of(), List.of(new AddressRange(A, A + 8)), 0, 2,
						"sanitizer"));
			}
		}
		return file;
	}

	@Test
	void validateReportsTheUnsafeConstPointer() throws IOException {
		Path csv = dir.resolve("v.csv");
		Path json = dir.resolve("v.json");
		CliRun r = CliRun.of("validate", trace(true).toString(), "--engine", "phos,arg-scan", "--csv", csv.toString(), "--json",
				json.toString());
		assertEquals(ExitCode.OK, r.exit(), r.err());
		assertTrue(r.out().matches("(?s).*\\nphos +1 +1 +0\\.00% +100\\.00%.*"), r.out());
		assertTrue(r.out().matches("(?s).*\\narg-scan +1 +0 +100\\.00% +100\\.00%.*"), r.out());
		List<String> rows = Files.readAllLines(csv);
		// the columns as before, then the direction counts (i15-val): 69632 speculated read (A and B), nothing read,
		// 65536 speculated written (B); one pair both name (A: read vs written, wrong)
		assertTrue(rows.contains("phos,(all kernels),-1,1,1,0,1,0,0,1,1,0,0,0,8,0,69632,8,0,69632,0,0,65536,1,0,"
				+ "0,0,1,0,0"), rows.toString());
		assertTrue(Files.readString(json).contains("\"wrong-direction\": 1"), Files.readString(json));
	}

	@Test
	void validateWithoutObservedAccessesFailsAndSaysWhy() throws IOException {
		CliRun r = CliRun.of("validate", trace(false).toString());
		assertEquals(ExitCode.FAILURE, r.exit());
		assertTrue(r.err().contains("no observed accesses, and there is no plain.phos.observed.phos beside it"),
				r.err());
		assertEquals("", r.out());
	}

	@Test
	void speculateListsOneLaunchInDetail() throws IOException {
		CliRun r = CliRun.of("speculate", trace(false).toString(), "--engine", "phos", "--launch", "0");
		assertEquals(ExitCode.OK, r.exit(), r.err());
		assertTrue(r.out().contains("R   0x7f0000000000..0x7f0000001000 (4096 bytes)"), r.out());
		assertTrue(r.out().contains("RW  0x7f0000010000..0x7f0000020000 (65536 bytes)"), r.out());
	}

	@Test
	void badArgumentsAreUsageErrors() throws IOException {
		Path t = trace(false);
		CliRun unknown = CliRun.of("speculate", t.toString(), "--engine", "phos,magic");
		assertEquals(ExitCode.USAGE, unknown.exit());
		assertTrue(unknown.err().contains("unknown engine 'magic'"), unknown.err());
		CliRun launch = CliRun.of("speculate", t.toString(), "--launch", "5");
		assertEquals(ExitCode.USAGE, launch.exit());
		assertTrue(launch.err().contains("the trace has 1 launches"), launch.err());
		CliRun missing = CliRun.of("validate", dir.resolve("nope.phos").toString());
		assertEquals(ExitCode.FAILURE, missing.exit());
		assertTrue(missing.err().contains("no such file"), missing.err());
	}
}
