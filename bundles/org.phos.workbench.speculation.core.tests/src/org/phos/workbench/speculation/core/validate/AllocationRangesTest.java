package org.phos.workbench.speculation.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link AllocationRanges} (the validator's per-launch table of allocations) and {@link ByteRanges#setUnion} against
 * plain references: a map of bit sets of bytes, filled the same way over many reused "launches".
 */
class AllocationRangesTest {

	/** Reference of one allocation: bytes as bits relative to its base, and how it was reached. */
	private static final class Expected {
		final BitSet read = new BitSet();
		final BitSet written = new BitSet();
		boolean indirectOnly = true;
	}

	@Test
	void slotsMatchAMapOverManyReusedLaunches() {
		SplittableRandom random = new SplittableRandom(11);
		AllocationRanges table = new AllocationRanges();
		for (int launch = 0; launch < 400; launch++) {
			table.clear();
			Map<Long, Expected> expected = new LinkedHashMap<>();
			// mostly a few allocations, sometimes hundreds (the table grows), bases aligned as real ones are and
			// drawn from a small pool so that launches share them and one base is named many times
			int allocations = launch % 50 == 0 ? 300 + random.nextInt(300) : 1 + random.nextInt(8);
			int accesses = allocations * (1 + random.nextInt(4));
			for (int a = 0; a < accesses; a++) {
				long base = 0x7f00_0000_0000L + ((long) random.nextInt(allocations) << 21)
						- (random.nextInt(16) == 0 ? 0x7f00_0000_0000L * 2 : 0); // some negative (signed) bases
				int begin = random.nextInt(1024);
				int end = begin + random.nextInt(64); // empty ranges too: ignored by both
				boolean write = random.nextBoolean();
				boolean indirect = random.nextInt(4) == 0;
				int s = table.slot(base);
				assertEquals(base, table.base(s));
				Expected e = expected.computeIfAbsent(base, k -> new Expected());
				(write ? table.written(s) : table.read(s)).add(base + begin, base + end);
				(write ? e.written : e.read).set(begin, end);
				table.reached(s, indirect);
				e.indirectOnly &= indirect;
			}
			assertEquals(expected.size(), table.count(), "allocations of launch " + launch);
			List<Long> order = new ArrayList<>(expected.keySet());
			for (int s = 0; s < table.count(); s++) {
				assertEquals(order.get(s), table.base(s), "slots keep the order bases were first named");
				Expected e = expected.get(table.base(s));
				assertEquals(s, table.find(table.base(s)));
				assertEquals(e.read.cardinality(), table.read(s).size());
				assertEquals(e.written.cardinality(), table.written(s).size());
				assertEquals(e.indirectOnly, table.indirectOnly(s));
				BitSet all = (BitSet) e.read.clone();
				all.or(e.written);
				assertEquals(all.cardinality(), table.all(s).size(), "read and written together");
				assertEquals(all.cardinality(), table.all(s).size(), "asked again: the same union");
				BitSet both = (BitSet) e.read.clone();
				both.and(e.written);
				assertEquals(both.cardinality(), table.read(s).intersection(table.written(s)));
			}
			// a base of an earlier launch that this one did not name is not found after clear()
			assertEquals(-1, table.find(0x1234_5000L));
			for (int probe = 0; probe < 20; probe++) {
				long base = 0x7f00_0000_0000L + ((long) (allocations + probe) << 21);
				assertEquals(expected.containsKey(base) ? order.indexOf(base) : -1, table.find(base));
			}
		}
	}

	@Test
	void allIsTheOneNonEmptySideWithoutCopying() {
		AllocationRanges table = new AllocationRanges();
		int s = table.slot(4096);
		table.read(s).add(4096, 4200);
		assertSame(table.read(s), table.all(s));
		int t = table.slot(8192);
		table.written(t).add(8192, 8200);
		assertSame(table.written(t), table.all(t));
		assertTrue(table.indirectOnly(s), "no access said how it was reached");
		table.clear();
		assertEquals(0, table.count());
		assertEquals(-1, table.find(4096));
		int again = table.slot(8192);
		assertEquals(0, again);
		assertTrue(table.read(again).isEmpty() && table.written(again).isEmpty(), "a reused slot starts empty");
		assertTrue(table.all(again).isEmpty());
	}

	@Test
	void unionEqualsAddingBothSets() {
		SplittableRandom random = new SplittableRandom(5);
		ByteRanges union = new ByteRanges();
		for (int round = 0; round < 2000; round++) {
			ByteRanges a = new ByteRanges();
			ByteRanges b = new ByteRanges();
			ByteRanges added = new ByteRanges();
			BitSet bits = new BitSet();
			for (ByteRanges r : List.of(a, b)) {
				int n = random.nextInt(6);
				for (int i = 0; i < n; i++) {
					int begin = random.nextInt(300); // unsorted, overlapping, touching ranges
					int end = begin + random.nextInt(40);
					r.add(begin, end);
					added.add(begin, end);
					bits.set(begin, end);
				}
			}
			union.setUnion(a, b);
			assertEquals(bits.cardinality(), union.size(), "round " + round);
			assertEquals(added.ranges(), union.ranges(), "round " + round + ": the same sorted, merged ranges");
			assertEquals(union.isEmpty(), bits.isEmpty());
		}
		ByteRanges touching = new ByteRanges();
		ByteRanges x = new ByteRanges();
		ByteRanges y = new ByteRanges();
		x.add(0, 4);
		y.add(4, 8);
		touching.setUnion(x, y);
		assertEquals(1, touching.ranges().size(), "touching ranges are joined");
		assertFalse(touching.isEmpty());
	}
}
