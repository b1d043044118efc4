package org.phos.workbench.internal.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The export benchmark's allocation figure: unknown stays unknown, so the memory check cannot pass without it. */
class ExportBenchmarkTest {

	@Test
	void anUnknownReadingMakesTheAllocationUnknown() {
		assertEquals(2L << 20, ExportBenchmark.allocatedBetween(1000, 1000 + (2L << 20)));
		assertEquals(-1, ExportBenchmark.allocatedBetween(-1, -1)); // a runtime without jdk.management
		assertEquals(-1, ExportBenchmark.allocatedBetween(-1, 5000));
		assertEquals(-1, ExportBenchmark.allocatedBetween(5000, -1));
	}

	@Test
	void thisJvmTellsWhatAThreadAllocates() {
		long before = ExportBenchmark.allocatedBytes();
		byte[][] kept = new byte[8][];
		for (int i = 0; i < kept.length; i++) {
			kept[i] = new byte[1 << 20];
		}
		long allocated = ExportBenchmark.allocatedBetween(before, ExportBenchmark.allocatedBytes());
		assertTrue(allocated >= 8L << 20, "allocated " + allocated + " bytes for " + kept.length + " MiB");
	}
}
