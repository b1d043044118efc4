package org.phos.workbench.internal.ui.accuracy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Consumer;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.swt.widgets.Control;
import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.KernelQuery;
import org.phos.workbench.analysis.core.KernelRow;
import org.phos.workbench.analysis.core.ValidationAnswer;
import org.phos.workbench.analysis.core.ValidationQuery;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.speculation.core.validate.PtxCoverage;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * The speculation views' one source of accuracy numbers: the analysis layer's {@link ValidationQuery} (the call
 * behind {@code workbench validate --engine ... --tool ...}) and {@link KernelQuery}, asked once per trace, engine set
 * and tool, the answers cached. The views only render them; they never judge speculation themselves, so they cannot
 * disagree with the command line.
 */
public final class Validations {
	/** The workbench's one analysis session, shared with the Launches view (answers cached per trace). */
	public static final AnalysisSession SESSION = org.phos.workbench.internal.ui.launches.Analysis.session();
	/** Engines shown side by side until the user picks others. */
	public static final List<String> DEFAULT_ENGINES = List.of(EngineRegistry.BEST, "phos");

	/**
	 * The result of one validation.
	 *
	 * @param trace the trace
	 * @param engines engine names, in the order asked
	 * @param tool the observing tool whose records are the truth, or null for all united
	 * @param answer the analysis layer's answer ({@code report()} is what validate prints), null with an error
	 * @param kernels the per-kernel table for the same engines and tool, null with an error
	 * @param error why there is no answer (no observed accesses, a failure), or null
	 * @param ptx which launches have their kernel's PTX (i15-val: the line validate and info print), null with an error
	 */
	public record Result(LoadedTrace trace, List<String> engines, @Nullable String tool, @Nullable ValidationAnswer answer,
			@Nullable Table<KernelRow> kernels, @Nullable String error, PtxCoverage.@Nullable Summary ptx) {

		/** A result without the PTX summary. */
		public Result(LoadedTrace trace, List<String> engines, @Nullable String tool, @Nullable ValidationAnswer answer,
				@Nullable Table<KernelRow> kernels, @Nullable String error) {
			this(trace, engines, tool, answer, kernels, error, null);
		}

		/** @return validate's report, or null */
		public @Nullable ValidationReport report() {
			ValidationAnswer a = answer;
			return a == null ? null : a.report();
		}
	}

	private record Key(List<String> engines, @Nullable String tool) {
	}

	private static final Map<LoadedTrace, Map<Key, Result>> CACHE = new WeakHashMap<>();

	private Validations() {
	}

	/** @return the cached result for every tool united, or null when it has not been computed */
	public static @Nullable Result cached(LoadedTrace trace, List<String> engines) {
		return cached(trace, engines, null);
	}

	/** @return the cached result, or null when it has not been computed */
	public static synchronized @Nullable Result cached(LoadedTrace trace, List<String> engines, @Nullable String tool) {
		Map<Key, Result> m = CACHE.get(trace);
		return m == null ? null : m.get(new Key(List.copyOf(engines), tool));
	}

	/**
	 * Asks the analysis layer (long: call from a Job) or returns the cached result.
	 *
	 * @throws IllegalArgumentException for an unknown engine name
	 * @throws OperationCanceledException when the monitor was cancelled
	 */
	public static Result validate(LoadedTrace trace, List<String> engines, @Nullable String tool,
			@Nullable IProgressMonitor monitor) {
		Result cached = cached(trace, engines, tool);
		if (cached != null) {
			return cached;
		}
		List<String> asked = List.copyOf(engines);
		Result result;
		if (trace.trace().observedAccesses().isEmpty()) {
			java.nio.file.Path side = org.phos.workbench.analysis.core.ObservedSideFiles.find(trace.file()); // i15-val
			result = new Result(trace, asked, tool, null, null, trace.name()
					+ " holds no observed accesses: there is no ground truth to judge speculation by" + (side == null
							? "" : ". " + side.getFileName() + " beside it holds them: 'workbench validate' uses it, "
									+ "and to open one trace holding both: "
									+ org.phos.workbench.analysis.core.ObservedSideFiles.mergeCommand(
											trace.file().toString(), side)));
		} else if (SpeculationValidator.observedLaunchCount(trace.trace(), tool) == 0) {
			result = new Result(trace, asked, tool, null, null, trace.name() + " holds no usable observed accesses"
					+ (tool == null ? "" : " by tool " + tool) + "; its tools: "
					+ String.join(", ", SpeculationValidator.tools(trace.trace())));
		} else {
			ValidationAnswer answer = SESSION.validate(new ValidationQuery(trace.trace(), asked, tool), monitor);
			Table<KernelRow> kernels = SESSION.kernels(new KernelQuery(trace.trace(), asked, tool), monitor);
			result = new Result(trace, asked, tool, answer, kernels, null, PtxCoverage.of(trace.trace())); // i15-val
		}
		synchronized (Validations.class) {
			CACHE.computeIfAbsent(trace, k -> new HashMap<>()).put(new Key(asked, tool), result);
		}
		return result;
	}

	/**
	 * Validates in a Job, cancelling {@code previous} (the view's last request), and hands the result, or the failure
	 * as a message naming the trace, to {@code done} on the UI thread unless {@code owner} was disposed meanwhile.
	 *
	 * @return the scheduled job, for the view's next request to cancel
	 */
	public static Job validateInBackground(LoadedTrace loaded, List<String> engines, @Nullable String tool,
			@Nullable Job previous, Control owner, Consumer<Result> done) {
		if (previous != null) {
			previous.cancel();
		}
		List<String> asked = List.copyOf(engines);
		Job job = Job.create("Validating " + String.join(", ", asked) + (tool == null ? "" : " against " + tool) + " on "
				+ loaded.name(), (IProgressMonitor m) -> {
					Result r;
					try {
						r = validate(loaded, asked, tool, m);
					} catch (OperationCanceledException e) {
						return Status.CANCEL_STATUS;
					} catch (RuntimeException e) {
						r = new Result(loaded, asked, tool, null, null,
								loaded.name() + ": validation failed: " + e.getMessage());
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
