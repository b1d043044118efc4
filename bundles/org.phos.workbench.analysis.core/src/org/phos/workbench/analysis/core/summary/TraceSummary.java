package org.phos.workbench.analysis.core.summary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import org.eclipse.jdt.annotation.Nullable;

import org.phos.workbench.internal.trace.core.util.LongLongMap;
import org.phos.workbench.speculation.core.validate.TruthReliability;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.ObservedIndex;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.GpuTimeEstimate;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.Unsigned;

/**
 * What {@code workbench info} reports about one trace: counts, kernels, allocations, copies, streams and time span,
 * computed in one pass over the events by {@link #of(Trace, int)}. Sizes, times and counts from the trace are
 * unsigned 64-bit values: compared in unsigned order, summed with {@link Unsigned} (sums saturate at 2^64 - 1 rather
 * than wrap), formatted with {@code Human}'s unsigned methods.
 *
 * @param header         the trace header
 * @param end            the TraceEnd record, null when the trace was not closed cleanly
 * @param eventCount     events in the model
 * @param counts         events by kind (kinds with none left out)
 * @param modules        modules in the trace
 * @param functions      functions in the trace
 * @param kernels        every launched function with its launches and GPU time, by launches (descending)
 * @param allocations    allocation statistics
 * @param copies         copies by direction
 * @param streams        streams in order of first use
 * @param span           host and GPU time span
 * @param parameterBytes sum of launch parameter buffers
 * @param payloadBytes   sum of captured copy payloads
 * @param notes          things a reader should know (frees of unknown addresses, dropped events, calls that changed
 *                       memory without an event)
 * @param extras         CUDA arrays, tensor maps and host functions (issue 16)
 */
