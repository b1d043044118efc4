package org.phos.workbench.speculation.core.validate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.PartedSpeculation;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservedIndex;
import org.phos.workbench.trace.core.Trace;

/**
 * Runs engines over a trace and judges them against the trace's observed accesses (the ground truth that
 * instrumentation wrote into it). Only launches with at least one observed record are judged: instrumentation may
 * observe selected kernels or every Nth launch, and a launch without records cannot be told apart from one that was
 * not observed (the kernel nodes of a multi-node graph launch under the sanitizer tool). Records naming no launch are
 * ignored and counted ({@link ObservedIndex}); launches whose truth is unreliable ({@link TruthReliability}: a GPU
 * replay that lacked their inputs) are excluded from every figure and counted per kernel. For such a launch, every allocation that either the engine speculated or instrumentation observed
 * (by base address) gets an {@link AccessVerdict}. Launches that are not judged are shown to an engine only as its
 * {@link SpeculationEngine#memory()} requires (all of them, the first of each function, or none), so that it is in the
 * state a walk over every launch would leave it in, as {@link PartedSpeculation} does for the launches before a part.
 * <p>
 * A trace without observed accesses gives an empty report; check {@link #observedLaunchCount} first rather than
 * presenting that as accuracy.
 */
public final class SpeculationValidator {

	/** Receives every verdict (for CSV detail or a view). */
	@FunctionalInterface
	public interface VerdictListener {
		void verdict(String engine, AllocationVerdict verdict);
	}

	private static final AccessSink DISCARD = (id, base, begin, end, mode, param, offset) -> {
	};

	/** Speculated or observed bytes of one allocation at one launch. */
	private static final class Slot {
		final ByteRanges read = new ByteRanges();
		final ByteRanges written = new ByteRanges();
		boolean indirectOnly = true;

		void clear() {
			read.clear();
			written.clear();
			indirectOnly = true;
		}
	}

	/** One engine's state during the walk. */
	private static final class Judge implements AccessSink {
		final SpeculationEngine engine;
		final Map<Long, Slot> speculated = new HashMap<>();
		final List<Slot> pool = new ArrayList<>();
		final Accuracy.Tally total = new Accuracy.Tally();
		final Map<Integer, Accuracy.Tally> kernels = new HashMap<>();
		long notCovered;
		/** Scratch of {@link SpeculationValidator#judge}, reused from launch to launch. */
		/** An empty slot for a base one side does not name (its own: ByteRanges normalise lazily, so not shared). */
		final Slot none = new Slot();
		final ByteRanges speculatedAll = new ByteRanges();
		final ByteRanges observedAll = new ByteRanges();
		long[] bases = new long[16];
		/** The last kernel's tally, so that runs of one kernel look it up once. */
		int lastFunction = Integer.MIN_VALUE;
		Accuracy.@Nullable Tally lastKernel;

		Judge(SpeculationEngine engine) {
			this.engine = engine;
		}

		@Override
		public void access(long id, long base, long begin, long end, int mode, int param, int offset) {
			Slot s = speculated.get(base);
			if (s == null) {
				s = pool.isEmpty() ? new Slot() : pool.remove(pool.size() - 1);
				s.clear();
				speculated.put(base, s);
			}
			if ((mode & SpeculatedAccess.READ) != 0) {
				s.read.add(begin, end);
			}
			if ((mode & SpeculatedAccess.WRITE) != 0) {
				s.written.add(begin, end);
			}
			s.indirectOnly &= (mode & SpeculatedAccess.INDIRECT) != 0;
		}

		void reset() {
			pool.addAll(speculated.values());
			speculated.clear();
		}

		Accuracy.Tally kernel(int function) {
			Accuracy.Tally t = lastKernel;
			if (t == null || function != lastFunction) {
				t = kernels.computeIfAbsent(function, k -> new Accuracy.Tally());
				lastKernel = t;
				lastFunction = function;
			}
			return t;
		}
	}

	private SpeculationValidator() {
	}

	/** @return the number of distinct launches with observed records (of {@code tool} when not null) */
	public static long observedLaunchCount(Trace trace, @Nullable String tool) {
		return ObservedIndex.of(trace, tool).launchCount();
	}

	/** @return the observing tools named in the trace's records */
	public static List<String> tools(Trace trace) {
		TreeSet<String> tools = new TreeSet<>();
		for (ObservedAccess a : trace.observedAccesses()) {
			tools.add(a.tool());
		}
		return List.copyOf(tools);
	}

	/**
	 * Judges the engines.
	 *
	 * @param trace the trace, with observed accesses
	 * @param engines fresh engines for this trace
	 * @param tool use only records of this tool, or null for all (records of several tools for one launch and
	 *        allocation are united)
	 * @param monitor progress and cancellation, may be null
	 * @param listener receives every verdict, may be null
	 * @return the report
	 */
	public static ValidationReport validate(Trace trace, List<SpeculationEngine> engines, @Nullable String tool,
			@Nullable IProgressMonitor monitor, @Nullable VerdictListener listener) {
		return validate(trace, engines, tool, PartedSpeculation.parts(trace, engines,
				Runtime.getRuntime().availableProcessors()), monitor, listener);
	}

