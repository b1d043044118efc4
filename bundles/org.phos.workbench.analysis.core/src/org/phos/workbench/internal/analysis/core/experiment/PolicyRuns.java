package org.phos.workbench.internal.analysis.core.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentOption;
import org.phos.workbench.analysis.core.experiment.ExperimentProblem;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.cr.core.CrPolicy;

/**
 * The policies of one {@code simulate} command line: {@code --policy SPEC[;SPEC...]}, each spec in
 * {@link CrPolicies} syntax, with {@code --at} as the instant of every spec that names none. Runs are named by their
 * spec as written (a repeated spec gets {@code #2}, ...), which is also the run column of the CSV files.
 */
public final class PolicyRuns {

	private PolicyRuns() {
	}

	/** The policies by run name, in command-line order. */
	public static Map<String, CrPolicy> parse(String specs, @Nullable String at) throws ExperimentException {
		return parse(specs, at, new LinkedHashMap<>());
	}

	/**
	 * The policies by run name, in command-line order; {@code instants} receives, by run name, where each run's
	 * instant was given ({@code --at 200ms} or {@code --policy soft-cow:at=launch:9}), for runs that name one.
	 */
	public static Map<String, CrPolicy> parse(String specs, @Nullable String at, Map<String, String> instants)
			throws ExperimentException {
		if (at != null) {
			try {
				CheckpointInstant.parse(at);
			} catch (IllegalArgumentException e) {
				throw usage(ExperimentOption.AT, "option --at: " + e.getMessage());
			}
		}
		List<String> list = new ArrayList<>();
		for (String s : specs.split(";")) {
			if (!s.isBlank()) {
				list.add(s.trim());
			}
		}
		if (list.isEmpty()) {
			throw usage(ExperimentOption.POLICIES, "option --policy: no policy given (known: " + known() + ")");
		}
		Map<String, CrPolicy> runs = new LinkedHashMap<>();
		for (String spec : list) {
			String full = at == null || spec.contains("at=") ? spec : spec + (spec.contains(":") ? "," : ":") + "at=" + at;
			CrPolicy policy;
			try {
				policy = CrPolicies.parse(full);
			} catch (IllegalArgumentException e) {
				throw usage(ExperimentOption.POLICIES, "option --policy: " + e.getMessage() + hint(spec));
			}
			String name = spec;
			for (int n = 2; runs.containsKey(name); n++) {
				name = spec + "#" + n;
			}
			runs.put(name, policy);
			if (spec.contains("at=")) {
				instants.put(name, "--policy " + spec);
			} else if (at != null) {
				instants.put(name, "--at " + at);
			}
		}
		return runs;
	}

	public static String known() {
		return String.join(", ", CrPolicies.NAMES.stream().sorted().toList());
	}

	private static ExperimentException usage(ExperimentOption option, String message) {
		return new ExperimentException(ExperimentProblem.of(option, message));
	}

	private static String hint(String spec) {
		return spec.contains(",") && !spec.contains(":")
				? "; parameters follow the name after a colon, e.g. soft-cow:at=launch:10,order=first-use, and "
						+ "policies are separated by ';'"
				: "";
	}
}
