package org.phos.workbench.speculation.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * Builds small in-memory traces for engine and validation tests; returns event indices (allocation ids are the
 * event indices of their Alloc events).
 */
public final class TraceFixture {

	private final Trace.Builder builder = Trace.builder(TraceHeader.builder("test", "1").build());
	private int events;
	private long clock = 1000;

	/** @return a fixture */
	public static TraceFixture create() {
		return new TraceFixture();
	}

	/** Adds a module. */
	public TraceFixture module(ModuleInfo module) {
		builder.module(module);
		return this;
	}

	/** Adds a function with a layout of (offset, size) pairs. */
	public TraceFixture function(int id, int moduleId, String mangled, int... offsetSize) {
		List<ParamInfo> params = new ArrayList<>();
		for (int i = 0; i < offsetSize.length; i += 2) {
			params.add(new ParamInfo(offsetSize[i], offsetSize[i + 1]));
		}
		builder.function(new FunctionInfo(id, moduleId, mangled, "", params));
		return this;
	}

	/** @return the Alloc's event index (the allocation id) */
	public int alloc(long address, long size, AllocKind kind) {
		builder.event(new TraceEvent.Alloc(clock++, 0, address, size, kind, 0));
		return events++;
	}

	/** @return the Alloc's event index (a plain cudaMalloc) */
	public int alloc(long address, long size) {
		return alloc(address, size, AllocKind.PLAIN);
	}

	/** @return the Free's event index */
	public int free(long address) {
		builder.event(new TraceEvent.Free(clock++, 0, address, AllocKind.PLAIN, 0));
		return events++;
	}

	/** @return the copy's event index; the payload is captured */
	public int h2d(long dst, byte[] payload) {
		builder.event(new TraceEvent.Memcpy(clock++, 0, CopyKind.H2D, 0x5600_0000_0000L, dst, payload.length, 0,
				false, payload, 0, 0));
		return events++;
	}

	// i15-alloc: begin
	/** @return the allocator block event's index (PyTorch's caching allocator, stream 0, device 0) */
	public int block(org.phos.workbench.trace.core.BlockAction action, long address, long size) {
		builder.event(new TraceEvent.AllocatorBlock(clock++, 0, action, address, size, 0, 0));
		return events++;
	}
	// i15-alloc: end

	/** @return the launch's event index */
	public int launch(int function, byte[] params) {
		builder.event(new TraceEvent.Launch(clock++, 0, function, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0, params,
				0, 0, LaunchKind.PLAIN, 0));
		return events++;
	}

	// i15-cublas: begin
	/** @return the launch's event index; a launch with this grid */
	public int launch(int function, byte[] params, Dim3 grid) {
		builder.event(new TraceEvent.Launch(clock++, 0, function, grid, new Dim3(128, 1, 1), 0, 0, params, 0, 0,
				LaunchKind.PLAIN, 0));
		return events++;
	}
	// i15-cublas: end

	/** Adds an observed access; ranges are {begin, end} pairs, absolute. */
	public TraceFixture observed(int launch, long allocation, long[] read, long[] written) {
		builder.observed(new ObservedAccess(launch, allocation, ranges(read), ranges(written), read.length / 2,
				written.length / 2, "test-truth"));
		return this;
	}

	private static List<AddressRange> ranges(long[] pairs) {
		List<AddressRange> list = new ArrayList<>();
		for (int i = 0; i < pairs.length; i += 2) {
			list.add(new AddressRange(pairs[i], pairs[i + 1]));
		}
		return list;
	}

	/** @return the trace */
	public Trace build() {
		return builder.build();
	}

	/** @return little-endian 64-bit words */
	public static byte[] words(long... values) {
		ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
		for (long v : values) {
			b.putLong(v);
		}
		return b.array();
	}

	/** Runs one engine over the trace and returns what it speculated for each launch, in launch order. */
	public static List<LaunchSpeculation> speculate(Trace trace, String engine) {
		SpeculationEngine e = EngineRegistry.create(engine, trace);
		List<LaunchSpeculation> out = new ArrayList<>();
		TraceSpeculator.forEngines(trace, List.of(e)).run(null, launch -> out.add(LaunchSpeculation.collect(e, launch)));
		return out;
	}
}
