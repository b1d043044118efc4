package org.phos.workbench.trace.core.synthetic;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * The smallest trace in which speculation from launch arguments misses a write: three launches on one stream over two
 * 64 MiB buffers {@link #A}, {@link #B} and a 4 KiB pointer table {@link #TABLE}: {@code fill(A)}, then
 * {@code gather(T)}, which writes 4 KiB of B through a pointer stored in T (an engine that sees only the arguments
 * sees T), then {@code fill(A)} again. With observed accesses every launch carries its truth, so validation and the
 * C/R simulator's consistency check find the missed write.
 */
public final class IndirectWriteTrace {
	/** Buffer A, written whole by both fills. */
	public static final long A = 0x7f00_0000_0000L;
	/** Buffer B, written through the pointer table. */
	public static final long B = 0x7f00_1000_0000L;
	/** The pointer table, read by gather. */
	public static final long TABLE = 0x7f00_2000_0000L;
	/** The size of A and of B. */
	public static final long SIZE = 64L << 20;

	private IndirectWriteTrace() {
	}

	/** Writes the trace into {@code file}, with the observed accesses of its launches or without. */
	public static Path write(Path file, boolean observed) throws IOException {
		try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("test", "1").build())) {
			w.function(new FunctionInfo(1, 0, "_Z4fillPf", "fill(float*)", List.of(new ParamInfo(0, 8))));
			w.function(new FunctionInfo(2, 0, "_Z6gatherPPf", "gather(float**)", List.of(new ParamInfo(0, 8))));
			w.write(new TraceEvent.Alloc(1_000, 0, A, SIZE, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(2_000, 0, B, SIZE, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(3_000, 0, TABLE, 4096, AllocKind.PLAIN, 0));
			long l0 = w.write(launch(10_000, 1, A));
			long l1 = w.write(launch(20_000, 2, TABLE));
			long l2 = w.write(launch(30_000, 1, A));
			if (observed) {
				w.observed(new ObservedAccess(l0, A, List.of(), List.of(new AddressRange(A, A + SIZE)), 0, 1, "ptx"));
				w.observed(new ObservedAccess(l1, TABLE, List.of(new AddressRange(TABLE, TABLE + 8)), List.of(), 1, 0,
						"ptx"));
				w.observed(new ObservedAccess(l1, B, List.of(), List.of(new AddressRange(B, B + 4096)), 0, 1, "ptx"));
				w.observed(new ObservedAccess(l2, A, List.of(), List.of(new AddressRange(A, A + SIZE)), 0, 1, "ptx"));
			}
		}
		return file;
	}

	private static TraceEvent.Launch launch(long hostNs, int function, long pointer) {
		byte[] params = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(pointer).array();
		return new TraceEvent.Launch(hostNs, 0, function, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0, params, 0, 0,
				LaunchKind.PLAIN, 0);
	}
}
