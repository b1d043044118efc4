package org.phos.workbench.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs {@link Main} in-process as the {@code workbench} script would, capturing exit code, stdout and stderr.
 *
 * @param exit the exit code
 * @param out  what went to stdout
 * @param err  what went to stderr
 */
public record CliRun(int exit, String out, String err) {

	/**
	 * @param args the command line after {@code workbench}
	 * @return what the run did
	 */
	public static CliRun of(String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
				PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
			int exit = new Main(BuiltinCommands.all()).run(args, o, e, false);
			return new CliRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
		}
	}

	@Override
	public String toString() {
		return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
	}
}
