package org.phos.workbench.speculation.core.instrument;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;

/** Relocating recorded pointers in parameters and payloads, and writing observed accesses into a trace copy. */
class AddressRelocationTest {

	static final long A = 0x7f00_0000_0000L, B = 0x7f00_0001_0000L, RA = 0x3000_0000L, RB = 0x2000_0000L;

	private static AddressRelocation two() {
		AddressRelocation r = new AddressRelocation();
		r.map(A, 4096, RA);
		r.map(B, 64, RB);
		return r;
	}

	@Test
	void relocatesPointerWordsOfAParameterBuffer() {
		AddressRelocation r = two();
		// k(const float* a, int n, struct { float* p; int m; } s, void* end)
		ByteBuffer p = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
		p.putLong(0, A + 128).putInt(8, 1000).putLong(16, B + 8).putInt(24, 7).putLong(32, B + 64);
		byte[] bytes = p.array();
		assertEquals(3, r.relocateWords(bytes, 0, bytes.length, 0));
		ByteBuffer q = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
		assertEquals(RA + 128, q.getLong(0));
		assertEquals(1000, q.getInt(8));
		assertEquals(RB + 8, q.getLong(16));
		assertEquals(7, q.getInt(24));
		assertEquals(RB + 64, q.getLong(32), "one past the end of B moves with B");
	}

	@Test
	void relocatesPointersInAPayloadAtItsDeviceAlignment() {
		AddressRelocation r = two();
		// payload copied to A + 4: the aligned words start at payload offset 4
		ByteBuffer p = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN);
		p.putInt(0, 5).putLong(4, B).putLong(12, A + 4095);
		byte[] bytes = p.array();
		assertEquals(2, r.relocateWords(bytes, 0, bytes.length, A + 4));
		ByteBuffer q = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
		assertEquals(5, q.getInt(0));
		assertEquals(RB, q.getLong(4));
		assertEquals(RA + 4095, q.getLong(12));
		// the same bytes copied to an aligned address: the words straddle and nothing is relocated
		byte[] copy = p.array().clone();
		assertEquals(0, two().relocateWords(copy, 0, copy.length, A));
	}

	@Test
	void mapsBothWaysAndForgetsFreedAllocations() {
		AddressRelocation r = two();
		assertEquals(RA + 10, r.toReplay(A + 10));
		assertEquals(A + 10, r.toRecorded(RA + 10));
		assertEquals(-1, r.toReplay(A + 5000));
		assertEquals(-1, r.toRecorded(RB + 64));
		assertEquals(List.of(A, B), r.mappings().stream().map(AddressRelocation.Mapping::recordedBase).toList());
		assertNotNull(r.unmap(A));
		assertNull(r.unmap(A));
		assertEquals(-1, r.toReplay(A + 10));
		assertEquals(1, r.size());
		r.map(A, 16, RA + 8192); // the recorded address reused by a new allocation
		assertEquals(RA + 8192, r.toReplay(A));
		assertThrows(IllegalStateException.class, () -> r.map(A + 8, 16, 0x1000));
		assertThrows(IllegalArgumentException.class, () -> r.map(0x10, 0, 0x1000));
	}

	@Test
	void writesATraceCopyWithObservedAccesses(@TempDir Path tmp) throws Exception {
		Trace t = Trace.builder(TraceHeader.builder("test", "1").build())
				.function(new FunctionInfo(1, 0, "k", "", List.of()))
				.event(new TraceEvent.Alloc(1, 0, A, 4096, AllocKind.PLAIN, 0))
				.event(new TraceEvent.Launch(2, 0, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0, new byte[8], 0, 0,
						LaunchKind.PLAIN, 0))
				.observed(new ObservedAccess(1, A, List.of(), List.of(), 0, 0, "sanitizer"))
				.observed(new ObservedAccess(1, A, List.of(), List.of(), 9, 9, "ptx-instrument"))
				.build();
		ObservedAccess fresh = new ObservedAccess(1, A, List.of(new AddressRange(A, A + 64)), List.of(), 16, 0,
				"ptx-instrument");
		Path out = tmp.resolve("out.phos");
		ObservedTraceWriter.write(t, List.of(fresh), out);
		TraceLoadResult back = TraceReader.read(out, null);
		assertEquals(List.of(), back.warnings());
		assertEquals(2, back.trace().eventCount());
		assertEquals(t.event(1), back.trace().event(1));
		assertEquals(List.of(t.observedAccesses().get(0), fresh), back.trace().observedAccesses(),
				"the old ptx-instrument record is replaced, the sanitizer's kept");
	}
}
