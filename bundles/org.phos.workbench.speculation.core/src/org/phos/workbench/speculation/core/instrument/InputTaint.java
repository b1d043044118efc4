package org.phos.workbench.speculation.core.instrument;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;

/**
 * Which device bytes a GPU replay of a trace does not know, event by event, and so which launches' observed
 * accesses cannot be trusted: a replay runs the recorded launches on the recorded inputs as far as the trace holds
 * them, and a kernel whose addresses depend on data it read (gathers, histograms, pointer chasing) touches other
 * bytes than in the real run when that data was not recorded. Taint tracking over the trace, in recorded addresses:
 * <ul>
 * <li>bytes become <b>unknown</b> when a host-to-device copy into them had no captured payload (over the recorder's
 * {@code PHOS_PAYLOAD_LIMIT}: the replay writes zeros), when a device-to-device copy brings unknown bytes or comes
 * from memory the replay does not have, and when a launch may have written them that did not run in the replay (no
 * PTX: the <b>whole</b> allocations that its 8-byte parameter words point into) or whose own truth is unreliable (the
 * whole allocations it was observed writing: its real writes there may reach other bytes); host-pinned and managed allocations are unknown from
 * their allocation on (the host writes them unseen);</li>
 * <li>bytes become <b>known</b> again when written by a memset or a copy of known bytes (byte ranges, so a partly
 * captured buffer taints only its uncaptured part), and when allocated or freed. Writes of a launch never make bytes
 * known: observed write ranges are hulls and may cover bytes the launch did not write;</li>
 * <li>a launch whose observed <b>reads</b> touch unknown bytes, or one whose records are already marked
 * {@link ObservedAccess#INPUTS_UNKNOWN}, has unreliable truth.</li>
 * </ul>
 * The rule is conservative: it cannot tell a data-dependent address from a data-independent one, so a kernel that
 * only streams through uncaptured data is flagged too. Not seen: writes through pointers stored in device memory by a
 * launch that did not run (only its parameter words are taken), and writes of an unreliable launch to allocations
 * it was not observed writing.
 */
public final class InputTaint {

	/** The tool name of observations made by a replay, whose truth this analysis judges. */
	public static final String REPLAY_TOOL = "ptx-instrument";

	private final TreeMap<Long, Long> unknown = new TreeMap<>();
	/** Live recorded allocations: base to {end, 1 when host-visible}. */
	private final TreeMap<Long, long[]> live = new TreeMap<>();

	/**
	 * Runs the analysis over a whole trace with the replay's observed records.
	 *
	 * @param trace the trace
	 * @param records observed records of the replay per launch event (launches without records did not run or
	 *        touched nothing)
	 * @return the launch events with records whose truth is unreliable, ascending
	 */
	public static List<Integer> unreliableLaunches(Trace trace, Map<Integer, List<ObservedAccess>> records) {
		InputTaint taint = new InputTaint();
		List<Integer> out = new ArrayList<>();
		for (int i = 0; i < trace.eventCount(); i++) {
			if (trace.kind(i) == EventKind.LAUNCH) {
				List<ObservedAccess> r = records.getOrDefault(i, List.of());
				if (taint.launch(trace, i, r, !r.isEmpty()) && !r.isEmpty()) {
					out.add(i);
				}
			} else {
				taint.event(trace, i);
			}
		}
		return out;
	}

	/**
	 * Takes a non-launch event into account (allocations, frees, copies, memsets; others change nothing).
	 *
	 * @param trace the trace
	 * @param i the event index
	 */
	public void event(Trace trace, int i) {
		switch (trace.kind(i)) {
			case ALLOC -> alloc(trace.address(i), trace.size(i),
					trace.allocKind(i) == AllocKind.HOST_PINNED || trace.allocKind(i) == AllocKind.MANAGED);
			case FREE -> free(trace.address(i));
			case MEMCPY -> copy(trace, i);
			case MEMSET -> {
				if (containing(trace.dst(i)) != null) {
					known(trace.dst(i), trace.dst(i) + trace.bytes(i));
				}
			}
			default -> {
				// syncs and graph launches move no bytes; a graph's kernel nodes follow as launches
			}
		}
	}

	/**
	 * Takes a launch into account.
	 *
	 * @param trace the trace
	 * @param i the launch event
	 * @param records what the replay observed it do (may be empty)
	 * @param ran whether the replay ran it (false: its writes are missing from the replay)
	 * @return whether its truth is unreliable: it read unknown bytes, its records are marked so, or it did not run
	 */
	public boolean launch(Trace trace, int i, List<ObservedAccess> records, boolean ran) {
		boolean unreliable = !ran;
		for (ObservedAccess a : records) {
			unreliable |= a.inputsUnknown();
			if (a.allocation() != 0) {
				for (AddressRange r : a.read()) {
					unreliable |= readsUnknown(r.begin(), r.end());
				}
			}
		}
		for (ObservedAccess a : unreliable ? records : List.<ObservedAccess>of()) {
			if (a.allocation() != 0 && !a.written().isEmpty()) {
				taintAllocation(a.allocation());
			}
		}
		if (!ran) {
			int n = trace.paramLength(i);
			for (int off = 0; off + 8 <= n; off += 8) {
				taintAllocation(trace.paramLong(i, off));
			}
		}
		return unreliable;
	}

