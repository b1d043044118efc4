package org.phos.workbench.analysis.core;

import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.speculation.core.validate.ValidationReport;

/**
 * The answer to a {@link ValidationQuery}: {@code validate}'s report, and each launch's verdict per engine.
 */
public final class ValidationAnswer {

	private final ValidationQuery query;
	private final ValidationReport report;
	/** Per engine, per launch index: the {@link LaunchVerdict} ordinal. */
	private final byte[][] verdicts;

	ValidationAnswer(ValidationQuery query, ValidationReport report, byte[][] verdicts) {
		this.query = query;
		this.report = report;
		this.verdicts = verdicts;
	}

	/** @return the question */
	public ValidationQuery query() {
		return query;
	}

	/** @return what {@code validate} prints, as a record */
	public ValidationReport report() {
		return report;
	}

	/**
	 * @param engine index in the query's engines
	 * @param launch dense launch index
	 * @return the launch's verdict under that engine
	 */
	public LaunchVerdict verdict(int engine, int launch) {
		return LaunchVerdict.values()[verdicts[engine][launch]];
	}

	/** @return launch indices whose verdict under the engine is unsafe, ascending */
	public List<Integer> unsafeLaunches(int engine) {
		List<Integer> out = new ArrayList<>();
		byte[] v = verdicts[engine];
		for (int i = 0; i < v.length; i++) {
			if (LaunchVerdict.values()[v[i]].unsafe()) {
				out.add(i);
			}
		}
		return out;
	}
}
