package org.phos.workbench.internal.live;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * A small trace over the sample PTX kernels ({@code sample-traces/programs/ptx/ptx_kernels.ptx}: saxpy, stencil3,
 * block_sum) whose accesses are known by construction, with recorded addresses that differ from any replay's, one
 * host-to-device copy with a payload and one without, and an allocation no kernel touches:
 * <ul>
 * <li>event 5: {@code saxpy(x, y, 2, 1000)} on 4&times;256 threads reads {@code x[0,4000)}, reads and writes
 * {@code y[0,4000)}: 2000 reads, 1000 writes;</li>
 * <li>event 6: {@code stencil3(y, x, 1024, 0.25)} reads all of {@code y} (2 + 3&times;1022 reads) and writes all of
 * {@code x} (1024 writes);</li>
 * <li>event 7: {@code block_sum(x, 1024, out)} on 4&times;256 reads all of {@code x} (1024) and writes
 * {@code out[0,16)} (4).</li>
 * </ul>
 */
public final class SelfTestTrace {

	/** Recorded addresses. */
	public static final long X = 0x7f00_1000_0000L, Y = 0x7f00_1010_0000L, OUT = 0x7f00_1020_0000L,
			UNUSED = 0x7f00_1030_0000L;
	private static final int N = 1024;

	private SelfTestTrace() {
	}

	/** @return the trace, with {@code ptx} as module 1 */
	public static Trace build(String ptx) {
		Trace.Builder b = Trace.builder(TraceHeader.builder("selftest", "1").build());
		b.module(ModuleInfo.of(1, ModuleKind.PTX, ptx.getBytes(StandardCharsets.UTF_8), "cuModuleLoadDataEx"));
		List<ParamInfo> p24 = List.of(new ParamInfo(0, 8), new ParamInfo(8, 8), new ParamInfo(16, 4),
				new ParamInfo(20, 4));
		b.function(new FunctionInfo(1, 1, "saxpy", "", p24));
		b.function(new FunctionInfo(2, 1, "stencil3", "", p24));
		b.function(new FunctionInfo(3, 1, "block_sum", "",
				List.of(new ParamInfo(0, 8), new ParamInfo(8, 4), new ParamInfo(16, 8))));
		long t = 1000;
		b.event(new TraceEvent.Alloc(t++, 0, X, 4 * N, AllocKind.PLAIN, 0));
		b.event(new TraceEvent.Alloc(t++, 0, Y, 4 * N, AllocKind.PLAIN, 0));
		b.event(new TraceEvent.Alloc(t++, 0, OUT, 16, AllocKind.PLAIN, 0));
		b.event(new TraceEvent.Alloc(t++, 0, UNUSED, 4 * N, AllocKind.PLAIN, 0));
		ByteBuffer xs = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
		for (int i = 0; i < N; i++) {
			xs.putFloat(i);
		}
		b.event(new TraceEvent.Memcpy(t++, 0, CopyKind.H2D, 0x1000, X, 4 * N, 0, false, xs.array(), 0, 0));
		b.event(launch(t++, 1, buf(X, Y, Float.floatToIntBits(2f), 1000)));
		b.event(launch(t++, 2, buf(Y, X, N, Float.floatToIntBits(0.25f))));
		ByteBuffer bs = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
		bs.putLong(0, X).putInt(8, N).putLong(16, OUT);
		b.event(launch(t++, 3, bs.array()));
		return b.build();
	}

	/** @return the accesses the three launches make, by construction, in recorded addresses */
	public static List<ObservedAccess> expected(String tool) {
		return List.of(
				new ObservedAccess(5, X, List.of(new AddressRange(X, X + 4000)), List.of(), 1000, 0, tool),
				new ObservedAccess(5, Y, List.of(new AddressRange(Y, Y + 4000)), List.of(new AddressRange(Y, Y + 4000)),
						1000, 1000, tool),
				new ObservedAccess(6, X, List.of(), List.of(new AddressRange(X, X + 4 * N)), 0, N, tool),
				new ObservedAccess(6, Y, List.of(new AddressRange(Y, Y + 4 * N)), List.of(), 2 + 3 * (N - 2), 0, tool),
				new ObservedAccess(7, X, List.of(new AddressRange(X, X + 4 * N)), List.of(), N, 0, tool),
				new ObservedAccess(7, OUT, List.of(), List.of(new AddressRange(OUT, OUT + 16)), 0, 4, tool));
	}

	private static byte[] buf(long p0, long p1, int a, int b) {
		ByteBuffer bb = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
		bb.putLong(0, p0).putLong(8, p1).putInt(16, a).putInt(20, b);
		return bb.array();
	}

	private static TraceEvent.Launch launch(long t, int function, byte[] params) {
		return new TraceEvent.Launch(t, 0, function, new Dim3(N / 256, 1, 1), new Dim3(256, 1, 1), 0, 0, params, 0,
				0, LaunchKind.PLAIN, 0);
	}
}
