package org.phos.workbench.internal.cli.commands;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import org.eclipse.core.runtime.IProgressMonitor;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.Main;
import org.phos.workbench.trace.core.TraceAnomaly;
import org.phos.workbench.trace.core.TraceFormatException;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWarning;

/**
 * Loads a trace for a command: checks the file, reads it with progress on a terminal, turns reader failures into
 * one-line messages (file and byte offset), and prints on stderr the warnings of a damaged file that loaded its
 * intact prefix and the anomalies of a strange but well-formed trace (each kind once: count and first event), so
 * that every command that loads a trace says when its analysis rests on a strange trace.
 */
public final class TraceLoader {

	private TraceLoader() {
	}

	public static TraceLoadResult load(Path file, CommandContext context) throws CommandFailedException {
		InputFiles.checkReadable(file);
		IProgressMonitor monitor = context.progress();
		TraceLoadResult result;
		try {
			result = TraceReader.read(file, monitor);
		} catch (TraceFormatException e) {
			throw new CommandFailedException(file + ": cannot load: at byte offset " + e.offset() + ": " + e.reason(),
					e);
		} catch (IOException e) {
			throw new CommandFailedException(file + ": cannot read: " + Main.describe(e), e);
		} catch (UncheckedIOException e) {
			throw new CommandFailedException(file + ": cannot read: " + Main.describe(e.getCause()), e);
		} finally {
			monitor.done();
		}
		for (TraceWarning warning : result.warnings()) {
			context.warn(file + ": at byte offset " + warning.offset() + ": " + warning.message());
		}
		if (!result.warnings().isEmpty()) {
			context.warn(file + ": loaded the intact part: " + result.trace().eventCount() + " events");
		}
		for (TraceAnomaly anomaly : result.anomalies()) {
			context.warn(file + ": strange trace: " + anomaly.message());
		}
		return result;
	}
}