public record TraceSummary(TraceHeader header, @Nullable TraceEnd end, int eventCount, Map<EventKind, Integer> counts,
		int modules, int functions, List<KernelStats> kernels, AllocationStats allocations,
		Map<CopyKind, CopyStats> copies, List<StreamStats> streams, TimeSpan span, long parameterBytes,
		long payloadBytes, List<String> notes, ObservedStats observed, ExtraStats extras) {

	// i16-rec: begin
	/**
	 * What Hopper-era programs add to plain copies and launches.
	 *
	 * @param arrays        CUDA arrays created
	 * @param arrayBytes    their bytes (u64, saturated), those of formats with a known element size
	 * @param tensorMaps    tensor maps encoded
	 * @param hostFunctions host functions and stream callbacks enqueued on streams
	 * @param unrecorded    calls that changed memory without an event (TraceEnd), all entry points together
	 */
	public record ExtraStats(long arrays, long arrayBytes, long tensorMaps, long hostFunctions, long unrecorded) {
		/** Whether any of them is there. */
		public boolean any() {
			return arrays != 0 || tensorMaps != 0 || hostFunctions != 0 || unrecorded != 0;
		}
	}
	// i16-rec: end

	/**
	 * Ground truth held by the trace: observed-access records written by instrumentation.
	 *
	 * @param records observed-access records (one per launch and allocation) that name a launch of the trace
	 * @param launches distinct launches with at least one such record
	 * @param tools the tools that observed them, in order of first appearance
	 * @param reliableLaunches of {@code launches}, those whose truth can be used (TruthReliability)
	 * @param truth one line on how much of the truth is reliable, and why the rest is not
	 * @param invalidWarning one line on records naming no launch (ignored), null when there are none
	 */
	public record ObservedStats(long records, long launches, List<String> tools, long reliableLaunches, String truth,
			@Nullable String invalidWarning) {
	}

	/** Launches and GPU time of one function. */
	public record KernelStats(int functionId, String name, long launches, long timedLaunches, long gpuNs) {
	}

	/** One allocation, for the largest-allocations list. */
	public record AllocationEntry(int event, long address, long size, AllocKind kind, boolean liveAtEnd) {
	}

	/** Count and bytes of one allocation kind. */
	public record KindStats(long count, long bytes) {
	}

	/**
	 * @param allocs          allocation events
	 * @param frees           free events
	 * @param unknownFrees    frees of addresses with no live allocation
	 * @param peakLiveBytes   largest sum of live allocation sizes (u64, saturated at 2^64 - 1)
	 * @param peakEvent       event index at which the peak was reached, -1 when none
	 * @param liveBytesAtEnd  bytes still allocated after the last event (likewise)
	 * @param liveCountAtEnd  allocations still live after the last event
	 * @param byKind          allocations by kind
	 * @param largest         the largest allocations, largest first
	 */
	public record AllocationStats(long allocs, long frees, long unknownFrees, long peakLiveBytes, int peakEvent,
			long liveBytesAtEnd, long liveCountAtEnd, Map<AllocKind, KindStats> byKind,
			List<AllocationEntry> largest) {
	}

	/** Copies of one direction. */
	public record CopyStats(long count, long bytes, long withPayload) {
	}

	/** The operations issued to one stream. */
	public record StreamStats(long stream, long launches, long copies, long memsets, long syncs, long other,
			long gpuBusyNs) {
		public long total() {
			return launches + copies + memsets + syncs + other;
		}
	}

	/**
	 * @param hostFirstNs first host timestamp (ns since trace start)
	 * @param hostLastNs  last host timestamp
	 * @param gpuFirstNs  earliest GPU start of a timed operation, 0 when none was timed
	 * @param gpuLastNs   latest GPU end
	 * @param timedOps    GPU operations with GPU times
	 * @param gpuOps      GPU operations (launches, copies, fills)
	 */
	public record TimeSpan(long hostFirstNs, long hostLastNs, long gpuFirstNs, long gpuLastNs, long timedOps,
			long gpuOps) {
	}

	/** The kernels ordered by GPU time (descending), then launches. */
	public List<KernelStats> kernelsByGpuTime() {
		List<KernelStats> sorted = new ArrayList<>(kernels);
		sorted.sort(Comparator.comparing(KernelStats::gpuNs, Long::compareUnsigned).reversed()
				.thenComparing(Comparator.comparingLong(KernelStats::launches).reversed()));
		return sorted;
	}

	/** Total GPU time of all kernels. */
	public long kernelGpuNs() {
		long sum = 0;
		for (KernelStats k : kernels) {
			sum = Unsigned.add(sum, k.gpuNs());
		}
		return sum;
	}

	/** Computes the summary in one pass; {@code top} bounds the largest-allocations list. */
	public static TraceSummary of(Trace trace, int top) {
		int n = trace.eventCount();
		// kernels: function id -> slot
		LongLongMap functionSlots = new LongLongMap(Math.max(16, trace.functions().size()));
		List<Integer> slotIds = new ArrayList<>();
		long[] launches = new long[16];
		long[] timed = new long[16];
		long[] gpuNs = new long[16];
		// allocations: address -> event index of the live allocation
		LongLongMap live = new LongLongMap(1024);
		Unsigned.Total liveBytes = new Unsigned.Total();
		Unsigned.Total peak = new Unsigned.Total();
		int peakEvent = -1;
		long allocs = 0;
		long frees = 0;
		long arrays = 0, arrayBytes = 0, tensorMaps = 0, hostFunctions = 0; // i16-rec
		long unknownFrees = 0;
		Map<AllocKind, long[]> byKind = new EnumMap<>(AllocKind.class);
		PriorityQueue<long[]> largest = new PriorityQueue<>(Comparator.comparing((long[] e) -> e[1], Long::compareUnsigned)
				.thenComparing(e -> -e[0]));
		Map<CopyKind, long[]> copies = new EnumMap<>(CopyKind.class);
		LongLongMap streamSlots = new LongLongMap();
		List<long[]> streamRows = new ArrayList<>(); // stream, launches, copies, memsets, syncs, other, busy
		long hostFirst = n > 0 ? Unsigned.MAX : 0;
		long hostLast = 0;
		long gpuFirst = Unsigned.MAX;
		long gpuLast = 0;
		long timedOps = 0;
		long gpuOps = 0;
		for (int i = 0; i < n; i++) {
			EventKind kind = trace.kind(i);
			long host = trace.hostNs(i);
			hostFirst = Unsigned.min(hostFirst, host);
			hostLast = Unsigned.max(hostLast, host);
			long[] streamRow = null;
			if (kind != EventKind.UNKNOWN) {
				long stream = trace.stream(i);
				long slot = streamSlots.get(stream, -1);
				if (slot < 0) {
					slot = streamRows.size();
					streamSlots.put(stream, slot);
					streamRows.add(new long[] { stream, 0, 0, 0, 0, 0, 0 });
				}
				streamRow = streamRows.get((int) slot);
			}
			switch (kind) {
			case LAUNCH, MEMCPY, MEMSET -> {
				gpuOps++;
				long start = trace.gpuStartNs(i);
				long duration = 0;
				if (start != 0) {
					long end = trace.gpuEndNs(i);
					duration = Unsigned.span(start, end);
					timedOps++;
					gpuFirst = Unsigned.min(gpuFirst, start);
					gpuLast = Unsigned.max(gpuLast, end);
				}
				streamRow[6] = Unsigned.add(streamRow[6], duration);
				if (kind == EventKind.LAUNCH) {
					streamRow[1]++;
					int id = trace.functionId(i);
					long slot = functionSlots.get(id, -1);
					if (slot < 0) {
						slot = slotIds.size();
						functionSlots.put(id, slot);
						slotIds.add(id);
						if (slot == launches.length) {
							launches = java.util.Arrays.copyOf(launches, launches.length * 2);
							timed = java.util.Arrays.copyOf(timed, timed.length * 2);
							gpuNs = java.util.Arrays.copyOf(gpuNs, gpuNs.length * 2);
						}
					}
					launches[(int) slot]++;
					if (start != 0) {
						timed[(int) slot]++;
						gpuNs[(int) slot] = Unsigned.add(gpuNs[(int) slot], duration);
					}
				} else if (kind == EventKind.MEMCPY) {
					streamRow[2]++;
					long[] c = copies.computeIfAbsent(trace.copyKind(i), k -> new long[3]);
					c[0]++;
					c[1] = Unsigned.add(c[1], trace.bytes(i));
					if (trace.payloadLength(i) > 0) {
						c[2]++;
					}
				} else {
					streamRow[3]++;
				}
			}
			case ALLOC -> {
				streamRow[5]++;
				allocs++;
				long address = trace.address(i);
				long size = trace.size(i);
				long previous = live.get(address, -1);
				if (previous >= 0) {
					liveBytes.subtract(trace.size((int) previous)); // re-allocation without a free: count the new one
				}
				live.put(address, i);
				liveBytes.add(size);
				if (liveBytes.above(peak)) {
					peak.set(liveBytes);
					peakEvent = i;
				}
				long[] k = byKind.computeIfAbsent(trace.allocKind(i), x -> new long[2]);
				k[0]++;
				k[1] = Unsigned.add(k[1], size);
				if (top > 0) {
					largest.add(new long[] { i, size });
					if (largest.size() > top) {
						largest.poll();
					}
				}
			}
			case FREE -> {
				streamRow[5]++;
				frees++;
				long allocEvent = live.remove(trace.address(i), -1);
				if (allocEvent < 0) {
					unknownFrees++;
				} else {
					liveBytes.subtract(trace.size((int) allocEvent));
				}
			}
			case SYNC -> {
				streamRow[4]++;
				SyncKind sk = trace.syncKind(i);
				if (sk == SyncKind.HOST_FUNCTION || sk == SyncKind.STREAM_CALLBACK) {
					hostFunctions++; // i16-rec
				}
			}
			// i16-rec: begin
			case ARRAY -> {
				org.phos.workbench.trace.core.TraceEvent.CudaArray ca = trace.cudaArray(i);
				if (ca.op() == org.phos.workbench.trace.core.ArrayOp.CREATE) {
					arrays++;
					arrayBytes = Unsigned.add(arrayBytes, ca.bytes());
				}
			}
			case TENSOR_MAP -> tensorMaps++;
			// i16-rec: end
			case GRAPH_LAUNCH -> streamRow[5]++;
			default -> {
				// unknown events have no stream
			}
			}
		}
		List<KernelStats> kernels = new ArrayList<>();
		for (int s = 0; s < slotIds.size(); s++) {
			int id = slotIds.get(s);
			FunctionInfo f = trace.functionById(id);
			String name = f != null ? f.displayName() : "function " + Integer.toUnsignedString(id) + " (not in trace)";
			kernels.add(new KernelStats(id, name, launches[s], timed[s], gpuNs[s]));
		}
		if (trace.header().timingSampling().sampled()) {
			// i15-cost: sampled GPU timing: a kernel's GPU time is the estimate over all its launches
			GpuTimeEstimate estimate = GpuTimeEstimate.of(trace);
			kernels.replaceAll(k -> new KernelStats(k.functionId(), k.name(), k.launches(), k.timedLaunches(),
					estimate.kernelNs(k.functionId())));
		}
		kernels.sort(Comparator.comparingLong(KernelStats::launches).reversed()
				.thenComparing(Comparator.comparingLong(KernelStats::gpuNs).reversed()));
		List<AllocationEntry> largestList = new ArrayList<>();
		for (long[] e : largest) {
			int event = (int) e[0];
			long address = trace.address(event);
			largestList.add(new AllocationEntry(event, address, e[1], trace.allocKind(event),
					live.get(address, -1) == event));
		}
		largestList.sort(Comparator.comparing(AllocationEntry::size, Long::compareUnsigned).reversed()
				.thenComparingInt(AllocationEntry::event));
		Map<AllocKind, KindStats> kinds = new EnumMap<>(AllocKind.class);
		byKind.forEach((k, v) -> kinds.put(k, new KindStats(v[0], v[1])));
		AllocationStats allocationStats = new AllocationStats(allocs, frees, unknownFrees, peak.saturated(), peakEvent,
				liveBytes.saturated(), live.size(), kinds, largestList);
		Map<CopyKind, CopyStats> copyStats = new EnumMap<>(CopyKind.class);
		copies.forEach((k, v) -> copyStats.put(k, new CopyStats(v[0], v[1], v[2])));
		List<StreamStats> streams = new ArrayList<>();
		for (long[] r : streamRows) {
			streams.add(new StreamStats(r[0], r[1], r[2], r[3], r[4], r[5], r[6]));
		}
		Map<EventKind, Integer> counts = new EnumMap<>(EventKind.class);
		for (EventKind kind : EventKind.values()) {
			int c = trace.count(kind);
			if (c > 0) {
				counts.put(kind, c);
			}
		}
		List<String> notes = new ArrayList<>();
		if (unknownFrees > 0) {
			notes.add(unknownFrees + " free(s) of addresses with no live allocation in the trace");
		}
		TraceEnd end = trace.end();
		if (end != null && end.droppedEvents() != 0) {
			notes.add("the recorder dropped " + Long.toUnsignedString(end.droppedEvents())
					+ " events (its buffer overflowed)");
		}
		for (ObservationCoverage c : trace.observationCoverage()) {   // i15-cost
			long launchesTotal = trace.launchCount();
			notes.add("coverage (" + c.tool() + "): " + c.observedCount() + " of " + launchesTotal + " launches observed ("
					+ c.policy() + "); the other " + (launchesTotal - Math.min(launchesTotal, c.observedCount()))
					+ " were not observed, their accesses are unknown");
			int[] k = c.kernelCoverage(trace);   // i15-shapes: every distinct kernel observed? what a shape was
			notes.add("coverage (" + c.tool() + "): " + k[1] + " of " + k[0] + " distinct kernels have an observed launch"
					+ (c.shapes() == null ? "" : "; " + c.shapes().describe()));
		}
		if (end != null) {
			notes.addAll(end.incompleteWarnings()); // i16-rec
		}
		if (end != null && end.eventCount() != n) {
			notes.add("TraceEnd says " + Long.toUnsignedString(end.eventCount()) + " events were written, the file holds "
					+ n);
		}
		TimeSpan span = new TimeSpan(hostFirst, hostLast,
				timedOps == 0 ? 0 : gpuFirst, gpuLast, timedOps, gpuOps);
		return new TraceSummary(trace.header(), end, n, counts, trace.modules().size(), trace.functions().size(),
				kernels, allocationStats, copyStats, streams, span, trace.parameterBytes(), trace.payloadBytes(),
				notes, observed(trace), new ExtraStats(arrays, arrayBytes, tensorMaps, hostFunctions,
						end == null ? 0 : end.unrecordedTotal()));
	}

	private static ObservedStats observed(Trace trace) {
		ObservedIndex index = ObservedIndex.of(trace, null);
		TruthReliability reliability = TruthReliability.of(trace, index);
		return new ObservedStats(index.recordCount(), index.launchCount(), index.tools(), reliability.reliableCount(),
				reliability.summary(), index.invalidWarning());
	}
}
