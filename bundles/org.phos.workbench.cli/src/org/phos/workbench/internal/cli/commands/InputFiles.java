package org.phos.workbench.internal.cli.commands;

import java.nio.file.Files;
import java.nio.file.Path;

import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.UsageException;

/**
 * Checks on the files a command reads, with messages that say what to do. The files it writes go through
 * {@link org.phos.workbench.internal.cli.util.Outputs}.
 */
final class InputFiles {

	private InputFiles() {
	}

	/** A path from the command line; a malformed one is a usage error. */
	static Path path(String text, String label) throws UsageException {
		try {
			return Path.of(text);
		} catch (java.nio.file.InvalidPathException e) {
			throw new UsageException(label + " '" + text + "' is not a valid file name: " + e.getReason());
		}
	}

	/** Fails unless {@code file} is an existing, readable, regular file. */
	static void checkReadable(Path file) throws CommandFailedException {
		if (!Files.exists(file)) {
			Path parent = file.toAbsolutePath().getParent();
			String hint = parent != null && !Files.isDirectory(parent) ? " (directory " + parent + " does not exist)"
					: "";
			throw new CommandFailedException(file + ": no such file" + hint);
		}
		if (Files.isDirectory(file)) {
			throw new CommandFailedException(file + ": is a directory, not a trace file");
		}
		if (!Files.isReadable(file)) {
			throw new CommandFailedException(file + ": permission denied (not readable)");
		}
	}
}
