package org.phos.workbench.speculation.core.validate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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

	/** One engine's state during the walk. */
	private static final class Judge implements AccessSink {
		final SpeculationEngine engine;
		/** {@link SpeculationEngine#memory()}, read once as {@link TraceSpeculator} does. */
		final SpeculationEngine.Memory memory;
		/** What the engine speculated for the launch being judged. */
		final AllocationRanges speculated = new AllocationRanges();
		final Accuracy.Tally total = new Accuracy.Tally();
		final Map<Integer, Accuracy.Tally> kernels = new HashMap<>();
		long notCovered;
		/** The last kernel's tally, so that runs of one kernel look it up once. */
		int lastFunction = Integer.MIN_VALUE;
		Accuracy.@Nullable Tally lastKernel;

		Judge(SpeculationEngine engine) {
			this.engine = engine;
			this.memory = engine.memory();
		}

		@Override
		public void access(long id, long base, long begin, long end, int mode, int param, int offset) {
			int s = speculated.slot(base);
			if ((mode & SpeculatedAccess.READ) != 0) {
				speculated.read(s).add(begin, end);
			}
			if ((mode & SpeculatedAccess.WRITE) != 0) {
				speculated.written(s).add(begin, end);
			}
			speculated.reached(s, (mode & SpeculatedAccess.INDIRECT) != 0);
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
		Truth truth = new Truth(trace, tool);
		Walk[] walks = new Walk[parts];
		List<List<SpeculationEngine>> partEngines = PartedSpeculation.run(trace, engines, parts, monitor,
				(part, mine) -> {
					Walk w = new Walk(mine, truth, listener);
					walks[part] = w;
					return w;
				});
		ObservedIndex observed = truth.index();
		TruthReliability reliability = truth.reliability();
		TreeSet<String> tools = new TreeSet<>(observed.tools());
		long unattributed = 0;
		for (Walk w : walks) { // a walk's tools are among the index's: its records are the index's
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

	/**
	 * The observed records indexed by launch and their reliability, made once per validation by the first part that
	 * needs them, on its thread: part 0 (the calling thread) makes them at its first launch while the other parts
	 * replay the events before theirs, which needs no truth.
	 */
	private static final class Truth {
		private final Trace trace;
		private final @Nullable String tool;
		private @Nullable ObservedIndex index;
		private @Nullable TruthReliability reliability;

		Truth(Trace trace, @Nullable String tool) {
			this.trace = trace;
			this.tool = tool;
		}

		synchronized ObservedIndex index() {
			ObservedIndex i = index;
			if (i == null) {
				i = ObservedIndex.of(trace, tool);
				reliability = TruthReliability.of(trace, i);
				index = i;
			}
			return i;
		}

		synchronized TruthReliability reliability() {
			index();
			return java.util.Objects.requireNonNull(reliability);
		}
	}

	/** One part's walk: its engines' judges and what it counted. */
	private static final class Walk implements TraceSpeculator.LaunchVisitor {
		final List<Judge> judges;
		final Truth truth;
		@Nullable ObservedIndex observed;
		@Nullable TruthReliability reliability;
		final @Nullable VerdictListener listener;
		/** The observed bytes of the launch being judged. */
		final AllocationRanges truthRanges = new AllocationRanges();
		/** Functions launched so far in this walk (unknown ones as one bit), as TraceSpeculator marks them. */
		final java.util.BitSet seen = new java.util.BitSet();
		long unattributed;
		/** Scratch of {@link SpeculationValidator#judge}, reused from launch to launch. */
		final ByteRanges empty = new ByteRanges();
		final ByteRanges speculatedAll = new ByteRanges();
		long[] bases = new long[16];

		/** Whether an engine remembers every launch, or the first of each function (then {@link #seen} is kept). */
		final boolean rememberEvery;
		final boolean rememberFirst;

		Walk(List<SpeculationEngine> engines, Truth truth, @Nullable VerdictListener listener) {
			this.judges = engines.stream().map(Judge::new).toList();
			this.rememberEvery = judges.stream().anyMatch(j -> j.memory == SpeculationEngine.Memory.EVERY_LAUNCH);
			this.rememberFirst = judges.stream()
					.anyMatch(j -> j.memory == SpeculationEngine.Memory.FIRST_LAUNCH_OF_FUNCTION);
			this.truth = truth;
			this.listener = listener;
		}

		@Override
		public void launch(LaunchContext launch) {
			ObservedIndex index = observed;
			TruthReliability reliable = reliability;
			if (index == null || reliable == null) {
				observed = index = truth.index();
				reliability = reliable = truth.reliability();
			}
			List<ObservedAccess> records = index.records(launch.event());
			boolean excluded = !records.isEmpty() && !reliable.reliable(launch.event());
			boolean firstOfFunction = false;
			if (rememberFirst) {
				int bit = launch.functionId() < 0 ? Integer.MAX_VALUE - 1 : launch.functionId();
				firstOfFunction = !seen.get(bit);
				seen.set(bit);
			}
			if (records.isEmpty() && !rememberEvery && !firstOfFunction) {
				return; // the most frequent case of a sparsely observed trace: no engine needs to see the launch
			}
			if (records.isEmpty() || excluded) {
				// nothing judged: an engine sees the launch only if its memory needs it (SpeculationEngine.Memory,
				// the contract PartedSpeculation relies on), which spares most launches of a sparsely observed trace
				for (Judge j : judges) {
					if (j.memory == SpeculationEngine.Memory.EVERY_LAUNCH
							|| j.memory == SpeculationEngine.Memory.FIRST_LAUNCH_OF_FUNCTION && firstOfFunction) {
						j.engine.speculate(launch, DISCARD);
					}
					if (excluded) {
						j.total.excluded++;
						j.kernel(launch.functionId()).excluded++;
					}
				}
				return;
			}
			AllocationRanges observedRanges = truthRanges;
			observedRanges.clear();
			for (int r = 0, n = records.size(); r < n; r++) {
				ObservedAccess a = records.get(r);
				if (a.allocation() == 0) {
					unattributed++;
					continue;
				}
				int s = observedRanges.slot(a.allocation());
				ByteRanges read = observedRanges.read(s);
				List<AddressRange> ranges = a.read();
				for (int i = 0, m = ranges.size(); i < m; i++) {
					AddressRange range = ranges.get(i);
					read.add(range.begin(), range.end());
				}
				ByteRanges written = observedRanges.written(s);
				ranges = a.written();
				for (int i = 0, m = ranges.size(); i < m; i++) {
					AddressRange range = ranges.get(i);
					written.add(range.begin(), range.end());
				}
			}
			for (Judge j : judges) {
				j.speculated.clear();
				if (!j.engine.speculate(launch, j)) {
					j.notCovered++;
				}
				judge(launch, j, this);
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

	/**
	 * Judges one engine on one launch: every allocation either side names, in ascending (signed) order of base as a
	 * {@code TreeSet<Long>} would give them, gets the verdict {@link #verdict} gives, from the sizes of the sorted
	 * ranges and their intersections (each computed once).
	 */
	private static void judge(LaunchContext launch, Judge j, Walk w) {
		Accuracy.Tally kernel = j.kernel(launch.functionId());
		boolean unsafe = false;
		AllocationRanges truth = w.truthRanges;
		AllocationRanges speculated = j.speculated;
		int n = truth.count() + speculated.count();
		if (w.bases.length < n) {
			w.bases = new long[Math.max(n, w.bases.length * 2)];
		}
		long[] bases = w.bases;
		n = 0;
		for (int s = 0; s < truth.count(); s++) {
			bases[n++] = truth.base(s);
		}
		for (int s = 0; s < speculated.count(); s++) {
			bases[n++] = speculated.base(s);
		}
		sortSmall(bases, n);
		ByteRanges empty = w.empty;
		VerdictListener listener = w.listener;
		for (int b = 0; b < n; b++) {
			long base = bases[b];
			if (b > 0 && bases[b - 1] == base) {
				continue;
			}
			int spec = speculated.find(base);
			int obs = truth.find(base);
			ByteRanges specRead = spec < 0 ? empty : speculated.read(spec);
			ByteRanges specWritten = spec < 0 ? empty : speculated.written(spec);
			ByteRanges obsRead = obs < 0 ? empty : truth.read(obs);
			ByteRanges obsWritten = obs < 0 ? empty : truth.written(obs);
			long specReadBytes = specRead.size();
			long specWrittenBytes = specWritten.size();
			long obsReadBytes = obsRead.size();
			long obsWrittenBytes = obsWritten.size();
			long missedWrite = obsWrittenBytes
					- (specWrittenBytes == 0 || obsWrittenBytes == 0 ? 0 : specWritten.intersection(obsWritten));
			long missedRead = obsReadBytes
					- (specReadBytes == 0 || obsReadBytes == 0 ? 0 : specRead.intersection(obsRead));
			AccessVerdict verdict; // as verdict(...) decides it, from the sizes at hand
			if (missedWrite > 0) {
				verdict = specWrittenBytes == 0 && specReadBytes != 0 ? AccessVerdict.WRONG_DIRECTION
						: AccessVerdict.MISSED_WRITE;
			} else if (missedRead > 0) {
				verdict = AccessVerdict.MISSED_READ;
			} else if (specWrittenBytes > obsWrittenBytes || specReadBytes > obsReadBytes) {
				verdict = AccessVerdict.OVER_APPROXIMATED;
			} else {
				verdict = AccessVerdict.EXACT;
			}
			ByteRanges speculatedAll = specReadBytes == 0 ? specWritten
					: specWrittenBytes == 0 ? specRead : union(w.speculatedAll, specRead, specWritten);
			ByteRanges observedAll = obs < 0 ? empty : truth.all(obs);
			long speculatedBytes = specReadBytes == 0 || specWrittenBytes == 0 ? specReadBytes + specWrittenBytes
					: speculatedAll.size();
			long observedBytes = obsReadBytes == 0 || obsWrittenBytes == 0 ? obsReadBytes + obsWrittenBytes
					: observedAll.size();
			long useful = speculatedBytes == 0 || observedBytes == 0 ? 0 : speculatedAll.intersection(observedAll);
			unsafe |= verdict.unsafe();
			count(j.total, verdict, obsWrittenBytes, obsReadBytes, missedWrite, missedRead, speculatedBytes, useful);
			count(kernel, verdict, obsWrittenBytes, obsReadBytes, missedWrite, missedRead, speculatedBytes, useful);
			// i15-val: begin
			countDirections(j.total, specReadBytes, specWrittenBytes, obsReadBytes, obsWrittenBytes, missedRead);
			countDirections(kernel, specReadBytes, specWrittenBytes, obsReadBytes, obsWrittenBytes, missedRead);
			// i15-val: end
			if (listener != null) {
				listener.verdict(j.engine.name(), new AllocationVerdict(launch.event(), launch.functionId(), base,
						verdict, speculatedBytes, observedBytes, useful, missedWrite, missedRead,
						spec >= 0 && speculated.indirectOnly(spec), specReadBytes, specWrittenBytes, obsReadBytes,
						obsWrittenBytes));
			}
		}
		j.total.launches++;
		j.total.unsafeLaunches += unsafe ? 1 : 0;
		kernel.launches++;
		kernel.unsafeLaunches += unsafe ? 1 : 0;
	}

	private static ByteRanges union(ByteRanges into, ByteRanges a, ByteRanges b) {
		into.setUnion(a, b);
		return into;
	}

	/** Sorts the first {@code n} values: insertion sort for the few allocations of a launch, else Arrays.sort. */
	private static void sortSmall(long[] values, int n) {
		if (n > 24) {
			Arrays.sort(values, 0, n);
			return;
		}
		for (int i = 1; i < n; i++) {
			long v = values[i];
			int k = i - 1;
			while (k >= 0 && values[k] > v) {
				values[k + 1] = values[k];
				k--;
			}
			values[k + 1] = v;
		}
	}

	// i15-val: begin
	/**
	 * Adds one pair's direction figures ({@link Accuracy.Directions}): the bytes per direction, and whether the
	 * direction class (read only, write only, read-write) is the same on both sides when both name the pair.
	 */
	static void countDirections(Accuracy.Tally t, long specRead, long specWritten, long obsRead, long obsWritten,
			long missedRead) {
		t.speculatedReadBytes += specRead;
		t.speculatedWrittenBytes += specWritten;
		t.readBytes += obsRead;
		t.readBytesMatched += obsRead - missedRead;
		boolean speculated = specRead + specWritten > 0;
		boolean observed = obsRead + obsWritten > 0;
		if (speculated && observed) {
			t.directionPairs++;
			if ((specRead > 0) == (obsRead > 0) && (specWritten > 0) == (obsWritten > 0)) {
				t.directionPairsCorrect++;
			}
		}
	}
	// i15-val: end

	private static void count(Accuracy.Tally t, AccessVerdict verdict, long writtenBytes, long readBytes,
			long missedWrite, long missedRead, long speculatedBytes, long useful) {
		t.verdicts[verdict.ordinal()]++;
		if (writtenBytes != 0) {
			t.writePairs++;
			t.writePairsRecalled += missedWrite == 0 ? 1 : 0;
		}
		if (readBytes != 0) {
			t.readPairs++;
			t.readPairsRecalled += missedRead == 0 ? 1 : 0;
		}
		t.writtenBytes += writtenBytes;
		t.writtenBytesRecalled += writtenBytes - missedWrite;
		t.speculatedBytes += speculatedBytes;
		t.usefulBytes += useful;
	}
}
