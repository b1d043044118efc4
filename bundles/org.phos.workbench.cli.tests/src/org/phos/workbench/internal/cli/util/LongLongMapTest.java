package org.phos.workbench.internal.cli.util;

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

	@Test
	void humanFormats() {
		assertEquals("1,234,567", Human.count(1_234_567));
		assertEquals("512 B", Human.bytes(512));
		assertEquals("1.50 KiB", Human.bytes(1536));
		assertEquals("80.0 GiB", Human.bytes(80L << 30));
		assertEquals("16.0 EiB", Human.bytes(-1L));
		assertEquals("850 ns", Human.duration(850));
		assertEquals("12.5 us", Human.duration(12_500));
		assertEquals("3.20 ms", Human.duration(3_200_000));
		assertEquals("1.234 s", Human.duration(1_234_000_000));
		assertEquals("13.0", Human.cudaVersion(13000));
		assertEquals("12.8", Human.cudaVersion(12080));
		assertEquals("a\\nb\\x01", Human.printable("a\nb\u0001"));
	}
}