	/**
	 * Judges the engines, walking the trace in {@code parts} parts on as many threads ({@link PartedSpeculation}:
	 * each part's engines are brought to the state one walk from the start would leave them in). The report is the
	 * one a walk in one part gives: every tally is a sum of whole numbers, added up part by part, and the notes are
	 * {@link PartedSpeculation#notes}.
	 *
	 * @param trace the trace, with observed accesses
	 * @param engines fresh engines for this trace
	 * @param tool use only records of this tool, or null for all
	 * @param parts how many parts (1: one walk on the calling thread; see {@link PartedSpeculation#parts})
	 * @param monitor progress and cancellation, may be null
	 * @param listener receives every verdict, may be null; with several parts it is called from the parts' threads
	 *        at once (each launch's verdicts from one thread, in launch order within a part), so it must be
	 *        thread-safe and must not rely on the order across parts
	 * @return the report
	 */
	public static ValidationReport validate(Trace trace, List<SpeculationEngine> engines, @Nullable String tool,
			int parts, @Nullable IProgressMonitor monitor, @Nullable VerdictListener listener) {
		ObservedIndex observed = ObservedIndex.of(trace, tool);
		TruthReliability reliability = TruthReliability.of(trace, observed);
		Walk[] walks = new Walk[parts];
		List<List<SpeculationEngine>> partEngines = PartedSpeculation.run(trace, engines, parts, monitor,
				(part, mine) -> {
					Walk w = new Walk(mine, observed, reliability, listener);
					walks[part] = w;
					return w;
				});
		TreeSet<String> tools = new TreeSet<>(observed.tools());
		long unattributed = 0;
		for (Walk w : walks) {
			tools.addAll(w.tools);
			unattributed += w.unattributed;
		}
		List<EngineValidation> results = new ArrayList<>();
		for (int e = 0; e < engines.size(); e++) {
			Accuracy.Tally total = new Accuracy.Tally();
			Map<Integer, Accuracy.Tally> kernels = new HashMap<>();
			long notCovered = 0;
			for (Walk w : walks) {
				Judge j = w.judges.get(e);
				total.add(j.total);
				j.kernels.forEach((f, t) -> kernels.computeIfAbsent(f, k -> new Accuracy.Tally()).add(t));
				notCovered += j.notCovered;
			}
			Map<Integer, Accuracy> accuracy = new HashMap<>();
			kernels.forEach((f, t) -> accuracy.put(f, t.toAccuracy()));
			results.add(new EngineValidation(engines.get(e).name(), total.toAccuracy(), accuracy, notCovered,
					PartedSpeculation.notes(partEngines, e)));
		}
		return new ValidationReport(observed.launchCount(), observed.recordCount(), unattributed, List.copyOf(tools),
				results, reliability.unreliableCount(), reliability, observed.invalidCount(), observed.invalidWarning());
	}

	/** One part's walk: its engines' judges and what it counted. */
	private static final class Walk implements TraceSpeculator.LaunchVisitor {
		final List<Judge> judges;
		final ObservedIndex observed;
		final TruthReliability reliability;
		final @Nullable VerdictListener listener;
		final Map<Long, Slot> truth = new LinkedHashMap<>();
		final List<Slot> pool = new ArrayList<>();
		final TreeSet<String> tools = new TreeSet<>();
		@Nullable String lastTool;
		/** Functions launched so far in this walk (unknown ones as one bit), as TraceSpeculator marks them. */
		final java.util.BitSet seen = new java.util.BitSet();
		long unattributed;

		Walk(List<SpeculationEngine> engines, ObservedIndex observed, TruthReliability reliability,
				@Nullable VerdictListener listener) {
			this.judges = engines.stream().map(Judge::new).toList();
			this.observed = observed;
			this.reliability = reliability;
			this.listener = listener;
		}

		@Override
		public void launch(LaunchContext launch) {
			List<ObservedAccess> records = observed.records(launch.event());
			boolean excluded = !records.isEmpty() && !reliability.reliable(launch.event());
			int bit = launch.functionId() < 0 ? Integer.MAX_VALUE - 1 : launch.functionId();
			boolean firstOfFunction = !seen.get(bit);
			seen.set(bit);
			if (records.isEmpty() || excluded) {
				// nothing judged: an engine sees the launch only if its memory needs it (SpeculationEngine.Memory,
				// the contract PartedSpeculation relies on), which spares most launches of a sparsely observed trace
				for (Judge j : judges) {
					SpeculationEngine.Memory memory = j.engine.memory();
					if (memory == SpeculationEngine.Memory.EVERY_LAUNCH
							|| memory == SpeculationEngine.Memory.FIRST_LAUNCH_OF_FUNCTION && firstOfFunction) {
						j.engine.speculate(launch, DISCARD);
					}
					if (excluded) {
						j.total.excluded++;
						j.kernel(launch.functionId()).excluded++;
					}
				}
				return;
			}
			pool.addAll(truth.values());
			truth.clear();
			for (ObservedAccess a : records) {
				if (a.tool() != lastTool) { // records share their tool's string: add each tool once per run of it
					tools.add(a.tool());
					lastTool = a.tool();
				}
				if (a.allocation() == 0) {
					unattributed++;
					continue;
				}
				Slot s = truth.get(a.allocation());
				if (s == null) {
					s = pool.isEmpty() ? new Slot() : pool.remove(pool.size() - 1);
					s.clear();
					truth.put(a.allocation(), s);
				}
				for (AddressRange r : a.read()) {
					s.read.add(r.begin(), r.end());
				}
				for (AddressRange r : a.written()) {
					s.written.add(r.begin(), r.end());
				}
			}
			for (Judge j : judges) {
				j.reset();
				if (!j.engine.speculate(launch, j)) {
					j.notCovered++;
				}
				judge(launch, j, truth, listener);
			}
		}
	}

