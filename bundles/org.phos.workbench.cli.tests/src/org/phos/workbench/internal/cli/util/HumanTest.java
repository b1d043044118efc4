package org.phos.workbench.internal.cli.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link Human}'s formats of counts, sizes, durations and versions. */
class HumanTest {

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
