package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The command dispatch of {@link Main}: help, unknown commands, exit codes, failures without stack traces. */
class MainTest {

	@Test
	void helpListsEveryCommandAndTheExitCodes() {
		CliRun run = CliRun.of("help");
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		for (Command command : BuiltinCommands.all()) {
			assertTrue(run.out().contains("  " + command.name() + " "), command.name() + " missing in\n" + run.out());
		}
		assertTrue(run.out().contains("Exit codes: 0 done, 1 the job failed, 2 wrong command line"), run.out());
		assertEquals(run.out(), CliRun.of("--help").out());
		assertEquals(run.out(), CliRun.of("-h").out());
	}

	@Test
	void noArgumentsPrintsTheListOnStderrAsAUsageError() {
		CliRun run = CliRun.of();
		assertEquals(ExitCode.USAGE, run.exit());
		assertTrue(run.err().contains("Commands:"), run.err());
		assertEquals("", run.out());
	}

	@Test
	void everyCommandHasHelpWithUsageOptionsAndExamples() {
		for (Command command : BuiltinCommands.all()) {
			for (String flag : List.of("--help", "-h")) {
				CliRun run = CliRun.of(command.name(), flag);
				assertEquals(ExitCode.OK, run.exit(), run.toString());
				assertTrue(run.out().startsWith("Usage: workbench " + command.name()), run.out());
				assertTrue(run.out().contains("Options:"), run.out());
				assertTrue(run.out().contains("-h, --help"), run.out());
			}
			CliRun viaHelp = CliRun.of("help", command.name());
			assertEquals(ExitCode.OK, viaHelp.exit());
			assertEquals(CliRun.of(command.name(), "--help").out(), viaHelp.out());
		}
		assertTrue(CliRun.of("export", "--help").out().contains("--out FILE"));
		assertTrue(CliRun.of("info", "--help").out().contains("Examples:\n  workbench info"));
	}

	@Test
	void helpWinsOverOtherMistakesOnTheLine() {
		CliRun run = CliRun.of("export", "--no-such-option", "--help");
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertTrue(run.out().startsWith("Usage: workbench export"));
	}

	@Test
	void unknownCommandSuggestsTheClosestOne() {
		CliRun run = CliRun.of("infoo", "x.phos");
		assertEquals(ExitCode.USAGE, run.exit());
		assertTrue(run.err().contains("unknown command 'infoo'; did you mean 'info'?"), run.err());
		assertTrue(run.err().contains("Run 'workbench help'"), run.err());
		CliRun swapped = CliRun.of("exprot");
		assertTrue(swapped.err().contains("did you mean 'export'?"), swapped.err());
		CliRun far = CliRun.of("frobnicate");
		assertEquals(ExitCode.USAGE, far.exit());
		assertFalse(far.err().contains("did you mean"), far.err());
	}

	@Test
	void helpForAnUnknownCommandIsAUsageError() {
		CliRun run = CliRun.of("help", "genrate");
		assertEquals(ExitCode.USAGE, run.exit());
		assertTrue(run.err().contains("did you mean 'generate'?"), run.err());
	}

	@Test
	void versionIsPrinted() {
		CliRun run = CliRun.of("--version");
		assertEquals(ExitCode.OK, run.exit());
		assertTrue(run.out().startsWith("workbench "), run.out());
	}

	@Test
	void outOfMemoryHintNamesTheVariableTheScriptReads() throws java.io.IOException {
		CliRun run = runWith(failing(new OutOfMemoryError("Java heap space")), "boom");
		assertEquals(ExitCode.FAILURE, run.exit(), run.toString());
		assertTrue(run.err().contains("error: out of memory (Java heap space); give the JVM more heap, e.g. "
				+ "PHOS_JAVA_OPTS=-Xmx16g"), run.err());
		assertFalse(run.err().replace("PHOS_JAVA_OPTS", "").contains("JAVA_OPTS"), run.err());
		// the workbench script reads PHOS_JAVA_OPTS, not JAVA_OPTS
		String script = java.nio.file.Files.readString(java.nio.file.Path.of(System.getProperty("phos.repo", "../.."),
				"workbench"));
		assertTrue(script.contains("${PHOS_JAVA_OPTS:-}"), "the workbench script");
		assertFalse(script.replace("PHOS_JAVA_OPTS", "").contains("JAVA_OPTS"), "the workbench script");
	}

	/** A command whose job throws, to see how Main reports what commands do not catch. */
	private static Command failing(Throwable failure) {
		return new Command() {
			@Override
			public String name() {
				return "boom";
			}

			@Override
			public String summary() {
				return "fails";
			}

			@Override
			public List<Option<?>> options() {
				return List.of();
			}

			@Override
			public List<Positional> positionals() {
				return List.of();
			}

			@Override
			public int run(ParsedArguments args, CommandContext context) {
				if (failure instanceof Error e) {
					throw e;
				}
				throw (RuntimeException) failure;
			}
		};
	}

	private static CliRun runWith(Command command, String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int exit = new Main(List.of(command)).run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8), false);
		return new CliRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
	}

	@Test
	void anInternalErrorIsOneLineUnlessDebug() {
		CliRun run = runWith(failing(new IllegalStateException("the bug")), "boom");
		assertEquals(ExitCode.FAILURE, run.exit());
		assertEquals("workbench boom: internal error: java.lang.IllegalStateException: the bug (run with --debug for "
				+ "the stack trace)\n", run.err());
		CliRun debug = runWith(failing(new IllegalStateException("the bug")), "--debug", "boom");
		assertEquals(ExitCode.FAILURE, debug.exit());
		assertTrue(debug.err().startsWith("workbench boom: internal error: java.lang.IllegalStateException: the bug\n"
				+ "java.lang.IllegalStateException: the bug\n\tat org.phos.workbench.cli.MainTest"), debug.err());
	}

	@Test
	void aNewCommandIsRegisteredByListingIt() {
		CliRun run = runWith(failing(new IllegalStateException()), "help");
		assertTrue(run.out().contains("  boom "), run.out());
		assertTrue(run.out().contains("  help [COMMAND]"), run.out());
	}
}
