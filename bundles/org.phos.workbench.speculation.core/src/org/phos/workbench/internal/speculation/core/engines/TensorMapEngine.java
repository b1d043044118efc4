package org.phos.workbench.internal.speculation.core.engines;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;

/**
 * Tensor maps (TMA descriptors) as pointers with an exact byte extent (issue 16). Hopper kernels (CUTLASS 3,
 * FlashAttention-3, recent cuBLAS/cuDNN) take a {@code CUtensorMap} by value: 128 opaque bytes holding the global
 * address, shape and strides of the tensor they load and store with {@code cp.async.bulk.tensor}. The recorder writes
 * every {@code cuTensorMapEncode*} call with those 128 bytes and the extent the map can reach
 * ([address, address + extent)). A launch whose parameter buffer holds, at an 8-byte aligned offset, the exact bytes
 * of a map encoded earlier in the trace (the latest such) gets that range, clipped to the live allocation holding the
 * address, read-write (a map serves loads and stores alike): a byte-precise range no word-matching or PTX engine gets,
 * since the address inside the map is encoded, and the PTX only names the map.
 * <p>
 * As a base engine ({@code tma}) it speaks only for launches that take a known map (combine it: {@code tma/ptx-flow});
 * as the modifier {@code X+tma} it adds the maps' ranges to engine X's accesses (X decides coverage, a launch that
 * only takes maps is covered by the maps).
 */
public final class TensorMapEngine implements SpeculationEngine {

	/** The base engine's name. */
	public static final String NAME = "tma";
	/** The suffix naming the modifier. */
	public static final String SUFFIX = "+tma";
	private static final int MAP_BYTES = 128;

	/** One encoded map: the event that made it, where it points, how far it reaches. */
	private record MapAt(int event, long address, long extent, byte[] bytes) {
	}

	private final @Nullable SpeculationEngine base;
	private final String name;
	/**
	 * Maps by a hash of their 128 bytes, each list in event order; read from the trace lazily, up to each launch
	 * (i14-livebest: a live stream's trace grows, and an engine fed it for a whole attach sees its maps as they come),
	 * and a map equal to one already kept replaces it (only the latest before a launch is ever used).
	 */
	private final Map<Long, List<MapAt>> maps = new HashMap<>();
	private final Trace trace;
	/** The first event not yet read for maps. */
	private int scanned;

	/** @param trace the trace whose tensor maps it reads; @param base the engine it adds to, null for the base engine */
	public TensorMapEngine(Trace trace, @Nullable SpeculationEngine base) {
		this.base = base;
		this.name = base == null ? NAME : base.name() + SUFFIX;
		this.trace = trace;
	}

	/** Reads the maps encoded before event {@code event}. */
	private void readMapsBefore(int event) {
		if (trace.count(EventKind.TENSOR_MAP) == 0) {
			scanned = Math.max(scanned, event); // none so far: the events before are never read again
			return;
		}
		for (int i = scanned; i < event; i++) {
			if (trace.kind(i) != EventKind.TENSOR_MAP) {
				continue;
			}
			TraceEvent.TensorMap t = trace.tensorMap(i);
			if (t.map().length != MAP_BYTES || t.extent() == 0) {
				continue; // no bytes to match, or an element type whose size the recorder did not know
			}
			List<MapAt> list = maps.computeIfAbsent(hash(t.map(), 0), k -> new ArrayList<>(1));
			MapAt m = new MapAt(i, t.address(), t.extent(), t.map());
			list.removeIf(o -> Arrays.equals(o.bytes(), t.map()));
			list.add(m);
		}
		scanned = Math.max(scanned, event);
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public Memory memory() {
		return base == null ? Memory.NONE : base.memory();
	}

	@Override
	public boolean usesStoredPointers() {
		return base != null && base.usesStoredPointers();
	}

	@Override
	public List<String> notes() {
		return base == null ? List.of() : base.notes();
	}

	@Override
	public boolean speculate(LaunchContext launch, AccessSink sink) {
		boolean covered = base != null && base.speculate(launch, sink);
		readMapsBefore(launch.event());
		if (maps.isEmpty() || launch.paramLength() < MAP_BYTES) {
			return covered;
		}
		byte[] p = launch.paramBytes();
		int len = launch.paramLength();
		boolean found = false;
		for (int off = 0; off + MAP_BYTES <= len; off += 8) {
			List<MapAt> candidates = maps.get(hash(p, off));
			if (candidates == null) {
				continue;
			}
			MapAt m = latestBefore(candidates, launch.event(), p, off);
			if (m == null) {
				continue;
			}
			long id = launch.findAllocation(m.address());
			if (id < 0) {
				continue; // the tensor's memory is not live (freed, or not device memory the trace allocated)
			}
			long allocEnd = launch.allocationBase(id) + launch.allocationSize(id);
			long end = Long.compareUnsigned(m.extent(), allocEnd - m.address()) > 0 ? allocEnd : m.address() + m.extent();
			sink.access(id, launch.allocationBase(id), m.address(), end, SpeculatedAccess.READ_WRITE,
					paramIndex(launch.function(), off), off);
			found = true;
			off += MAP_BYTES - 8; // the next map starts after this one
		}
		return covered || found;
	}

	private static @Nullable MapAt latestBefore(List<MapAt> candidates, int event, byte[] p, int off) {
		MapAt best = null;
		for (MapAt m : candidates) {
			if (m.event() < event && Arrays.equals(m.bytes(), 0, MAP_BYTES, p, off, off + MAP_BYTES)) {
				best = m;
			}
		}
		return best;
	}

	private static int paramIndex(@Nullable FunctionInfo f, int off) {
		if (f == null) {
			return -1;
		}
		List<ParamInfo> ps = f.params();
		for (int i = 0; i < ps.size(); i++) {
			if (ps.get(i).offset() == off) {
				return i;
			}
		}
		return -1;
	}

	private static long hash(byte[] b, int off) {
		long h = 0xcbf29ce484222325L;
		for (int i = 0; i < MAP_BYTES; i += 8) {
			h = (h ^ LaunchContext.wordAt(b, off + i)) * 0x100000001b3L;
		}
		return h;
	}
}
