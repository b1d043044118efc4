package org.phos.workbench.internal.ui.accuracy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

import java.util.function.Consumer;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.swt.widgets.Control;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.ValidationAnswer;
import org.phos.workbench.analysis.core.ValidationQuery;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * The speculation views' one source of accuracy numbers: the analysis layer's {@link ValidationQuery} (the call
 * behind {@code workbench validate}), asked once per trace and engine set, its answer cached. The views only render
 * it; they never judge speculation themselves, so they cannot disagree with the command line.
 */
public final class Validations {
	/** The workbench's one analysis session, shared with the Launches view (answers cached per trace). */
	public static final AnalysisSession SESSION = org.phos.workbench.internal.ui.launches.Analysis.session();
	/** Engines shown side by side until the user picks others. */
	public static final List<String> DEFAULT_ENGINES = List.of(EngineRegistry.BEST, "phos");
	/** Engines offered in the views' toolbars (the command line's default set). */
	public static final List<String> OFFERED_ENGINES = List.of(EngineRegistry.BEST, "phos", "arg-scan",
			"ptx-flow/arg-scan");

	/**
	 * The result of one validation.
	 *
	 * @param trace the trace
	 * @param engines engine names, in the order asked
	 * @param answer the analysis layer's answer ({@code report()} is what validate prints), null with an error
	 * @param error why there is no answer (no observed accesses, a failure), or null
	 */
	public record Result(LoadedTrace trace, List<String> engines, @Nullable ValidationAnswer answer,
			@Nullable String error) {
		/** @return validate's report, or null */
		public @Nullable ValidationReport report() {
			ValidationAnswer a = answer;
			return a == null ? null : a.report();
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
	 * Asks the analysis layer (long: call from a Job) or returns the cached result.
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
			result = new Result(trace, List.copyOf(engines), null, trace.name()
					+ " holds no observed accesses: there is no ground truth to judge speculation by");
		} else {
			result = new Result(trace, List.copyOf(engines),
					SESSION.validate(new ValidationQuery(trace.trace(), List.copyOf(engines), null), monitor), null);
		}
		synchronized (Validations.class) {
			CACHE.computeIfAbsent(trace, k -> new HashMap<>()).put(List.copyOf(engines), result);
		}
		return result;
	}

	/**
	 * Validates in a Job, cancelling {@code previous} (the view's last request), and hands the result, or the failure
	 * as a message, to {@code done} on the UI thread unless {@code owner} was disposed meanwhile.
	 *
	 * @return the scheduled job, for the view's next request to cancel
	 */
	public static Job validateInBackground(LoadedTrace loaded, List<String> engines, @Nullable Job previous,
			Control owner, Consumer<Result> done) {
		if (previous != null) {
			previous.cancel();
		}
		Job job = Job.create("Validating " + String.join(", ", engines) + " on " + loaded.name(), (IProgressMonitor m) -> {
			Result r;
			try {
				r = validate(loaded, engines, m);
			} catch (RuntimeException e) {
				r = new Result(loaded, engines, null, loaded.name() + ": validation failed: " + e.getMessage());
			}
			Result result = r;
			if (!owner.isDisposed()) {
				owner.getDisplay().asyncExec(() -> {
					if (!owner.isDisposed()) {
						done.accept(result);
					}
				});
			}
			return m.isCanceled() ? Status.CANCEL_STATUS : Status.OK_STATUS;
		});
		job.schedule();
		return job;
	}
}
