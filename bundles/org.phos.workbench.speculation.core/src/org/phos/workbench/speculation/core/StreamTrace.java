package org.phos.workbench.speculation.core;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * The events of a live stream as one trace that grows, for engines fed the whole attach ({@link StreamSpeculator}):
 * event {@code i} is the {@code i}-th event fed, in stream order. The events themselves stay in the generations
 * (immutable snapshots of the stream's window) they came in: each generation adds a segment (its events not fed
 * before), and a segment is let go once a launch after it was fed (engines read back at most to the previous launch:
 * {@code +past-blocks} observes the events between two launches, {@code tma} reads the maps encoded between them).
 * What engines and the replay read of older events is the allocations still live (an allocation is named by its
 * Alloc event, and a launch asks for its base, size and kind): those are kept as records until their free has been
 * fed. So what it holds is bounded by the live allocations and the newest generations, however long the stream runs.
 * <p>
 * Functions, modules and the header are the newest generation's (a live window keeps every definition). Asking for
 * an event that is neither held nor a live allocation's Alloc is an {@link IllegalStateException} naming it.
 * Event indices are ints: a stream of more than {@value Integer#MAX_VALUE} events ends the live speculation with a
 * message. Not thread-safe (the {@link StreamSpeculator} owning it calls it under its lock).
 */
final class StreamTrace implements Trace {

	/** A generation's events fed as {@code [seqFrom, seqTo)}: local event = {@code localFrom + (seq - seqFrom)}. */
	private record Segment(Trace trace, int localFrom, int seqFrom, int seqTo, IntToLongFunction launchNumber) {
	}

	/** An allocation made before the held segments: base, size and kind. */
	private record Allocation(long base, long size, AllocKind kind) {
	}

	private final ArrayDeque<Segment> segments = new ArrayDeque<>();
	private @Nullable Segment newest;
	private final Map<Integer, Allocation> allocations = new HashMap<>();
	/** Base -> the id of the allocation made there last (to drop its record when it is freed). */
	private final Map<Long, Integer> allocatedAt = new HashMap<>();
	/** Records whose free was fed in the newest segment: dropped when it is done. */
	private int[] freed = new int[16];
	private int freedCount;
	private final int[] counts = new int[EventKind.values().length];
	private int events;
	private int launches;

	/**
	 * Appends events {@code [fromEvent, generation.eventCount())} of a generation.
	 *
	 * @param launchNumber the stream's number of each launch of the generation, by its launch index
	 * @return the index here of its event {@code fromEvent}
	 */
	int append(Trace generation, int fromEvent, IntToLongFunction launchNumber) {
		int n = generation.eventCount() - fromEvent;
		if ((long) events + n > Integer.MAX_VALUE) {
			throw new IllegalStateException("the live stream passed " + Integer.MAX_VALUE
					+ " events: live speculation indexes events by int; speculate the saved stream instead");
		}
		int first = events;
		Segment s = new Segment(generation, fromEvent, first, first + n, launchNumber);
		segments.addLast(s);
		newest = s;
		for (int i = fromEvent; i < generation.eventCount(); i++) {
			EventKind k = generation.kind(i);
			counts[k.ordinal()]++;
			if (k == EventKind.LAUNCH) {
				launches++;
			} else if (k == EventKind.ALLOC) {
				int id = first + (i - fromEvent);
				allocations.put(id, new Allocation(generation.address(i), generation.size(i), generation.allocKind(i)));
				Integer before = allocatedAt.put(generation.address(i), id);
				if (before != null) {
					free(before); // allocated again without a recorded free: the replay takes it as freed
				}
			} else if (k == EventKind.FREE) {
				Integer id = allocatedAt.remove(generation.address(i));
				if (id != null) {
					free(id);
				}
			}
		}
		events += n;
		return first;
	}

	private void free(int id) {
		if (freedCount == freed.length) {
			freed = java.util.Arrays.copyOf(freed, freedCount * 2);
		}
		freed[freedCount++] = id;
	}

	/**
	 * The newest segment was fed: drops the records of the allocations it freed, and the segments before the last
	 * launch fed.
	 *
	 * @param lastLaunch the index here of the last launch fed, or -1
	 */
	void fed(int lastLaunch) {
		for (int k = 0; k < freedCount; k++) {
			allocations.remove(freed[k]);
		}
		freedCount = 0;
		while (segments.size() > 1 && segments.peekFirst().seqTo() <= lastLaunch) {
			segments.removeFirst();
		}
	}

	/** @return generations held (their events may still be read) */
	int segmentsHeld() {
		return segments.size();
	}

	/** @return allocation records held (the live allocations, and those freed in the segment being fed) */
	int allocationRecords() {
		return allocations.size();
	}

	// ---- where an event is ----------------------------------------------------------------------------------

	private Segment newest() {
		Segment s = newest;
		if (s == null) {
			throw new IllegalStateException("no events fed yet");
		}
		return s;
	}

	private Segment segment(int i) {
		Segment s = newest();
		if (i >= s.seqFrom() && i < s.seqTo()) {
			return s;
		}
		for (var it = segments.descendingIterator(); it.hasNext();) {
			Segment o = it.next();
			if (i >= o.seqFrom() && i < o.seqTo()) {
				return o;
			}
		}
		throw new IllegalStateException("event " + i + " of the live stream is no longer held (held: "
				+ segments.peekFirst().seqFrom() + " .. " + (s.seqTo() - 1) + " and the live allocations)");
	}

	private static int local(Segment s, int i) {
		return s.localFrom() + (i - s.seqFrom());
	}

	private @Nullable Allocation allocation(int i) {
		Segment s = newest;
		if (s != null && i >= segments.peekFirst().seqFrom()) {
			return null; // held: read from its generation
		}
		Allocation a = allocations.get(i);
		if (a == null) {
			segment(i); // throws, naming what is held
		}
		return a;
	}

	// ---- whole-trace information: the newest generation's -----------------------------------------------------

	@Override
	public TraceHeader header() {
		return newest().trace().header();
	}

	@Override
	public List<ModuleInfo> modules() {
		return newest == null ? List.of() : newest.trace().modules();
	}

	@Override
	public @Nullable ModuleInfo moduleById(int id) {
		return newest == null ? null : newest.trace().moduleById(id);
	}

	@Override
	public List<FunctionInfo> functions() {
		return newest == null ? List.of() : newest.trace().functions();
	}

	@Override
	public @Nullable FunctionInfo functionById(int id) {
		return newest == null ? null : newest.trace().functionById(id);
	}

	@Override
	public List<ObservedAccess> observedAccesses() {
		return List.of(); // engines do not read them; the views read the generations'
	}

	@Override
	public @Nullable TraceEnd end() {
		return newest == null ? null : newest.trace().end();
	}

	@Override
	public long heapFootprintBytes() {
		return 64L * allocations.size(); // the generations are the views' and counted there
	}

	@Override
	public long parameterBytes() {
		return 0;
	}

	@Override
	public long payloadBytes() {
		return 0;
	}

	@Override
	public int eventCount() {
		return events;
	}

	@Override
	public int count(EventKind kind) {
		return counts[kind.ordinal()];
	}

	// ---- event columns ---------------------------------------------------------------------------------------

	@Override
	public EventKind kind(int i) {
		Segment s = segment(i);
		return s.trace().kind(local(s, i));
	}

	@Override
	public long hostNs(int i) {
		Segment s = segment(i);
		return s.trace().hostNs(local(s, i));
	}

	@Override
	public int thread(int i) {
		Segment s = segment(i);
		return s.trace().thread(local(s, i));
	}

	@Override
	public long stream(int i) {
		Segment s = segment(i);
		return s.trace().stream(local(s, i));
	}

	@Override
	public long gpuStartNs(int i) {
		Segment s = segment(i);
		return s.trace().gpuStartNs(local(s, i));
	}

	@Override
	public long gpuEndNs(int i) {
		Segment s = segment(i);
		return s.trace().gpuEndNs(local(s, i));
	}

	@Override
	public TraceEvent event(int i) {
		Segment s = segment(i);
		return s.trace().event(local(s, i));
	}

	@Override
	public TraceEvent.CudaArray cudaArray(int i) {
		Segment s = segment(i);
		return s.trace().cudaArray(local(s, i));
	}

	@Override
	public TraceEvent.TensorMap tensorMap(int i) {
		Segment s = segment(i);
		return s.trace().tensorMap(local(s, i));
	}

	@Override
	public TraceEvent.AllocatorBlock allocatorBlock(int i) {
		Segment s = segment(i);
		return s.trace().allocatorBlock(local(s, i));
	}

	@Override
	public int launchCount() {
		return launches;
	}

	/** Launches are found by event here; a launch number of the stream is not an index into this trace. */
	@Override
	public int launchEvent(int launchIndex) {
		throw new UnsupportedOperationException("a live stream's trace finds launches by event, not by launch index "
				+ launchIndex);
	}

	/** @return the stream's number of the launch at event {@code i} (what {@code speculate --launch N} calls N) */
	@Override
	public int launchIndex(int i) {
		Segment s = segment(i);
		int l = s.trace().launchIndex(local(s, i));
		return l < 0 ? l : (int) s.launchNumber().applyAsLong(l);
	}

	@Override
	public int functionId(int i) {
		Segment s = segment(i);
		return s.trace().functionId(local(s, i));
	}

	@Override
	public Dim3 grid(int i) {
		Segment s = segment(i);
		return s.trace().grid(local(s, i));
	}

	@Override
	public int gridX(int i) {
		Segment s = segment(i);
		return s.trace().gridX(local(s, i));
	}

	@Override
	public int gridY(int i) {
		Segment s = segment(i);
		return s.trace().gridY(local(s, i));
	}

	@Override
	public int gridZ(int i) {
		Segment s = segment(i);
		return s.trace().gridZ(local(s, i));
	}

	@Override
	public Dim3 block(int i) {
		Segment s = segment(i);
		return s.trace().block(local(s, i));
	}

	@Override
	public int blockX(int i) {
		Segment s = segment(i);
		return s.trace().blockX(local(s, i));
	}

	@Override
	public int blockY(int i) {
		Segment s = segment(i);
		return s.trace().blockY(local(s, i));
	}

	@Override
	public int blockZ(int i) {
		Segment s = segment(i);
		return s.trace().blockZ(local(s, i));
	}

	@Override
	public int sharedMem(int i) {
		Segment s = segment(i);
		return s.trace().sharedMem(local(s, i));
	}

	@Override
	public LaunchKind launchKind(int i) {
		Segment s = segment(i);
		return s.trace().launchKind(local(s, i));
	}

	/** @return the graph launch's event here, or -1 when it is not in the same generation's fed events */
	@Override
	public long graphLaunchEvent(int i) {
		Segment s = segment(i);
		long g = s.trace().graphLaunchEvent(local(s, i));
		return g < s.localFrom() ? -1 : s.seqFrom() + (g - s.localFrom());
	}

	@Override
	public int paramLength(int i) {
		Segment s = segment(i);
		return s.trace().paramLength(local(s, i));
	}

	@Override
	public ByteBuffer params(int i) {
		Segment s = segment(i);
		return s.trace().params(local(s, i));
	}

	@Override
	public int copyParams(int i, byte[] dst, int dstOffset) {
		Segment s = segment(i);
		return s.trace().copyParams(local(s, i), dst, dstOffset);
	}

	@Override
	public long paramLong(int i, int offset) {
		Segment s = segment(i);
		return s.trace().paramLong(local(s, i), offset);
	}

	@Override
	public long address(int i) {
		Allocation a = allocation(i);
		if (a != null) {
			return a.base();
		}
		Segment s = segment(i);
		return s.trace().address(local(s, i));
	}

	@Override
	public long size(int i) {
		Allocation a = allocation(i);
		if (a != null) {
			return a.size();
		}
		Segment s = segment(i);
		return s.trace().size(local(s, i));
	}

	@Override
	public AllocKind allocKind(int i) {
		Allocation a = allocation(i);
		if (a != null) {
			return a.kind();
		}
		Segment s = segment(i);
		return s.trace().allocKind(local(s, i));
	}

	@Override
	public CopyKind copyKind(int i) {
		Segment s = segment(i);
		return s.trace().copyKind(local(s, i));
	}

	@Override
	public long src(int i) {
		Segment s = segment(i);
		return s.trace().src(local(s, i));
	}

	@Override
	public long dst(int i) {
		Segment s = segment(i);
		return s.trace().dst(local(s, i));
	}

	@Override
	public long bytes(int i) {
		Segment s = segment(i);
		return s.trace().bytes(local(s, i));
	}

	@Override
	public boolean async(int i) {
		Segment s = segment(i);
		return s.trace().async(local(s, i));
	}

	@Override
	public int payloadLength(int i) {
		Segment s = segment(i);
		return s.trace().payloadLength(local(s, i));
	}

	@Override
	public ByteBuffer payload(int i) {
		Segment s = segment(i);
		return s.trace().payload(local(s, i));
	}

	@Override
	public int copyPayload(int i, byte[] dst, int dstOffset) {
		Segment s = segment(i);
		return s.trace().copyPayload(local(s, i), dst, dstOffset);
	}

	@Override
	public int memsetValue(int i) {
		Segment s = segment(i);
		return s.trace().memsetValue(local(s, i));
	}

	@Override
	public int memsetElementSize(int i) {
		Segment s = segment(i);
		return s.trace().memsetElementSize(local(s, i));
	}

	@Override
	public SyncKind syncKind(int i) {
		Segment s = segment(i);
		return s.trace().syncKind(local(s, i));
	}

	@Override
	public long cudaEvent(int i) {
		Segment s = segment(i);
		return s.trace().cudaEvent(local(s, i));
	}

	@Override
	public int syncFlags(int i) {
		Segment s = segment(i);
		return s.trace().syncFlags(local(s, i));
	}

	@Override
	public long graphExec(int i) {
		Segment s = segment(i);
		return s.trace().graphExec(local(s, i));
	}

	@Override
	public int graphKernelNodes(int i) {
		Segment s = segment(i);
		return s.trace().graphKernelNodes(local(s, i));
	}
}
