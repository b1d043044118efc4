package org.phos.workbench.analysis.core.experiment;

import java.nio.file.Path;
import java.util.List;

/**
 * An experiment run whose outputs were written into a folder as {@code simulate --out} writes them.
 *
 * @param result the runs in memory
 * @param dir the folder
 * @param files the names written, {@code manifest.json} last
 */
public record ExperimentOutputs(ExperimentResult result, Path dir, List<String> files) {
	public ExperimentOutputs {
		files = List.copyOf(files);
	}
}
