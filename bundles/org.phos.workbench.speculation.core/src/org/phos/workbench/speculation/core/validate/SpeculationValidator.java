package org.phos.workbench.speculation.core.validate;

import java.util.ArrayList;
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
 * (by base address) gets an {@link AccessVerdict}. Engines still see every launch, since they keep per-trace state.
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
		ObservedIndex observed = ObservedIndex.of(trace, tool);
		TruthReliability reliability = TruthReliability.of(trace, observed);
		List<Judge> judges = engines.stream().map(Judge::new).toList();
		Map<Long, Slot> truth = new LinkedHashMap<>();
		long[] entries = new long[2];
		TreeSet<String> tools = new TreeSet<>(observed.tools());
		TraceSpeculator walker = TraceSpeculator.forEngines(trace, engines);
		walker.run(monitor, launch -> {
			List<ObservedAccess> records = observed.records(launch.event());
			boolean excluded = !records.isEmpty() && !reliability.reliable(launch.event());
			if (records.isEmpty() || excluded) {
				for (Judge j : judges) {
					j.engine.speculate(launch, DISCARD);
					if (excluded) {
						j.total.excluded++;
						j.kernels.computeIfAbsent(launch.functionId(), k -> new Accuracy.Tally()).excluded++;
					}
				}
				return;
			}
			truth.clear();
			for (ObservedAccess a : records) {
				tools.add(a.tool());
				if (a.allocation() == 0) {
					entries[1]++;
					continue;
				}
				Slot s = truth.computeIfAbsent(a.allocation(), k -> new Slot());
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
		});
		List<EngineValidation> results = new ArrayList<>();
		for (Judge j : judges) {
			Map<Integer, Accuracy> kernels = new HashMap<>();
			j.kernels.forEach((f, t) -> kernels.put(f, t.toAccuracy()));
			results.add(new EngineValidation(j.engine.name(), j.total.toAccuracy(), kernels, j.notCovered,
					j.engine.notes()));
		}
		return new ValidationReport(observed.launchCount(), observed.recordCount(), entries[1], List.copyOf(tools), results,
				reliability.unreliableCount(), reliability, observed.invalidCount(), observed.invalidWarning());
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
		Accuracy.Tally kernel = j.kernels.computeIfAbsent(launch.functionId(), k -> new Accuracy.Tally());
		boolean unsafe = false;
		ByteRanges speculatedAll = new ByteRanges();
		ByteRanges observedAll = new ByteRanges();
		Slot none = new Slot();
		TreeSet<Long> bases = new TreeSet<>(truth.keySet());
		bases.addAll(j.speculated.keySet());
		for (long base : bases) {
			Slot spec = j.speculated.getOrDefault(base, none);
			Slot obs = truth.getOrDefault(base, none);
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
			for (Accuracy.Tally t : new Accuracy.Tally[] { j.total, kernel }) {
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
			if (listener != null) {
				listener.verdict(j.engine.name(), new AllocationVerdict(launch.event(), launch.functionId(), base,
						verdict, speculatedBytes, observedAll.size(), useful, missedWrite, missedRead,
						spec != none && spec.indirectOnly));
			}
		}
		for (Accuracy.Tally t : new Accuracy.Tally[] { j.total, kernel }) {
			t.launches++;
			t.unsafeLaunches += unsafe ? 1 : 0;
		}
	}
}
