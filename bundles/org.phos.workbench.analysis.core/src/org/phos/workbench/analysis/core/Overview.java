package org.phos.workbench.analysis.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.format.PrintableText;
import org.phos.workbench.speculation.core.validate.TruthReliability;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservedIndex;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.GpuTimeEstimate;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * The answer to an {@link OverviewQuery}: a trace at a glance, computed in one pass over its events. The header lines
 * are worded as {@code workbench info} words them. Sizes and times are the trace's (unsigned in principle; a trace
 * with sums beyond 2^63 is not a realistic input for an overview and is not special-cased).
 *
 * @param header the header fields, in order (recorder, command, device, CUDA), as {@code info} prints them
 * @param counts events by kind (kinds with none left out), in enum order
 * @param eventCount all events
 * @param kernels the kernels with the most GPU time, most first
 * @param otherKernels the remaining kernels summed (function id -1), null when there are none
 * @param kernelCount how many distinct kernels were launched
 * @param memory allocations, peak and the live-memory curve
 * @param streams launches per stream, most first
 * @param truth the ground truth the trace holds
 */
public record Overview(Map<String, String> header, Map<EventKind, Integer> counts, int eventCount,
		List<KernelTime> kernels, @Nullable KernelTime otherKernels, int kernelCount, Memory memory,
		List<StreamLaunches> streams, Truth truth) {

	/** GPU time of one kernel (or of "the others": function id -1). */
	public record KernelTime(int functionId, String name, long launches, long gpuNs) {
	}

	/**
	 * Memory: what was allocated, by kind, and the live bytes over host time.
	 *
	 * @param allocations allocation events
	 * @param frees free events
	 * @param peakLiveBytes the largest sum of live allocation sizes
	 * @param peakEvent the event at which it was reached, -1 with no allocation
	 * @param liveAtEndBytes still allocated after the last event
	 * @param byKind per allocation kind, in enum order
	 * @param curve live bytes per kind over host time: at most the query's samples, each the moment of the largest
	 *            live total in its slice of the trace, so the peak is always one of them
	 */
	public record Memory(long allocations, long frees, long peakLiveBytes, int peakEvent, long liveAtEndBytes,
			Map<AllocKind, KindMemory> byKind, List<MemorySample> curve) {
	}

	/** Allocations of one kind: count, bytes allocated in all, and the peak of this kind's live bytes. */
	public record KindMemory(long allocations, long allocatedBytes, long peakLiveBytes) {
	}

	/** Live bytes at one moment: host time since the first event, and per kind (indexed by {@code kinds}). */
	public record MemorySample(long hostNs, int event, long[] liveBytesByKind) {
	}

	/** One stream's launches and the GPU time they took. */
	public record StreamLaunches(long stream, long launches, long gpuNs) {
	}

	/**
	 * Ground truth: observed-access records written by instrumentation.
	 *
	 * @param records records naming a launch of the trace
	 * @param launches launches with at least one record
	 * @param reliableLaunches of those, the ones whose truth validation uses
	 * @param recordsByTool records per tool, in order of first appearance
	 * @param summary one line on how much is reliable and why the rest is not
	 */
	public record Truth(long records, long launches, long reliableLaunches, Map<String, Long> recordsByTool,
			String summary) {
		/** @return the launches whose truth is not used */
		public long unreliableLaunches() {
			return launches - reliableLaunches;
		}
	}

	/** The allocation kinds of {@link MemorySample#liveBytesByKind()}, by index. */
	public static List<AllocKind> kinds() {
		return List.of(AllocKind.values());
	}

	/**
	 * Computes the overview.
	 *
	 * @param query the question
	 * @param monitor progress and cancellation, may be null
	 * @return the overview
	 */
	public static Overview of(OverviewQuery query, @Nullable IProgressMonitor monitor) {
		Trace trace = query.trace();
		IProgressMonitor progress = monitor != null ? monitor : new NullProgressMonitor();
		int n = trace.eventCount();
		progress.beginTask("Summarizing the trace", Math.max(1, n >> 16) + 1);
		Map<Integer, long[]> byKernel = new HashMap<>(); // function -> launches, gpu ns
		// i15-cost: a trace recorded with sampled GPU timing: untimed launches count with their shape's estimate
		@Nullable GpuTimeEstimate estimate = trace.header().timingSampling().sampled() ? GpuTimeEstimate.of(trace) : null;
		Map<Long, long[]> byStream = new LinkedHashMap<>(); // stream -> launches, gpu ns
		int kinds = AllocKind.values().length;
		long[] liveByKind = new long[kinds];
		long[] peakByKind = new long[kinds];
		long[] allocatedByKind = new long[kinds];
		long[] countByKind = new long[kinds];
		Map<Long, Integer> live = new HashMap<>(); // address -> alloc event
		long liveTotal = 0;
		long peak = 0;
		int peakEvent = -1;
		long allocs = 0;
		long frees = 0;
		long firstNs = n > 0 ? trace.hostNs(0) : 0;
		int slice = Math.max(1, (n + query.memorySamples() - 1) / query.memorySamples());
		List<MemorySample> curve = new ArrayList<>();
		long sliceMax = -1;
		MemorySample sliceBest = null;
		for (int i = 0; i < n; i++) {
			if ((i & 0xffff) == 0xffff) {
				if (progress.isCanceled()) {
					throw new OperationCanceledException();
				}
				progress.worked(1);
			}
			EventKind kind = trace.kind(i);
			switch (kind) {
			case LAUNCH -> {
				long gpu = estimate != null ? Math.max(0, estimate.durationNs(i)) : gpuNs(trace, i);
				long[] k = byKernel.computeIfAbsent(trace.functionId(i), f -> new long[2]);
				k[0]++;
				k[1] += gpu;
				long[] s = byStream.computeIfAbsent(trace.stream(i), f -> new long[2]);
				s[0]++;
				s[1] += gpu;
			}
			case ALLOC -> {
				allocs++;
				int kindIndex = trace.allocKind(i).ordinal();
				long size = trace.size(i);
				Integer previous = live.put(trace.address(i), i);
				if (previous != null) { // re-allocation without a free: the new one replaces it (as info counts)
					liveByKind[trace.allocKind(previous).ordinal()] -= trace.size(previous);
					liveTotal -= trace.size(previous);
				}
				liveByKind[kindIndex] += size;
				liveTotal += size;
				peakByKind[kindIndex] = Math.max(peakByKind[kindIndex], liveByKind[kindIndex]);
				allocatedByKind[kindIndex] += size;
				countByKind[kindIndex]++;
				if (liveTotal > peak) {
					peak = liveTotal;
					peakEvent = i;
				}
			}
			case FREE -> {
				frees++;
				Integer allocEvent = live.remove(trace.address(i));
				if (allocEvent != null) {
					liveByKind[trace.allocKind(allocEvent).ordinal()] -= trace.size(allocEvent);
					liveTotal -= trace.size(allocEvent);
				}
			}
			default -> {
				// other events do not change memory or kernels
			}
			}
			if (liveTotal > sliceMax) {
				sliceMax = liveTotal;
				sliceBest = new MemorySample(trace.hostNs(i) - firstNs, i, liveByKind.clone());
			}
			if ((i + 1) % slice == 0 || i == n - 1) {
				curve.add(sliceBest);
				sliceMax = -1;
				sliceBest = null;
			}
		}
		Map<AllocKind, KindMemory> byKind = new EnumMap<>(AllocKind.class);
		for (AllocKind k : AllocKind.values()) {
			if (countByKind[k.ordinal()] > 0) {
				byKind.put(k, new KindMemory(countByKind[k.ordinal()], allocatedByKind[k.ordinal()],
						peakByKind[k.ordinal()]));
			}
		}
		Memory memory = new Memory(allocs, frees, peak, peakEvent, liveTotal, byKind, curve);

		List<KernelTime> kernels = new ArrayList<>();
		for (Map.Entry<Integer, long[]> e : byKernel.entrySet()) {
			FunctionInfo f = trace.functionById(e.getKey());
			String name = f == null ? "function " + e.getKey() + " (not in trace)" : KernelName.of(f);
			kernels.add(new KernelTime(e.getKey(), name, e.getValue()[0], e.getValue()[1]));
		}
		kernels.sort(Comparator.comparingLong(KernelTime::gpuNs).reversed()
				.thenComparing(Comparator.comparingLong(KernelTime::launches).reversed())
				.thenComparingInt(KernelTime::functionId));
		KernelTime other = null;
		if (kernels.size() > query.topKernels()) {
			List<KernelTime> rest = kernels.subList(query.topKernels(), kernels.size());
			other = new KernelTime(-1, rest.size() + " other kernels",
					rest.stream().mapToLong(KernelTime::launches).sum(), rest.stream().mapToLong(KernelTime::gpuNs).sum());
		}
		List<KernelTime> top = List.copyOf(kernels.subList(0, Math.min(query.topKernels(), kernels.size())));

		List<StreamLaunches> streams = new ArrayList<>();
		byStream.forEach((s, v) -> streams.add(new StreamLaunches(s, v[0], v[1])));
		streams.sort(Comparator.comparingLong(StreamLaunches::launches).reversed());

		Map<EventKind, Integer> counts = new EnumMap<>(EventKind.class);
		for (EventKind k : EventKind.values()) {
			if (trace.count(k) > 0) {
				counts.put(k, trace.count(k));
			}
		}
		Truth truth = truth(trace);
		progress.done();
		return new Overview(header(trace.header()), counts, n, top, other, byKernel.size(), memory,
				List.copyOf(streams), truth);
	}

	private static long gpuNs(Trace trace, int event) {
		long start = trace.gpuStartNs(event);
		long end = trace.gpuEndNs(event);
		return start != 0 && Long.compareUnsigned(end, start) > 0 ? end - start : 0;
	}

	private static Truth truth(Trace trace) {
		Map<String, Long> byTool = new LinkedHashMap<>();
		for (ObservedAccess a : trace.observedAccesses()) {
			long e = a.launchEvent();
			if (e >= 0 && e < trace.eventCount() && trace.kind((int) e) == EventKind.LAUNCH) { // as ObservedIndex counts
				byTool.merge(a.tool(), 1L, Long::sum);
			}
		}
		ObservedIndex index = ObservedIndex.of(trace, null);
		if (index.recordCount() == 0) {
			return new Truth(0, 0, 0, Map.of(), "no observed accesses: this trace holds no ground truth");
		}
		TruthReliability reliability = TruthReliability.of(trace, index);
		return new Truth(index.recordCount(), index.launchCount(), reliability.reliableCount(), byTool,
				reliability.summary());
	}

	/** The header lines as {@code workbench info} prints them (recorder, command, device, CUDA). */
	static Map<String, String> header(TraceHeader h) {
		Map<String, String> lines = new LinkedHashMap<>();
		lines.put("recorder", h.recorder() + " " + h.recorderVersion() + (h.host().isEmpty() ? "" : " on " + h.host())
				+ ", pid " + Integer.toUnsignedString(h.pid()));
		lines.put("command", h.argv().isEmpty() ? "(not recorded)" : PrintableText.printable(String.join(" ", h.argv())));
		String device = h.deviceName().isEmpty() ? "(unknown device)" : h.deviceName();
		device += ", compute capability " + h.ccMajor() + "." + h.ccMinor();
		if (h.deviceMemory() != 0) {
			device += ", " + bytes(h.deviceMemory());
		}
		lines.put("device", device);
		lines.put("CUDA", "driver " + cudaVersion(h.driverVersion()) + ", runtime " + cudaVersion(h.runtimeVersion())
				+ ", GPU timing " + (h.gpuTiming() ? "on" : "off") + ", payloads up to " + bytes(h.payloadLimit()));
		if (h.gpuTiming() && h.timingSampling().sampled()) { // i15-cost
			lines.put("GPU times", h.timingSampling().describe() + "; kernel GPU times estimated per launch shape "
					+ "(function, grid, block) from the timed launches");
		}
		return lines;
	}

	/** A CUDA version number ({@code 12040}) as {@code 12.4}; 0 as {@code unknown}. */
	public static String cudaVersion(int version) {
		return version == 0 ? "unknown" : (version / 1000) + "." + (version % 1000 / 10);
	}

	/** Unsigned bytes in binary units, as {@code info} prints them: {@code 512 B}, {@code 1.50 KiB}, {@code 12.3 GiB}. */
	public static String bytes(long value) {
		if (value >= 0 && value < 1024) {
			return value + " B";
		}
		double v = value >= 0 ? value : (value >>> 1) * 2.0 + (value & 1);
		String[] units = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
		int u = -1;
		while (v >= 1024 && u < units.length - 1) {
			v /= 1024;
			u++;
		}
		return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, units[u]);
	}
}
