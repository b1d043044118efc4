package org.phos.workbench.internal.ui.accuracy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.validate.AllocationVerdict;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * The speculation views' one source of numbers: {@link SpeculationValidator#validate} (the call behind
 * {@code workbench validate}) run once per trace and engine set, with every per-allocation verdict kept by launch
 * event. The views only render this; they never judge speculation themselves, so they cannot disagree with the
 * command line.
 */
public final class Validations {
	/** Engines shown side by side until the user picks others. */
	public static final List<String> DEFAULT_ENGINES = List.of(EngineRegistry.BEST, "phos");
	/** Engines offered in the views' toolbars (the command line's default set). */
	public static final List<String> OFFERED_ENGINES = List.of(EngineRegistry.BEST, "phos", "arg-scan",
			"ptx-flow/arg-scan");

	/** One engine's verdict for one allocation; {@code engine} is the name as asked ({@code best}). */
	public record Verdict(String engine, AllocationVerdict verdict) {
	}

	/**
	 * The result of one validation.
	 *
	 * @param trace the trace
	 * @param engines engine names, in the order asked
	 * @param report the report, as the command line prints it
	 * @param verdicts every verdict, by launch event
	 * @param error why there is no report (no observed accesses), or null
	 */
	public record Result(LoadedTrace trace, List<String> engines, @Nullable ValidationReport report,
			Map<Integer, List<Verdict>> verdicts, @Nullable String error) {
		/** @return the verdicts of one launch event (empty when it was not observed or is excluded) */
		public List<Verdict> at(int event) {
			return verdicts.getOrDefault(event, List.of());
		}
	}

	private static final Map<LoadedTrace, Map<List<String>, Result>> CACHE = new WeakHashMap<>();

	private Validations() {
	}

	/** @return the cached result, or null when it has not been computed */
	public static synchronized @Nullable Result cached(LoadedTrace trace, List<String> engines) {
		Map<List<String>, Result> m = CACHE.get(trace);
		return m == null ? null : m.get(engines);
	}

	/**
	 * Validates (long: call from a Job) or returns the cached result.
	 *
	 * @throws IllegalArgumentException for an unknown engine name
	 */
	public static Result validate(LoadedTrace trace, List<String> engines, @Nullable IProgressMonitor monitor) {
		Result cached = cached(trace, engines);
		if (cached != null) {
			return cached;
		}
		Result result;
		if (trace.trace().observedAccesses().isEmpty() || SpeculationValidator.observedLaunchCount(trace.trace(), null) == 0) {
			result = new Result(trace, List.copyOf(engines), null, Map.of(), trace.name()
					+ " holds no observed accesses: there is no ground truth to judge speculation by");
		} else {
			List<SpeculationEngine> fresh = new ArrayList<>();
			for (String name : engines) {
				fresh.add(EngineRegistry.create(name, trace.trace()));
			}
			// the report names an engine by its expansion (best is ptx-flow/arg-scan+indirect): show the name asked
			Map<String, String> asked = new HashMap<>();
			for (int i = 0; i < fresh.size(); i++) {
				asked.putIfAbsent(fresh.get(i).name(), engines.get(i));
			}
			Map<Integer, List<Verdict>> byLaunch = new HashMap<>();
			ValidationReport report = SpeculationValidator.validate(trace.trace(), fresh, null, monitor,
					(engine, v) -> byLaunch.computeIfAbsent(v.launchEvent(), k -> new ArrayList<>())
							.add(new Verdict(asked.getOrDefault(engine, engine), v)));
			if (monitor != null && monitor.isCanceled()) {
				return new Result(trace, List.copyOf(engines), null, Map.of(), "cancelled");
			}
			result = new Result(trace, List.copyOf(engines), report, byLaunch, null);
		}
		synchronized (Validations.class) {
			CACHE.computeIfAbsent(trace, k -> new HashMap<>()).put(List.copyOf(engines), result);
		}
		return result;
	}
}
