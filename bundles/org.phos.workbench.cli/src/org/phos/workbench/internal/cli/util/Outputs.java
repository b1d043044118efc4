package org.phos.workbench.internal.cli.util;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;

import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.Main;
import org.phos.workbench.cr.core.io.OutputFile;
import org.phos.workbench.cr.core.io.OutputFiles;

/**
 * The files a command writes ({@code --out}, {@code --csv}, {@code --json}, {@code --markdown}), by the rules of
 * docs/cli.md "How outputs are written": checked before any work (never an input, never a link, folder, device or
 * FIFO), written under a temporary name beside the target and renamed into place when complete
 * ({@link OutputFile}), with the umask's permissions.
 */
public final class Outputs {

	private Outputs() {
	}

	/**
	 * Fails, with one line naming the option and the path, unless {@code file} may be written: its folder exists
	 * and is writable, it is not a folder, and {@link OutputFiles#refusal} has no objection (one of {@code inputs},
	 * a symbolic link, a device, FIFO or socket). Then removes the temporary files that killed runs left beside it.
	 */
	public static void check(Path file, String option, Collection<Path> inputs, CommandContext context)
			throws CommandFailedException {
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
		String refusal = OutputFiles.refusal(file, inputs);
		if (refusal != null) {
			throw new CommandFailedException(option + " " + file + ": " + refusal);
		}
		if (parent != null) {
			for (Path stale : OutputFiles.removeStaleTemporaries(parent)) {
				context.err().println("removed " + stale + ", left by a run that was killed before it finished");
			}
		}
	}

	/** Writes {@code file} through a writer that takes a path: it is given the temporary file to fill. */
	public static <T> T write(Path file, PathBody<T> body) throws CommandFailedException {
		try (OutputFile output = OutputFile.create(file)) {
			T result = body.write(output.temporary());
			output.commit();
			return result;
		} catch (IOException e) {
			throw new CommandFailedException("cannot write " + file + ": " + Main.describe(e), e);
		}
	}

	/** Writes {@code file} as UTF-8 text; a failed write (full disk) fails the command and leaves no file. */
	public static void writeText(Path file, TextBody body) throws CommandFailedException {
		try (OutputFile output = OutputFile.create(file)) {
			PrintStream print = new PrintStream(output.stream(), false, StandardCharsets.UTF_8);
			body.write(print);
			print.flush();
			if (print.checkError()) {
				throw new IOException("the write failed (is the disk full?)");
			}
			output.commit();
		} catch (IOException e) {
			throw new CommandFailedException("cannot write " + file + ": " + Main.describe(e), e);
		}
	}

	/** Fills the temporary file at the given path (opening it replaces its empty content). */
	@FunctionalInterface
	public interface PathBody<T> {
		T write(Path temporary) throws IOException;
	}

	/** Prints the content of a text file. */
	@FunctionalInterface
	public interface TextBody {
		void write(PrintStream out) throws IOException;
	}
}
