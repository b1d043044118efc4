package org.phos.workbench.speculation.core.validate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.PartedSpeculation;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.trace.core.Trace;

/**
 * What engines speculate on a trace, without ground truth: per engine and kernel, how many allocations and bytes a
 * launch is speculated to touch, and in which direction. Accesses to one allocation in one launch are merged (their
 * byte ranges united) before counting.
 */
public final class SpeculationProfile {

	/**
	 * One engine's speculation for one kernel, summed over its launches.
	 *
	 * @param launches launches of the kernel
	 * @param covered launches the engine could speak for
	 * @param allocations (launch, allocation) pairs speculated
	 * @param written of those, speculated written
	 * @param indirect of those, reached only through stored pointers
	 * @param bytes speculated bytes (read or written)
	 * @param writtenBytes speculated written bytes
	 */
	public record KernelProfile(long launches, long covered, long allocations, long written, long indirect, long bytes,
			long writtenBytes) {
	}

	/**
	 * @param engine the engine's name
	 * @param kernels per function id, in id order
	 * @param total over all launches
	 * @param notes the engine's notes
	 */
	public record EngineProfile(String engine, Map<Integer, KernelProfile> kernels, KernelProfile total,
			List<String> notes) {
	}

	/**
	 * @param engines per engine, in the order asked
	 * @param detail each engine's speculation of the launch asked for in detail, empty when none
	 */
	public record Result(List<EngineProfile> engines, List<LaunchSpeculation> detail) {
	}

	private static final class Tally {
		long launches, covered, allocations, written, indirect, bytes, writtenBytes;

		KernelProfile profile() {
			return new KernelProfile(launches, covered, allocations, written, indirect, bytes, writtenBytes);
		}

		void add(Tally t) {
			launches += t.launches;
			covered += t.covered;
			allocations += t.allocations;
			written += t.written;
			indirect += t.indirect;
			bytes += t.bytes;
			writtenBytes += t.writtenBytes;
		}
	}

	private static final class Merge implements AccessSink {
		final Map<Long, ByteRanges[]> byAllocation = new HashMap<>();
		final Map<Long, boolean[]> indirectOnly = new HashMap<>();

		@Override
		public void access(long id, long base, long begin, long end, int mode, int param, int offset) {
			ByteRanges[] r = byAllocation.computeIfAbsent(id, k -> new ByteRanges[] { new ByteRanges(), new ByteRanges() });
			if ((mode & SpeculatedAccess.READ) != 0) {
				r[0].add(begin, end);
			}
			if ((mode & SpeculatedAccess.WRITE) != 0) {
				r[1].add(begin, end);
			}
			indirectOnly.computeIfAbsent(id, k -> new boolean[] { true })[0] &= (mode & SpeculatedAccess.INDIRECT) != 0;
		}

		void into(Tally t) {
			ByteRanges all = new ByteRanges();
			for (Map.Entry<Long, ByteRanges[]> e : byAllocation.entrySet()) {
				ByteRanges[] r = e.getValue();
				all.clear();
				all.addAll(r[0]);
				all.addAll(r[1]);
				t.allocations++;
				t.written += r[1].isEmpty() ? 0 : 1;
				t.indirect += indirectOnly.get(e.getKey())[0] ? 1 : 0;
				t.bytes += all.size();
				t.writtenBytes += r[1].size();
			}
			byAllocation.clear();
			indirectOnly.clear();
		}
	}

	private SpeculationProfile() {
	}

	/**
	 * Runs the engines over the trace, in parts on as many threads as there are processors when the trace is large
	 * ({@link PartedSpeculation}; the result is the same).
	 *
	 * @param trace the trace
	 * @param engines fresh engines for it
	 * @param detailLaunch a launch index to collect in full, or -1
	 * @param monitor progress and cancellation, may be null
	 * @return the profile
	 */
	public static Result of(Trace trace, List<SpeculationEngine> engines, int detailLaunch,
			@Nullable IProgressMonitor monitor) {
		return of(trace, engines, detailLaunch, monitor,
				PartedSpeculation.parts(trace, engines, Runtime.getRuntime().availableProcessors()));
	}

	/**
	 * {@link #of(Trace, List, int, IProgressMonitor)} in a given number of parts.
	 *
	 * @param trace the trace
	 * @param engines fresh engines for it
	 * @param detailLaunch a launch index to collect in full, or -1
	 * @param monitor progress and cancellation, may be null
	 * @param parts parts to walk at once (1: one walk on this thread)
	 * @return the profile
	 */
	public static Result of(Trace trace, List<SpeculationEngine> engines, int detailLaunch,
			@Nullable IProgressMonitor monitor, int parts) {
		// per part: per engine, the tallies by function; and the detailed launch when the part holds it
		List<List<Map<Integer, Tally>>> partKernels = new ArrayList<>();
		List<List<LaunchSpeculation>> partDetail = new ArrayList<>();
		for (int p = 0; p < parts; p++) {
			List<Map<Integer, Tally>> kernels = new ArrayList<>();
			for (int i = 0; i < engines.size(); i++) {
				kernels.add(new HashMap<>());
			}
			partKernels.add(kernels);
			partDetail.add(new ArrayList<>());
		}
		List<List<SpeculationEngine>> partEngines = PartedSpeculation.run(trace, engines, parts, monitor,
				(part, mine) -> visitor(mine, partKernels.get(part), partDetail.get(part), detailLaunch));
		List<EngineProfile> result = new ArrayList<>();
		for (int e = 0; e < engines.size(); e++) {
			Map<Integer, Tally> merged = new HashMap<>();
			for (List<Map<Integer, Tally>> kernels : partKernels) {
				kernels.get(e).forEach((f, t) -> merged.computeIfAbsent(f, k -> new Tally()).add(t));
			}
			Map<Integer, KernelProfile> byKernel = new TreeMap<>();
			Tally total = new Tally();
			for (Map.Entry<Integer, Tally> k : merged.entrySet()) {
				byKernel.put(k.getKey(), k.getValue().profile());
				total.add(k.getValue());
			}
			result.add(new EngineProfile(engines.get(e).name(), byKernel, total.profile(),
					PartedSpeculation.notes(partEngines, e)));
		}
		List<LaunchSpeculation> detail = new ArrayList<>();
		partDetail.forEach(detail::addAll);
		return new Result(result, detail);
	}

	private static TraceSpeculator.LaunchVisitor visitor(List<SpeculationEngine> engines,
			List<Map<Integer, Tally>> kernels, List<LaunchSpeculation> detail, int detailLaunch) {
		Merge merge = new Merge();
		return launch -> {
			for (int e = 0; e < engines.size(); e++) {
				SpeculationEngine engine = engines.get(e);
				Tally t = kernels.get(e).computeIfAbsent(launch.functionId(), k -> new Tally());
				t.launches++;
				boolean covered;
				if (launch.launchIndex() == detailLaunch) {
					LaunchSpeculation s = LaunchSpeculation.collect(engine, launch);
					detail.add(s);
					covered = s.covered();
					for (SpeculatedAccess a : s.accesses()) {
						merge.access(a.allocationId(), a.allocationBase(), a.begin(), a.end(),
								(a.read() ? SpeculatedAccess.READ : 0) | (a.written() ? SpeculatedAccess.WRITE : 0)
										| (a.indirect() ? SpeculatedAccess.INDIRECT : 0),
								a.paramIndex(), a.paramOffset());
					}
				} else {
					covered = engine.speculate(launch, merge);
				}
				t.covered += covered ? 1 : 0;
				merge.into(t);
			}
		};
	}
}
