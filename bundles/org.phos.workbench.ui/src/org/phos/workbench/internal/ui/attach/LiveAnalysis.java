package org.phos.workbench.internal.ui.attach;

import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.LiveSpeculation;
import org.phos.workbench.internal.ui.launches.Analysis;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.attach.LiveWindow;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * What the analysis layer keeps of a live trace: its {@link LiveSpeculation} (each new launch speculated once by
 * every live engine, in the snapshot Job, before the generation is published) and the generations the shared
 * {@link AnalysisSession} answers about ({@link AnalysisSession#generation}: older ones are let go). One per live
 * trace editor.
 */
public final class LiveAnalysis {
	/** {@code -Dphos.live.speculate=false} turns live speculation off (the benchmark's baseline). */
	static final boolean ENABLED = Boolean.parseBoolean(System.getProperty("phos.live.speculate", "true"));
	private final AnalysisSession session = Analysis.session();
	private final LiveSpeculation speculation = new LiveSpeculation(session.catalog(), engines(session));

	// i14-livebest: begin
	/**
	 * {@code -Dphos.live.engines=arg-scan+indirect,phos+blocks} adds engines a person names (any specification the
	 * catalog makes) to the live ones.
	 */
	static final String EXTRA_ENGINES = "phos.live.engines";

	/**
	 * Every registered engine (base engines and {@code best}), then those named by {@value #EXTRA_ENGINES}; a value
	 * starting with {@code =} names the whole list instead ({@code =phos,arg-scan}: the benchmark's comparisons).
	 */
	static List<String> engines(AnalysisSession session) {
		String named = System.getProperty(EXTRA_ENGINES, "");
		List<String> names = new java.util.ArrayList<>(named.startsWith("=") ? List.of()
				: LiveSpeculation.registered(session.catalog()));
		for (String e : named.replaceFirst("^=", "").split(",")) {
			String name = e.trim();
			if (name.isEmpty() || names.contains(name)) {
				continue;
			}
			if (!session.catalog().canCreate(name)) {
				throw new IllegalArgumentException("-D" + EXTRA_ENGINES + ": unknown engine '" + name + "'");
			}
			names.add(name);
		}
		return List.copyOf(names);
	}
	// i14-livebest: end
	private volatile LiveSpeculation.@Nullable Update last;
	// i14-liveacc: begin
	/** The engines judged as the truth arrives: validate's default engines, every tool's records united. */
	private final org.phos.workbench.analysis.core.LiveAccuracy accuracy = new org.phos.workbench.analysis.core.LiveAccuracy(
			session, org.phos.workbench.analysis.core.LiveAccuracy.DEFAULT_ENGINES, null);

	/**
	 * Judges the snapshot's generation when it holds observations the last judged one did not (the snapshot Job's
	 * thread); a failure is said in the status, the live trace goes on.
	 */
	org.phos.workbench.analysis.core.LiveAccuracy.@Nullable Figures judge(LiveWindow.Snapshot s,
			@Nullable IProgressMonitor monitor) {
		try {
			return accuracy.update(s.loaded().trace(), s.ended(), monitor);
		} catch (RuntimeException e) {
			failure = "Accuracy stopped on this generation: " + (e.getMessage() == null ? e : e.getMessage());
			return accuracy.last();
		}
	}

	/** @return the live accuracy (tests) */
	org.phos.workbench.analysis.core.LiveAccuracy accuracy() {
		return accuracy;
	}
	// i14-liveacc: end
	private volatile long lastSnapshotLaunches;

	/** Speculates the launches of the snapshot no earlier one held (the snapshot Job's thread). */
	LiveSpeculation.@Nullable Update speculate(LiveWindow.Snapshot s, @Nullable IProgressMonitor monitor) {
		if (!ENABLED) {
			return null;
		}
		Trace t = s.loaded().trace();
		try {
			LiveSpeculation.Update u = speculation.update(s, monitor);
			last = u;
			lastSnapshotLaunches = t.launchCount();
			failure = null;
			return u;
		} catch (RuntimeException e) {
			// an engine failing on a launch must not end the live trace: the views go on without its speculation
			failure = "Speculation stopped on this generation: " + (e.getMessage() == null ? e : e.getMessage());
			return null;
		}
	}

	private volatile @Nullable String failure;

	/** Tells the session about the newest generation (UI thread, before the views get it). */
	void published(Object lineage, LoadedTrace generation, LiveWindow.Snapshot s) {
		session.generation(lineage, generation.trace(), ENABLED ? speculation : null, s.launchNumbers()::number);
	}

	/** The live trace closed: the session lets every generation go. */
	void close(Object lineage) {
		session.endLineage(lineage);
	}

	/** One line for the editor's status: launches speculated, the last snapshot's cost. */
	String status() {
		LiveSpeculation.Update u = last;
		String f = failure;
		if (f != null) {
			return f;
		}
		if (u == null) {
			return ENABLED ? "Speculation: waiting for the first launches." : "Speculation: off (-Dphos.live.speculate).";
		}
		long n = speculation.speculated();
		var state = speculation.state(); // i14-livebest
		long notFed = speculation.eventsNotFed();
		return String.format(Locale.ROOT,
				"Speculation (%s): %,d launches speculated once each, %,d held; the last snapshot's %,d new launches "
						+ "took %.1f ms (%.2f µs per launch, all engines); engine state: %,d live allocations, "
						+ "%,d pointer tables (%,d KiB)%s.",
				String.join(", ", speculation.engines()), n, u.held(), u.speculated(), u.nanos() / 1e6,
				u.speculated() == 0 ? 0.0 : u.nanos() / 1e3 / u.speculated(), state.liveAllocations(),
				state.pointerTables(), state.pointerBytes() / 1024,
				notFed == 0 ? "" : String.format(Locale.ROOT, "; %,d events left the window before a snapshot held "
						+ "them and were not fed", notFed));
	}

	/** @return the live speculation */
	LiveSpeculation speculation() {
		return speculation;
	}

	/**
	 * A launch's speculation as the Launches view's {@code speculated} column shows it: per live engine the number of
	 * allocations it says the launch reads and writes, e.g. {@code phos 1r 2w · arg-scan 3r 3w · ptx-flow –} (a dash:
	 * the engine cannot speak for the launch); empty when the launch was not speculated (not a live trace, or no longer
	 * held).
	 */
	public static String summary(AnalysisSession session, Trace trace, int launch) {
		LiveSpeculation live = session.liveSpeculation(trace);
		if (live == null || launch < 0 || launch >= trace.launchCount()) {
			return "";
		}
		List<LaunchSpeculation> all = live.speculation(session.launchNumber(trace, launch), trace.launchEvent(launch));
		return all == null ? "" : summary(all);
	}

	/**
	 * The column's text for the engines' answers: every live engine, {@code best} and those a person added included
	 * (i14-livebest; before, combinations were left out).
	 */
	public static String summary(List<LaunchSpeculation> answers) {
		StringBuilder b = new StringBuilder();
		for (LaunchSpeculation s : answers) {
			if (b.length() > 0) {
				b.append(" · ");
			}
			b.append(s.engine());
			if (!s.covered()) {
				b.append(" –");
				continue;
			}
			long reads = s.accesses().stream().filter(SpeculatedAccess::read).map(SpeculatedAccess::allocationBase)
					.distinct().count();
			long writes = s.accesses().stream().filter(SpeculatedAccess::written)
					.map(SpeculatedAccess::allocationBase).distinct().count();
			b.append(' ').append(reads).append("r ").append(writes).append('w');
		}
		return b.toString();
	}
}
