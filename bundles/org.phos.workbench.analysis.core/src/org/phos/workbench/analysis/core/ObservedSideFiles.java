package org.phos.workbench.analysis.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Where an instrumentation tool leaves observed accesses beside a trace (i15-val, issue #15): the sanitizer tool
 * writes {@code TRACE.observed.phos}; {@code NAME.observed.phos} beside {@code NAME.phos} is taken too. The command
 * line's {@code validate} uses such a file when the trace holds no observed accesses; the views name it and the
 * {@code merge-observed} command that folds it into a trace. One definition for both.
 */
public final class ObservedSideFiles {

	private ObservedSideFiles() {
	}

	/** @return the side files that may belong to {@code trace}, in the order they are tried (they may not exist) */
	public static List<Path> candidates(Path trace) {
		List<Path> names = new ArrayList<>();
		String name = String.valueOf(trace.getFileName());
		names.add(trace.resolveSibling(name + ".observed.phos"));
		if (name.endsWith(".phos") && !name.endsWith(".observed.phos")) {
			names.add(trace.resolveSibling(name.substring(0, name.length() - ".phos".length()) + ".observed.phos"));
		}
		return names;
	}

	/** @return the first candidate that is a regular file, or null */
	public static @Nullable Path find(Path trace) {
		for (Path c : candidates(trace)) {
			if (Files.isRegularFile(c)) {
				return c;
			}
		}
		return null;
	}

	/**
	 * @param trace the trace as the user named it
	 * @param side its side file
	 * @return {@code workbench merge-observed TRACE SIDE --out NAME-with-truth.phos}, the merged file beside TRACE
	 */
	public static String mergeCommand(String trace, Path side) {
		Path path = Path.of(trace);
		String name = String.valueOf(path.getFileName());
		String stem = name.endsWith(".phos") ? name.substring(0, name.length() - ".phos".length()) : name;
		return "workbench merge-observed " + trace + " " + side + " --out " + path.resolveSibling(stem
				+ "-with-truth.phos");
	}
}
