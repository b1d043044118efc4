package org.phos.workbench.internal.cli.commands;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.LiveAccuracy;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.trace.core.attach.AttachException;
import org.phos.workbench.trace.core.attach.LiveStream;
import org.phos.workbench.trace.core.attach.LiveWindow;

/**
 * {@code workbench attach PID}'s accuracy lines (i14-liveacc): the stream's chunks go into a {@link LiveWindow} as
 * they arrive; when observed accesses have arrived since the last lines, the window becomes a trace (a temporary
 * {@code .phos}) and {@link LiveAccuracy} judges it as {@code validate} does, one line per engine.
 */
final class AttachAccuracy implements AutoCloseable {
	private final LiveWindow window;
	private final LiveAccuracy accuracy = new LiveAccuracy(AnalysisSession.standard(), LiveAccuracy.DEFAULT_ENGINES,
			null);
	private long printedChunks;
	private long printedMissed;
	private @Nullable Path file;
	private @Nullable String failure;

	AttachAccuracy(int window) {
		this.window = new LiveWindow(window);
	}

	/** The reading thread: takes the chunk. */
	void accept(LiveStream.StreamChunk c) throws AttachException {
		window.accept(c);
	}

	/**
	 * Prints the engines' lines when new observations arrived since the last time (the command's thread); the last
	 * call, after the stream ended, prints them again only if the figures changed.
	 */
	void print(PrintStream out, CommandContext context, boolean last) {
		long chunks = window.observedChunks();
		long missed = window.observedMissed();
		boolean fresh = chunks != printedChunks || missed != printedMissed;
		if ((!fresh && !last) || !window.started() || failure != null) {
			return;
		}
		printedChunks = chunks;
		printedMissed = missed;
		try {
			Path f = file;
			if (f == null) {
				f = Files.createTempFile("phos-attach-", ".window.phos");
				file = f;
			}
			LiveWindow.Snapshot s = window.snapshot(f, null);
			LiveAccuracy.Figures before = accuracy.last();
			LiveAccuracy.Figures fig = accuracy.update(s.loaded().trace(), last, null);
			if (fig == null || (!fresh && fig == before)) {
				return;
			}
			out.printf(Locale.ROOT, "         accuracy: %s%s%n", fig.summary(),
					missed == 0 ? "" : "; the observations of " + missed + " launches were missed (reader behind)");
			for (LiveAccuracy.EngineFigures e : fig.engines()) {
				out.println("           " + e.line());
			}
		} catch (IOException | RuntimeException e) {
			failure = e.getMessage();
			context.err().println("warning: no more accuracy lines: " + e.getMessage());
		}
	}

	@Override
	public void close() {
		Path f = file;
		if (f != null) {
			try {
				Files.deleteIfExists(f);
				Files.deleteIfExists(f.resolveSibling(f.getFileName() + ".part"));
			} catch (IOException e) {
				// a temporary file: nothing else to do about it
			}
		}
	}
}
