package org.phos.workbench.internal.trace.core.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** {@link LongLongMap} against {@link HashMap} under random puts and removes (backward-shift deletion). */
class LongLongMapTest {

	@Test
	void behavesLikeAHashMap() {
		SplittableRandom random = new SplittableRandom(7);
		LongLongMap map = new LongLongMap(2);
		Map<Long, Long> reference = new HashMap<>();
		for (int step = 0; step < 200_000; step++) {
			long key = random.nextInt(5000) * 0x100L + (step % 3 == 0 ? 0x7f00_0000_0000L : 0);
			switch (random.nextInt(3)) {
			case 0 -> {
				long value = random.nextLong();
				map.put(key, value);
				reference.put(key, value);
			}
			case 1 -> assertEquals(reference.containsKey(key) ? reference.remove(key) : -1L, map.remove(key, -1));
			default -> assertEquals(reference.getOrDefault(key, -1L), map.get(key, -1));
			}
			assertEquals(reference.size(), map.size());
		}
		Map<Long, Long> copy = new HashMap<>();
		map.forEach(copy::put);
		assertEquals(reference, copy);
	}
}
