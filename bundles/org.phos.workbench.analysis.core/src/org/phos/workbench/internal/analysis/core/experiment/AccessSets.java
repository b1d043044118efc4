package org.phos.workbench.internal.analysis.core.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.cr.EngineAccessSource;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentOption;
import org.phos.workbench.analysis.core.experiment.ExperimentProblem;
import org.phos.workbench.cr.core.trace.LaunchAccessSource;
import org.phos.workbench.cr.core.trace.ObservedLaunchAccesses;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.cr.core.trace.WholeAllocationParameterPlaceholder;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.trace.core.Trace;

/**
 * Where the launches' read and write sets come from ({@code --sets}), and what the consistency check compares them
 * with: the observed accesses of the trace whenever it has them, so that a write the sets miss is reported.
 * <ul>
 * <li>{@code observed}: the accesses instrumentation recorded are the sets (the check finds nothing by construction;
 * it shows what exact sets cost);</li>
 * <li>{@code placeholder}: every pointer in the parameters makes its whole allocation read and written;</li>
 * <li>{@code engine:SPEC}: a speculation engine ({@code phos}, {@code arg-scan}, {@code best}, ...);</li>
 * <li>{@code auto}: observed when the trace has them, else placeholder.</li>
 * </ul>
 *
 * @param word auto, observed, placeholder or engine
 * @param engine the engine spec for {@code engine}, else null
 */
public record AccessSets(String word, @Nullable String engine) {

	public static final String WORDS = "auto, observed, placeholder, engine:NAME";

	/** {@code SOURCE[,SOURCE...]}; several sources multiply the runs (every policy with every source). */
	public static List<AccessSets> parse(String text) throws ExperimentException {
		List<AccessSets> out = new ArrayList<>();
		for (String part : text.split(",")) {
			String p = part.trim();
			String lower = p.toLowerCase(Locale.ROOT);
			AccessSets s;
			if (lower.startsWith("engine:") && p.length() > 7) {
				s = new AccessSets("engine", p.substring(7).trim());
			} else if (lower.equals("auto") || lower.equals("observed") || lower.equals("placeholder")) {
				s = new AccessSets(lower, null);
			} else {
				throw new ExperimentException(ExperimentProblem.of(ExperimentOption.SETS, "option --sets: unknown source '" + p + "' (known: " + WORDS + ")"));
			}
			if (!out.contains(s)) {
				out.add(s);
			}
		}
		return out;
	}

	private static String observedMissing(String file) {
		return file + ": --sets observed needs observed accesses, and this trace holds none; record it with PTX "
				+ "instrumentation or the sanitizer tool, or use --sets placeholder";
	}

	/** The source as written on the command line, for run names. */
	public String label() {
		return engine == null ? word : "engine:" + engine;
	}

	/**
	 * Fails early: a usage error for an unknown engine name; a failure for observed sets on a trace without
	 * observed accesses ({@code file} names the trace in the message).
	 */
	public void check(Trace trace, String file, EngineCatalog catalog) throws ExperimentException {
		if (word.equals("observed") && trace.observedAccesses().isEmpty()) {
			throw new ExperimentException(new ExperimentProblem(ExperimentOption.SETS, observedMissing(file), false));
		}
		if (engine != null) {
			try {
				catalog.create(engine, trace);
			} catch (IllegalArgumentException e) {
				throw new ExperimentException(ExperimentProblem.of(ExperimentOption.SETS, "option --sets: " + e.getMessage()));
			}
		}
	}

	public TraceWorkload workload(Trace trace, String name, String file, EngineCatalog catalog,
			IProgressMonitor monitor) throws ExperimentException {
		ObservedLaunchAccesses observed = new ObservedLaunchAccesses(trace);
		LaunchAccessSource truth = observed.isEmpty() ? null : observed;
		return switch (word) {
			case "observed" -> {
				if (observed.isEmpty()) {
					throw new ExperimentException(new ExperimentProblem(ExperimentOption.SETS, observedMissing(file),
							false));
				}
				yield new TraceWorkload(trace, name, observed, observed, true);
			}
			case "placeholder" -> new TraceWorkload(trace, name, new WholeAllocationParameterPlaceholder(), truth, true);
			case "engine" -> {
				SpeculationEngine e = catalog.create(String.valueOf(engine), trace);
				try {
					yield new TraceWorkload(trace, name, new EngineAccessSource(trace, e, monitor), truth, true);
				} finally {
					monitor.done();
				}
			}
			default -> observed.isEmpty() ? new AccessSets("placeholder", null).workload(trace, name, file, catalog, monitor)
					: new AccessSets("observed", null).workload(trace, name, file, catalog, monitor);
		};
	}
}
