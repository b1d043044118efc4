package org.phos.workbench.speculation.core.instrument;

/**
 * The byte layout of the device-side access table an instrumented module reduces into: a {@code .global} array of
 * little-endian 64-bit words named {@value #SYMBOL}, found by the host with {@code cuModuleGetGlobal} so the kernels'
 * parameter layout stays as recorded.
 * <p>
 * Words, in order:
 * <ol>
 * <li>header: {@code [0]} the number {@code n} of ranges in use, {@code [1]} {@link #maxRanges()} (a check);</li>
 * <li>{@code maxRanges} ranges of two words {@code [base, end)}, the first {@code n} in use, sorted by base and
 * disjoint (the record routine binary-searches them);</li>
 * <li>{@code maxRanges + 1} slots of {@value #SLOT_WORDS} words, slot {@code i} for range {@code i} and slot
 * {@code maxRanges} for accesses outside every range (the overflow slot): read-min, read-end, write-min,
 * write-end, read-count, write-count and two spare words. Before a launch the host sets every min to
 * {@code 0xFFFF_FFFF_FFFF_FFFF} and everything else to 0; the device reduces each access {@code [a, a+size)} with
 * {@code red.global.min.u64}/{@code max.u64}/{@code add.u64}.</li>
 * </ol>
 * Min/end pairs over-approximate: a launch that touches the first and the last byte of an allocation shows the whole
 * allocation as touched even where it skipped holes in between.
 *
 * @param maxRanges how many allocation ranges the table holds (at least 1)
 */
public record AccessTableLayout(int maxRanges) {

	/** The name of the table in the instrumented PTX. */
	public static final String SYMBOL = "__phos_access_table";
	/** The name of the record routine ({@code .func}) the instrumented PTX calls before every global access. */
	public static final String RECORD_FUNCTION = "__phos_record";
	/** Words per slot. */
	public static final int SLOT_WORDS = 8;
	/** Word index of read-min within a slot; read-end, write-min, write-end, read-count, write-count follow. */
	public static final int READ_MIN = 0, READ_END = 1, WRITE_MIN = 2, WRITE_END = 3, READ_COUNT = 4, WRITE_COUNT = 5;
	/** The layout the tools use unless told otherwise. */
	public static final AccessTableLayout DEFAULT = new AccessTableLayout(1024);

	/** Checks the bound. */
	public AccessTableLayout {
		if (maxRanges < 1 || maxRanges > 1 << 20) {
			throw new IllegalArgumentException("maxRanges must be in [1, 1048576], got " + maxRanges);
		}
	}

	/** @return byte offset of range {@code i}'s base word */
	public long rangeOffset(int i) {
		return 16L + 16L * i;
	}

	/** @return byte offset of slot {@code slot} ({@code maxRanges} is the overflow slot) */
	public long slotOffset(int slot) {
		return 16L + 16L * maxRanges + (long) SLOT_WORDS * 8 * slot;
	}

	/** @return the overflow slot's index */
	public int overflowSlot() {
		return maxRanges;
	}

	/** @return the table size in 64-bit words */
	public int words() {
		return 2 + 2 * maxRanges + SLOT_WORDS * (maxRanges + 1);
	}

	/** @return the table size in bytes */
	public long bytes() {
		return 8L * words();
	}
}
