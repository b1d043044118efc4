package org.phos.workbench.analysis.core.experiment;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Where and when a saved experiment was run live on a GPU (by {@code workbench live --save-as}, {@code experiment
 * new|run --live} or the New Experiment dialog's "Run live on the GPU"), as its {@code experiment.json} (or, for
 * experiments saved before that field, its outputs' manifest) says. A live experiment opens from its files on any
 * machine; only running it again needs a GPU.
 *
 * @param device the device's name as the driver reports it (e.g. {@code NVIDIA H100 80GB HBM3})
 * @param finished when the live run finished (ISO-8601, UTC), or null when the files do not say
 */
public record LiveRun(String device, @Nullable String finished) {

	/** {@code live, NVIDIA H100 80GB HBM3, 2026-11-25}: the label of the Experiments view and the command line. */
	public String label() {
		String f = finished;
		return "live, " + device + (f == null || f.length() < 10 ? "" : ", " + f.substring(0, 10));
	}
}
