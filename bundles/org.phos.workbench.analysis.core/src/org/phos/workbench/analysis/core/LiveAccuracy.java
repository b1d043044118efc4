package org.phos.workbench.analysis.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.validate.AccessVerdict;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.EngineValidation;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.Trace;

/**
 * Accuracy of a live trace while it records (i14-liveacc, issue #14): when the observing tool (the sanitizer tool)
 * runs in the process, it hands the observed accesses of each read-back to the recorder, which streams them to
 * attached readers; each generation of the live trace then holds the truth that has arrived so far for its launches.
 * This asks the analysis layer the very question {@code validate} asks ({@link ValidationQuery} through
 * {@link AnalysisSession#validate}: the same engines, the same judge) of a generation, but only when the generation
 * holds observations the last one judged did not, and keeps the answer's per-engine figures for the views and for
 * {@code workbench attach}'s rolling lines. When the stream has ended and every event fits the live window, the last
 * generation holds what the saved stream holds, so its figures are {@code validate}'s on the saved stream.
 * <p>
 * The figures are over the launches the generation holds (a bounded live window lets older launches go, and their
 * verdicts with them). Thread-safe.
 */
public final class LiveAccuracy {

	/** {@code validate}'s default engines ({@code --engine}'s default): the live lines compare with its output. */
	public static final List<String> DEFAULT_ENGINES = List.of("phos", "arg-scan", "ptx-flow/arg-scan", "best");

	/**
	 * One engine's figures, as {@code validate} prints them.
	 *
	 * @param engine the engine as the report names it ({@code best} expanded)
	 * @param launchesJudged launches compared
	 * @param unsafeLaunches launches with a write the engine did not speculate
	 * @param missedWrites (launch, allocation) pairs judged {@link AccessVerdict#MISSED_WRITE}
	 * @param writeRecall recalled write pairs / write pairs
	 * @param bytePrecision useful / speculated bytes
	 */
	public record EngineFigures(String engine, long launchesJudged, long unsafeLaunches, long missedWrites,
			double writeRecall, double bytePrecision) {

		/** The figures of one engine of a report. */
		public static EngineFigures of(EngineValidation e) {
			Accuracy a = e.total();
			return new EngineFigures(e.engine(), a.launches(), a.unsafeLaunches(), a.count(AccessVerdict.MISSED_WRITE),
					a.writeRecall(), a.bytePrecision());
		}

		/** A share as {@code validate} prints it ({@code -} when no launch was judged). */
		public String share(double share) {
			return launchesJudged == 0 ? "-" : String.format(Locale.ROOT, "%.2f%%", share * 100);
		}

		/** One line: {@code ENGINE  judged N  unsafe U  missed writes M  write recall R  byte precision P}. */
		public String line() {
			return String.format(Locale.ROOT, "%-26s judged %d  unsafe %d  missed writes %d  write recall %s  "
					+ "byte precision %s", engine, launchesJudged, unsafeLaunches, missedWrites, share(writeRecall),
					share(bytePrecision));
		}
	}

	/**
	 * What a judged generation said.
	 *
	 * @param launches launches the generation holds
	 * @param observedLaunches launches with observed accesses (validate's "N of M launches observed")
	 * @param coveredLaunches launches the observer lists as observed (those without an access too), -1 without coverage
	 * @param records observed records judged
	 * @param engines per engine, in the order asked
	 * @param report the whole report ({@code validate}'s)
	 * @param judgement how many generations have been judged so far (1 for the first)
	 */
	public record Figures(long launches, long observedLaunches, long coveredLaunches, long records,
			List<EngineFigures> engines, ValidationReport report, long judgement) {

		/** Copies. */
		public Figures {
			engines = List.copyOf(engines);
		}

		/** {@code N of M launches observed (R records)} and the coverage when the observer gave one. */
		public String summary() {
			return String.format(Locale.ROOT, "%d of %d launches observed (%d records)%s", observedLaunches, launches,
					records, coveredLaunches < 0 ? "" : "; the observer covered " + coveredLaunches);
		}
	}

	private final AnalysisSession session;
	private final List<String> engines;
	private final @Nullable String tool;
	private @Nullable Figures last;
	private long judgedRecords = -1;
	private long judgedCovered = -1;
	private long judgedLaunches = -1;
	private long judgements;

	/**
	 * @param session the analysis session answering the question
	 * @param engines engine names from the session's catalog
	 * @param tool the observing tool whose records are the truth, or null for all united (validate's default)
	 */
	public LiveAccuracy(AnalysisSession session, List<String> engines, @Nullable String tool) {
		for (String e : engines) {
			if (!session.catalog().canCreate(e)) {
				throw new IllegalArgumentException("unknown engine '" + e + "' for live accuracy");
			}
		}
		this.session = session;
		this.engines = List.copyOf(engines);
		this.tool = tool;
	}

	/** @return the engines, in the order the figures give them */
	public List<String> engines() {
		return engines;
	}

	/**
	 * Judges {@code generation} when it holds other observations than the generation judged last (more records, other
	 * covered launches), or when the stream has ended and it holds other launches (the last word); else keeps the last
	 * figures: a generation that only brought launches without truth changes no verdict worth a judgement of the
	 * whole window.
	 *
	 * @param generation the newest generation of the live trace
	 * @param streamEnded whether the stream has ended (the generation is the last one)
	 * @param monitor cancellation, may be null
	 * @return the figures now (null while no observation has arrived)
	 */
	public synchronized @Nullable Figures update(Trace generation, boolean streamEnded,
			@Nullable IProgressMonitor monitor) {
		long records = generation.observedAccesses().size();
		long covered = covered(generation);
		if (records == 0 && covered <= 0) {
			return last;
		}
		if (records == judgedRecords && covered == judgedCovered
				&& (!streamEnded || generation.launchCount() == judgedLaunches)) {
			return last;
		}
		ValidationAnswer a = session.validate(new ValidationQuery(generation, engines, tool), monitor);
		ValidationReport r = a.report();
		List<EngineFigures> figures = new ArrayList<>();
		for (EngineValidation e : r.engines()) {
			figures.add(EngineFigures.of(e));
		}
		judgedRecords = records;
		judgedCovered = covered;
		judgedLaunches = generation.launchCount();
		last = new Figures(generation.launchCount(), r.observedLaunches(), covered, r.observedEntries(), figures, r,
				++judgements);
		return last;
	}

	/** @return the last figures, or null before the first observation */
	public synchronized @Nullable Figures last() {
		return last;
	}

	/** The launches the coverage of the chosen tool lists (-1 without coverage). */
	private long covered(Trace t) {
		long n = -1;
		for (ObservationCoverage c : t.observationCoverage()) {
			if (tool == null || tool.equals(c.tool())) {
				n = Math.max(n, 0) + c.observedCount();
			}
		}
		return n;
	}
}
