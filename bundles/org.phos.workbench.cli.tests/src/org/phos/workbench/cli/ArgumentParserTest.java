package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Parsing of typed options and positionals, and the messages for every kind of mistake. */
class ArgumentParserTest {

	static final Option<Long> COUNT = Option.withDefault("count", "N", "how many", ValueParser.integer(1, 1000), 10L);
	static final Option<Path> OUT = Option.required("out", "FILE", "where to write", ValueParser.path());
	static final Option<String> MODE = Option.optional("mode", "MODE", "how", ValueParser.choice("fast", "slow"));
	static final Option<Boolean> VERBOSE = Option.flag("verbose", "say more");

	static final Command COMMAND = new Command() {
		@Override
		public String name() {
			return "try";
		}

		@Override
		public String summary() {
			return "test command";
		}

		@Override
		public List<Option<?>> options() {
			return List.of(COUNT, OUT, MODE, VERBOSE);
		}

		@Override
		public List<Positional> positionals() {
			return List.of(Positional.one("INPUT", "the input"), Positional.optional("EXTRA", "more"));
		}

		@Override
		public int run(ParsedArguments args, CommandContext context) {
			return 0;
		}
	};

	private static ParsedArguments parse(String... args) throws UsageException {
		return new ArgumentParser(COMMAND).parse(List.of(args));
	}

	private static String mistake(String... args) {
		return assertThrows(UsageException.class, () -> parse(args)).getMessage();
	}

	@Test
	void typedValuesAndDefaults() throws UsageException {
		ParsedArguments a = parse("in.phos", "--out", "x.json", "--count=7", "--verbose");
		assertEquals(7L, a.get(COUNT));
		assertEquals(Path.of("x.json"), a.get(OUT));
		assertTrue(a.get(VERBOSE));
		assertNull(a.find(MODE));
		assertEquals(List.of("in.phos"), a.positionals());
		ParsedArguments b = parse("--out", "y", "in", "extra", "--mode", "slow");
		assertEquals(10L, b.get(COUNT));
		assertFalse(b.isGiven(COUNT));
		assertFalse(b.get(VERBOSE));
		assertEquals("slow", b.get(MODE));
		assertEquals(List.of("in", "extra"), b.positionals());
	}

	@Test
	void doubleDashEndsOptions() throws UsageException {
		ParsedArguments a = parse("--out", "o", "--", "--strange-file-name");
		assertEquals(List.of("--strange-file-name"), a.positionals());
	}

	@Test
	void integersAcceptSuffixesAndSeparators() throws UsageException {
		assertEquals(1_000_000L, ValueParser.integer(0, Long.MAX_VALUE).parse("1M"));
		assertEquals(20_000L, ValueParser.integer(0, Long.MAX_VALUE).parse("20k"));
		assertEquals(1_234_567L, ValueParser.integer(0, Long.MAX_VALUE).parse("1_234_567"));
		assertEquals(5L, parse("i", "--out", "o", "--count", "5").get(COUNT));
	}

	@Test
	void unknownOptionSuggestsTheClosest() {
		assertEquals("unknown option --cuont; did you mean --count?", mistake("i", "--out", "o", "--cuont", "3"));
		assertEquals("unknown option --frobnicate", mistake("i", "--out", "o", "--frobnicate"));
		assertTrue(mistake("i", "-v").startsWith("unknown option -v"));
	}

	@Test
	void missingAndMalformedValuesNameTheOption() {
		assertEquals("option --count needs a value: --count N", mistake("i", "--out", "o", "--count"));
		assertEquals("option --count needs a value: --count N", mistake("i", "--count", "--out", "o"));
		assertEquals("option --count expects an integer from 1 to 1000, got 'many'",
				mistake("i", "--out", "o", "--count", "many"));
		assertEquals("option --count expects an integer from 1 to 1000, got '0'",
				mistake("i", "--out", "o", "--count", "0"));
		assertEquals("option --mode expects one of fast, slow, got 'medium'",
				mistake("i", "--out", "o", "--mode", "medium"));
		assertEquals("option --verbose is a flag and takes no value (got 'yes')",
				mistake("i", "--out", "o", "--verbose=yes"));
		assertEquals("option --count is given twice", mistake("i", "--out", "o", "--count", "1", "--count", "2"));
	}

	@Test
	void missingRequiredOptionAndArguments() {
		assertEquals("missing option --out FILE (where to write)", mistake("in"));
		assertEquals("missing argument INPUT (the input)", mistake("--out", "o"));
		assertEquals("unexpected argument 'three'", mistake("--out", "o", "one", "two", "three"));
	}

	@Test
	void mistakesThroughMainExitWithTwoAndShowUsage() {
		CliRun run = CliRun.of("export", "t.phos", "--out", "x.json", "--format", "xml");
		assertEquals(ExitCode.USAGE, run.exit());
		assertEquals("workbench export: option --format expects one of chrome-json, csv, got 'xml'\n"
				+ "Usage: workbench export --out FILE [OPTIONS] TRACE\n"
				+ "Run 'workbench export --help' for details.\n", run.err());
		assertEquals("", run.out());
	}
}