	/** @return whether {@code [begin, end)} holds a byte the replay does not know */
	public boolean readsUnknown(long begin, long end) {
		if (end <= begin) {
			return false;
		}
		Map.Entry<Long, Long> below = unknown.floorEntry(begin);
		if (below != null && below.getValue() > begin) {
			return true;
		}
		Long next = unknown.ceilingKey(begin);
		if (next != null && next < end) {
			return true;
		}
		// host-visible allocations: unknown throughout
		for (Map.Entry<Long, long[]> e = live.floorEntry(end - 1); e != null && e.getValue()[0] > begin;
				e = live.lowerEntry(e.getKey())) {
			if (e.getValue()[1] != 0) {
				return true;
			}
		}
		return false;
	}

	private void alloc(long base, long size, boolean hostVisible) {
		if (size <= 0) {
			return;
		}
		long[] stale = containing(base);
		if (stale != null) {
			free(live.floorKey(base));
		}
		live.put(base, new long[] { base + size, hostVisible ? 1 : 0 });
		known(base, base + size);
	}

	private void free(long base) {
		long[] a = live.remove(base);
		if (a != null) {
			known(base, a[0]);
		}
	}

	private void copy(Trace trace, int i) {
		long bytes = trace.bytes(i);
		long dst = trace.dst(i);
		long src = trace.src(i);
		if (bytes <= 0 || containing(dst) == null) {
			return;
		}
		CopyKind kind = trace.copyKind(i);
		boolean srcLive = containing(src) != null;
		boolean fromHost = kind == CopyKind.H2D || (kind == CopyKind.DEFAULT || kind == CopyKind.UNKNOWN) && !srcLive;
		if (fromHost) {
			long captured = Math.min(bytes, trace.payloadLength(i));
			known(dst, dst + captured);
			unknown(dst + captured, dst + bytes);
		} else if (srcLive) {
			List<long[]> moved = new ArrayList<>();
			for (Map.Entry<Long, Long> e : unknownIn(src, src + bytes)) {
				moved.add(new long[] { Math.max(e.getKey(), src) - src + dst, Math.min(e.getValue(), src + bytes) - src + dst });
			}
			known(dst, dst + bytes);
			for (long[] m : moved) {
				unknown(m[0], m[1]);
			}
		} else {
			unknown(dst, dst + bytes); // from memory the replay does not have
		}
	}

	private List<Map.Entry<Long, Long>> unknownIn(long begin, long end) {
		List<Map.Entry<Long, Long>> out = new ArrayList<>();
		Map.Entry<Long, Long> below = unknown.lowerEntry(begin);
		if (below != null && below.getValue() > begin) {
			out.add(below);
		}
		out.addAll(unknown.subMap(begin, true, end, false).entrySet());
		return out;
	}

	private void taintAllocation(long address) {
		Map.Entry<Long, long[]> e = live.floorEntry(address);
		if (e != null && address < e.getValue()[0]) {
			unknown(e.getKey(), e.getValue()[0]);
		}
	}

	private long[] containing(long address) {
		Map.Entry<Long, long[]> e = live.floorEntry(address);
		return e != null && address < e.getValue()[0] ? e.getValue() : null;
	}

	private void unknown(long begin, long end) {
		if (end <= begin) {
			return;
		}
		long b = begin;
		long e = end;
		Map.Entry<Long, Long> below = unknown.floorEntry(b);
		if (below != null && below.getValue() >= b) {
			b = below.getKey();
			e = Math.max(e, below.getValue());
		}
		for (Map.Entry<Long, Long> x = unknown.ceilingEntry(b); x != null && x.getKey() <= e;
				x = unknown.ceilingEntry(b)) {
			e = Math.max(e, x.getValue());
			unknown.remove(x.getKey());
		}
		unknown.put(b, e);
	}

	private void known(long begin, long end) {
		if (end <= begin) {
			return;
		}
		Map.Entry<Long, Long> below = unknown.lowerEntry(begin);
		if (below != null && below.getValue() > begin) {
			long bEnd = below.getValue();
			unknown.put(below.getKey(), begin);
			if (bEnd > end) {
				unknown.put(end, bEnd);
				return;
			}
		}
		for (Map.Entry<Long, Long> x = unknown.ceilingEntry(begin); x != null && x.getKey() < end;
				x = unknown.ceilingEntry(begin)) {
			unknown.remove(x.getKey());
			if (x.getValue() > end) {
				unknown.put(end, x.getValue());
				break;
			}
		}
	}
}
