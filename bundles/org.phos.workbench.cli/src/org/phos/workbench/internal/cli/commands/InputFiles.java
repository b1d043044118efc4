package org.phos.workbench.internal.cli.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.Main;
import org.phos.workbench.cli.UsageException;

/**
 * Checks on the files a command reads and writes, with messages that say what to do.
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

	/** Fails unless {@code file} can be created: its directory exists and it is not a directory itself. */
	static void checkWritable(Path file, String option) throws CommandFailedException {
		if (Files.isDirectory(file)) {
			throw new CommandFailedException(option + " " + file + ": is a directory; give a file name");
		}
		Path parent = file.toAbsolutePath().getParent();
		if (parent != null && !Files.isDirectory(parent)) {
			throw new CommandFailedException(option + " " + file + ": directory " + parent + " does not exist");
		}
		if (parent != null && !Files.isWritable(parent)) {
			throw new CommandFailedException(option + " " + file + ": directory " + parent + " is not writable");
		}
	}

	/** A temporary file next to {@code target}, so that a finished export can be moved into place atomically. */
	static Path temporaryNextTo(Path target) throws CommandFailedException {
		Path parent = target.toAbsolutePath().getParent();
		try {
			return Files.createTempFile(parent, "." + target.getFileName() + ".", ".part");
		} catch (IOException e) {
			throw new CommandFailedException("cannot create a file in " + parent + ": " + Main.describe(e), e);
		}
	}

	/** Moves a finished temporary file to its target, replacing it. */
	static void moveIntoPlace(Path temporary, Path target) throws CommandFailedException {
		try {
			try {
				Files.move(temporary, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
						java.nio.file.StandardCopyOption.ATOMIC_MOVE);
			} catch (java.nio.file.AtomicMoveNotSupportedException e) {
				Files.move(temporary, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
			}
		} catch (IOException e) {
			throw new CommandFailedException("cannot write " + target + ": " + Main.describe(e), e);
		}
	}

	static void deleteQuietly(Path file) {
		try {
			Files.deleteIfExists(file);
		} catch (IOException e) {
			// nothing more to do: the temporary file is named .NAME.*.part
		}
	}
}
