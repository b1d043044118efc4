package org.phos.workbench.speculation.core.instrument;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.ObservedAccess;

/** Encoding the table the host writes and decoding what the device reduced into it. */
class AccessTableTest {

	static final long REC_A = 0x7000_0000L, REC_B = 0x7100_0000L, REP_A = 0x9000_0000L, REP_B = 0x8000_0000L;

	private static AddressRelocation relocation() {
		AddressRelocation r = new AddressRelocation();
		r.map(REC_A, 4096, REP_A);
		r.map(REC_B, 256, REP_B);
		return r;
	}

	private static AccessTable table(AccessTableLayout layout, AddressRelocation r) {
		return AccessTable.of(layout, r.mappings().stream()
				.map(m -> new AccessTable.Entry(m.recordedBase(), m.replayBase(), m.size())).toList());
	}

	/** Simulates the record routine: what red.min/max/add leave in a slot. */
	private static void reduce(ByteBuffer t, AccessTableLayout l, int slot, long addr, int size, boolean write) {
		int at = (int) l.slotOffset(slot) + (write ? 16 : 0);
		t.putLong(at, Long.compareUnsigned(addr, t.getLong(at)) < 0 ? addr : t.getLong(at));
		t.putLong(at + 8, Long.compareUnsigned(addr + size, t.getLong(at + 8)) > 0 ? addr + size : t.getLong(at + 8));
		int count = (int) l.slotOffset(slot) + (write ? 40 : 32);
		t.putLong(count, t.getLong(count) + 1);
	}

	@Test
	void imageHoldsSortedRangesAndEmptySlots() {
		AccessTableLayout l = new AccessTableLayout(4);
		AccessTable t = table(l, relocation());
		ByteBuffer b = ByteBuffer.wrap(t.image()).order(ByteOrder.LITTLE_ENDIAN);
		assertEquals(l.bytes(), b.capacity());
		assertEquals(2 + 2 * 4 + 8 * 5, l.words());
		assertEquals(2, b.getLong(0));
		assertEquals(4, b.getLong(8));
		// sorted by replay base: B (0x8000_0000) before A
		assertEquals(REP_B, b.getLong(16));
		assertEquals(REP_B + 256, b.getLong(24));
		assertEquals(REP_A, b.getLong(32));
		assertEquals(REP_A + 4096, b.getLong(40));
		for (int s = 0; s <= 4; s++) {
			int at = (int) l.slotOffset(s);
			assertEquals(-1L, b.getLong(at), "read-min of slot " + s);
			assertEquals(0L, b.getLong(at + 8));
			assertEquals(-1L, b.getLong(at + 16), "write-min of slot " + s);
			assertEquals(0L, b.getLong(at + 32));
		}
		assertEquals(List.of(), t.counters(t.image()));
	}

	@Test
	void decodesToRecordedAddresses() {
		AccessTableLayout l = new AccessTableLayout(4);
		AddressRelocation r = relocation();
		AccessTable t = table(l, r);
		ByteBuffer b = ByteBuffer.wrap(t.image()).order(ByteOrder.LITTLE_ENDIAN);
		// slot 1 = A: reads of 16 B at +64 and +1024, a 4-byte write at +8
		reduce(b, l, 1, REP_A + 64, 16, false);
		reduce(b, l, 1, REP_A + 1024, 16, false);
		reduce(b, l, 1, REP_A + 8, 4, true);
		// slot 0 = B: one atomic (read and write) at +0
		reduce(b, l, 0, REP_B, 8, false);
		reduce(b, l, 0, REP_B, 8, true);
		// overflow: an address outside every allocation
		reduce(b, l, 4, 0x5000, 4, false);
		List<ObservedAccess> o = t.observed(42, b.array(), r, "ptx-instrument");
		assertEquals(List.of(
				new ObservedAccess(42, REC_B, List.of(new AddressRange(REC_B, REC_B + 8)),
						List.of(new AddressRange(REC_B, REC_B + 8)), 1, 1, "ptx-instrument"),
				new ObservedAccess(42, REC_A, List.of(new AddressRange(REC_A + 64, REC_A + 1040)),
						List.of(new AddressRange(REC_A + 8, REC_A + 12)), 2, 1, "ptx-instrument"),
				new ObservedAccess(42, 0, List.of(new AddressRange(0x5000, 0x5004)), List.of(), 1, 0,
						"ptx-instrument")), o);
	}

	@Test
	void leftOutAllocationsOverflowAndMapBack() {
		AccessTableLayout l = new AccessTableLayout(1);
		AddressRelocation r = relocation();
		AccessTable t = table(l, r);
		assertEquals(1, t.omitted());
		assertEquals(REC_A, t.entries().get(0).recordedBase(), "the larger allocation is kept");
		ByteBuffer b = ByteBuffer.wrap(t.image()).order(ByteOrder.LITTLE_ENDIAN);
		reduce(b, l, l.overflowSlot(), REP_B + 16, 4, true);
		List<ObservedAccess> o = t.observed(7, b.array(), r, "x");
		assertEquals(1, o.size());
		assertEquals(0, o.get(0).allocation());
		assertEquals(List.of(new AddressRange(REC_B + 16, REC_B + 20)), o.get(0).written());
	}

	@Test
	void rejectsForeignBytes() {
		AccessTableLayout l = new AccessTableLayout(4);
		AccessTable t = table(l, relocation());
		IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.counters(new byte[8]));
		assertTrue(e.getMessage().contains("8 bytes"), e.getMessage());
		byte[] clobbered = t.image();
		clobbered[0] = 9;
		e = assertThrows(IllegalArgumentException.class, () -> t.counters(clobbered));
		assertTrue(e.getMessage().contains("header changed"), e.getMessage());
		assertThrows(IllegalArgumentException.class, () -> new AccessTableLayout(0));
	}
}