	/**
	 * The verdict for one launch and one allocation, as {@link #validate} gives it.
	 *
	 * @param specRead speculated read bytes
	 * @param specWritten speculated written bytes
	 * @param obsRead observed read bytes
	 * @param obsWritten observed written bytes
	 * @return the first verdict of {@link AccessVerdict} that applies
	 */
	public static AccessVerdict verdict(ByteRanges specRead, ByteRanges specWritten, ByteRanges obsRead,
			ByteRanges obsWritten) {
		if (specWritten.missing(obsWritten) > 0) {
			return specWritten.isEmpty() && !specRead.isEmpty() ? AccessVerdict.WRONG_DIRECTION
					: AccessVerdict.MISSED_WRITE;
		}
		if (specRead.missing(obsRead) > 0) {
			return AccessVerdict.MISSED_READ;
		}
		if (specWritten.size() > obsWritten.size() || specRead.size() > obsRead.size()) {
			return AccessVerdict.OVER_APPROXIMATED;
		}
		return AccessVerdict.EXACT;
	}

	private static void judge(LaunchContext launch, Judge j, Map<Long, Slot> truth,
			@Nullable VerdictListener listener) {
		Accuracy.Tally kernel = j.kernel(launch.functionId());
		boolean unsafe = false;
		ByteRanges speculatedAll = j.speculatedAll;
		ByteRanges observedAll = j.observedAll;
		// the bases either side names, in ascending (signed) order, as a TreeSet<Long> would give them
		int n = truth.size() + j.speculated.size();
		if (j.bases.length < n) {
			j.bases = new long[Math.max(n, j.bases.length * 2)];
		}
		long[] bases = j.bases;
		n = 0;
		for (long base : truth.keySet()) {
			bases[n++] = base;
		}
		for (long base : j.speculated.keySet()) {
			bases[n++] = base;
		}
		Arrays.sort(bases, 0, n);
		for (int b = 0; b < n; b++) {
			long base = bases[b];
			if (b > 0 && bases[b - 1] == base) {
				continue;
			}
			Slot spec = j.speculated.getOrDefault(base, j.none);
			Slot obs = truth.getOrDefault(base, j.none);
			long missedWrite = spec.written.missing(obs.written);
			long missedRead = spec.read.missing(obs.read);
			AccessVerdict verdict = verdict(spec.read, spec.written, obs.read, obs.written);
			speculatedAll.clear();
			speculatedAll.addAll(spec.read);
			speculatedAll.addAll(spec.written);
			observedAll.clear();
			observedAll.addAll(obs.read);
			observedAll.addAll(obs.written);
			long speculatedBytes = speculatedAll.size();
			long useful = speculatedAll.intersection(observedAll);
			long writtenBytes = obs.written.size();
			unsafe |= verdict.unsafe();
			count(j.total, verdict, obs, missedWrite, missedRead, writtenBytes, speculatedBytes, useful);
			count(kernel, verdict, obs, missedWrite, missedRead, writtenBytes, speculatedBytes, useful);
			if (listener != null) {
				listener.verdict(j.engine.name(), new AllocationVerdict(launch.event(), launch.functionId(), base,
						verdict, speculatedBytes, observedAll.size(), useful, missedWrite, missedRead,
						spec != j.none && spec.indirectOnly));
			}
		}
		j.total.launches++;
		j.total.unsafeLaunches += unsafe ? 1 : 0;
		kernel.launches++;
		kernel.unsafeLaunches += unsafe ? 1 : 0;
	}

	private static void count(Accuracy.Tally t, AccessVerdict verdict, Slot obs, long missedWrite, long missedRead,
			long writtenBytes, long speculatedBytes, long useful) {
		t.verdicts[verdict.ordinal()]++;
		if (!obs.written.isEmpty()) {
			t.writePairs++;
			t.writePairsRecalled += missedWrite == 0 ? 1 : 0;
		}
		if (!obs.read.isEmpty()) {
			t.readPairs++;
			t.readPairsRecalled += missedRead == 0 ? 1 : 0;
		}
		t.writtenBytes += writtenBytes;
		t.writtenBytesRecalled += writtenBytes - missedWrite;
		t.speculatedBytes += speculatedBytes;
		t.usefulBytes += useful;
	}
}
