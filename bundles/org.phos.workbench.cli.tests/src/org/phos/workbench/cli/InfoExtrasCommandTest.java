package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * {@code workbench info} on the H100 recording of {@code programs/hopper_extras.cu} (issue 16): CUDA arrays, tensor
 * maps and host functions are counted, and the calls TraceEnd counts as unrecorded are said, one line each.
 */
class InfoExtrasCommandTest {

	private static Path sample(String name) {
		Path p = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(p), p + " missing (set -Dphos.repo to the repository root)");
		return p;
	}

	@Test
	void textSaysWhatIsThereAndWhatIsMissing() {
		CliRun run = CliRun.of("info", sample("hopper-extras.phos").toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		String out = run.out();
		assertTrue(out.contains("Hopper     4 CUDA arrays (161 KiB), 2 tensor maps, 4 host functions in streams; 2 calls "
				+ "changed memory without an event (see Warnings)"), out);
		assertTrue(Pattern.compile("array\\s+8\\n").matcher(out).find(), out);
		assertTrue(Pattern.compile("tensor map\\s+2\\n").matcher(out).find(), out);
		assertTrue(out.contains("trace may be incomplete: 1 calls to cuStreamWriteValue32 that change memory were not "
				+ "recorded"), out);
		assertTrue(out.contains("trace may be incomplete: 1 calls to cuGraphLaunch memcpy/memset/mem-op nodes that "
				+ "change memory were not recorded"), out);
		assertTrue(Pattern.compile("H2A\\s+4\\s").matcher(out).find(), out);
	}

	@Test
	void jsonCarriesTheUnrecordedCalls() {
		CliRun run = CliRun.of("info", "--json", sample("hopper-extras.phos").toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		String out = run.out().replaceAll("\\s", "");
		assertTrue(out.contains("\"unrecordedCalls\":[{\"call\":\"cuStreamWriteValue32\",\"count\":1},{\"call\":"
				+ "\"cuGraphLaunchmemcpy/memset/mem-opnodes\",\"count\":1}]"), out);
		assertTrue(out.contains("\"extras\":{\"arrays\":4,\"arrayBytes\":164352,\"tensorMaps\":2,\"hostFunctions\":4,"
				+ "\"unrecordedCalls\":2}"), out);
	}

	@Test
	void anEarlierTraceHasNoSuchLines() {
		CliRun run = CliRun.of("info", sample("cuda-suite.phos").toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertFalse(run.out().contains("Hopper"), run.out());
		assertFalse(run.out().contains("trace may be incomplete"), run.out());
	}
}
