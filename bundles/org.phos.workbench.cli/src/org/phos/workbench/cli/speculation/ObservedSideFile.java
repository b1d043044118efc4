package org.phos.workbench.cli.speculation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.ObservedSideFiles;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.internal.cli.commands.TraceLoader;
import org.phos.workbench.speculation.core.instrument.ObservedTraceWriter;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;

/**
 * The observed accesses an instrumentation tool wrote beside a trace (i15-val, issue #15): the sanitizer tool writes
 * {@code TRACE.observed.phos}; a file named {@code NAME.observed.phos} beside {@code NAME.phos} is taken too. When the
 * trace holds no observed accesses of its own, {@code validate} uses the side file as {@code merge-observed} would
 * (the same checks: every record must name a launch of the trace), without writing a merged trace the user did not
 * ask for, and says which {@code merge-observed} command makes that file. The side file's coverage (which launches a
 * sampling observer saw) comes along, as {@code merge-observed} carries it. When the trace holds its own, a side file is
 * not used and a note names the command that would add it.
 */
final class ObservedSideFile {

	/**
	 * @param trace the trace to judge: the loaded one, or a copy holding the side file's observed accesses
	 * @param note what was used, for the output; null when nothing is to be said
	 */
	record Resolved(Trace trace, @Nullable String note) {
	}

	private ObservedSideFile() {
	}

	/** @return the side files that may belong to {@code file}, in the order they are tried */
	static List<Path> candidates(String file) {
		return ObservedSideFiles.candidates(Path.of(file));
	}

	/** @return the merge-observed command line that folds {@code side} into a copy of {@code file} */
	static String mergeCommand(String file, Path side) {
		return ObservedSideFiles.mergeCommand(file, side);
	}

	/**
	 * @param file the trace's name as given
	 * @param trace the loaded trace
	 * @param context for loading and warnings
	 * @return the trace to judge
	 * @throws CommandFailedException when neither the trace nor a side file holds observed accesses, or the side
	 *         file cannot be read or belongs to another run (the message names the file, and the offset where the
	 *         format is damaged)
	 */
	static Resolved resolve(String file, Trace trace, CommandContext context) throws CommandFailedException {
		Path side = ObservedSideFiles.find(Path.of(file));
		if (!trace.observedAccesses().isEmpty()) {
			return new Resolved(trace, side == null ? null
					: "note: " + side + " beside the trace also holds observed accesses; not used, the trace's own "
							+ "are (to replace those of its tools: " + mergeCommand(file, side) + ")");
		}
		if (side == null) {
			throw new CommandFailedException(file + ": the trace holds no observed accesses, and there is no "
					+ candidates(file).get(0).getFileName() + " beside it, so there is no ground truth to validate "
					+ "against; instrument it first (PTX instrumentation or the sanitizer tool, which writes that "
					+ "file), or use 'speculate' to see the predictions alone");
		}
		Trace sideTrace;
		try {
			sideTrace = TraceLoader.load(side, context).trace();
		} catch (CommandFailedException e) {
			throw new CommandFailedException(e.getMessage() + " (the observed accesses beside " + file
					+ "; the trace itself holds none)", e);
		}
		List<ObservedAccess> observed = sideTrace.observedAccesses();
		if (observed.isEmpty()) {
			throw new CommandFailedException(file + ": the trace holds no observed accesses, and neither does " + side
					+ " beside it: no ground truth to validate against");
		}
		for (ObservedAccess a : observed) {
			long index = a.launchEvent();
			if (index < 0 || index >= trace.eventCount() || trace.kind((int) index) != EventKind.LAUNCH) {
				throw new CommandFailedException(side + ": observed access names event " + index + ", which is "
						+ (index < 0 || index >= trace.eventCount() ? "outside " : "not a launch of ") + file + " ("
						+ trace.eventCount() + " events): was the side file recorded with another run?");
			}
		}
		List<ObservationCoverage> coverage = sideTrace.observationCoverage(); // which launches a sampling tool saw
		for (ObservationCoverage c : coverage) {
			for (long e : c.observedEvents()) {
				if (e < 0 || e >= trace.eventCount() || trace.kind((int) e) != EventKind.LAUNCH) {
					throw new CommandFailedException(side + ": its coverage names event " + e + ", which is not a "
							+ "launch of " + file + ": was the side file recorded with another run?");
				}
			}
		}
		Path merged = null;
		try {
			merged = Files.createTempFile("phos-validate-", ".phos");
			ObservedTraceWriter.write(trace, observed, coverage, merged);
			Trace withTruth = TraceLoader.load(merged, context).trace();
			return new Resolved(withTruth, "observed accesses: " + observed.size() + " records from " + side
					+ " (beside the trace, not merged into it; to write one file holding both: "
					+ mergeCommand(file, side) + ")");
		} catch (IOException e) {
			throw new CommandFailedException(file + ": cannot combine it with " + side + " in a temporary file: " + e,
					e);
		} finally {
			if (merged != null) {
				try {
					Files.deleteIfExists(merged);
				} catch (IOException e) {
					context.warn("cannot delete the temporary file " + merged + ": " + e.getMessage());
				}
			}
		}
	}
}
