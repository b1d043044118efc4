package org.phos.workbench.internal.speculation.core.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The primitive map against java.util.HashMap under random puts and removes (removal shifts probe runs). */
class LongIntMapTest {

	@Test
	void behavesLikeAHashMap() {
		SplittableRandom rnd = new SplittableRandom(7);
		LongIntMap map = new LongIntMap(4);
		Map<Long, Integer> reference = new HashMap<>();
		for (int step = 0; step < 200_000; step++) {
			long key = rnd.nextInt(5000) * 0x1_0000L; // clustered keys stress probing
			int op = rnd.nextInt(3);
			if (op == 0) {
				int v = rnd.nextInt(1 << 20);
				map.put(key, v);
				reference.put(key, v);
			} else if (op == 1) {
				Integer old = reference.remove(key);
				assertEquals(old == null ? LongIntMap.MISSING : old, map.remove(key));
			} else {
				Integer v = reference.get(key);
				assertEquals(v == null ? LongIntMap.MISSING : v, map.get(key));
			}
			assertEquals(reference.size(), map.size());
		}
		for (Map.Entry<Long, Integer> e : reference.entrySet()) {
			assertEquals(e.getValue(), map.get(e.getKey()));
		}
	}
}
