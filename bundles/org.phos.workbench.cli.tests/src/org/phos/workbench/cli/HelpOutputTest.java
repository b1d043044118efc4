package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Help pages and {@code workbench help COMMAND} through the launcher script (issue #10). */
class HelpOutputTest {

	@TempDir
	Path dir;

	@Test
	void everyDefaultIsPrintedOnce() {
		Pattern twice = Pattern.compile("\\(default [^)]*\\)\\s+\\(default");
		for (Command command : BuiltinCommands.all()) {
			CliRun run = CliRun.of(command.name(), "--help");
			assertEquals(ExitCode.OK, run.exit(), run.toString());
			assertFalse(twice.matcher(run.out()).find(), command.name() + ": " + run.out());
		}
		assertTrue(CliRun.of("simulate", "--help").out().contains("(default h100)"));
	}

	/**
	 * {@code ./workbench help nope} must reach the tool's help command (which exits 2), not print the script's
	 * usage and exit 0. Runs the real script in a copy of the repository's layout with a stand-in java that records
	 * its arguments, so nothing is built.
	 */
	@Test
	void theScriptPassesHelpCommandToTheTool() throws Exception {
		Path repo = Path.of(System.getProperty("phos.repo", "../.."));
		Path script = repo.resolve("workbench");
		Path root = dir.resolve("root");
		Files.createDirectories(root.resolve("bundles/org.phos.workbench.cli/src/org/phos/workbench/cli"));
		Files.writeString(root.resolve("bundles/org.phos.workbench.cli/src/org/phos/workbench/cli/Main.java"), "");
		Files.createDirectories(root.resolve("releng/org.phos.workbench.product/target/products/"
				+ "org.phos.workbench.product/linux/gtk/x86_64/phoenix-workbench/plugins"));
		Files.copy(script, root.resolve("workbench"));
		Path java = root.resolve("jdk/bin/java");
		Files.createDirectories(java.getParent());
		Files.writeString(java, """
				#!/bin/sh
				case "$*" in *-XshowSettings*) echo '    java.specification.version = 21' >&2; exit 0 ;; esac
				echo "java $*"
				exit 7
				""");
		Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
		Files.createDirectories(root.resolve("target/workbench"));
		Files.writeString(root.resolve("target/workbench/build.stamp"), "");
		ProcessBuilder builder = new ProcessBuilder("bash", root.resolve("workbench").toString(), "help", "nope")
				.redirectErrorStream(true);
		builder.environment().put("JAVA_HOME", root.resolve("jdk").toString());
		Process p = builder.start();
		p.getOutputStream().close();
		String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		int exit = p.waitFor();
		assertTrue(output.contains("org.phos.workbench.cli.Main help nope"), output);
		assertEquals(7, exit, "the tool's exit code: " + output);
	}
}
