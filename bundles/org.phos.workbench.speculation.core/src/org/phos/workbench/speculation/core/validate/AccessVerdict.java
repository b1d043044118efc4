package org.phos.workbench.speculation.core.validate;

/**
 * How one engine's speculation for one launch and one allocation compares with what instrumentation observed. Byte
 * sets are compared per direction: the speculated read bytes must contain the observed read bytes, the speculated
 * write bytes the observed written bytes. The first verdict that applies, in this order, is given.
 */
public enum AccessVerdict {
	/** Observed writes that were speculated only as reads: unsafe, as a missed write. */
	WRONG_DIRECTION(true),
	/** Observed written bytes outside the speculated write bytes: unsafe, a concurrent checkpoint could be torn. */
	MISSED_WRITE(true),
	/** Observed read bytes outside the speculated read bytes (writes are covered). */
	MISSED_READ(false),
	/** Everything observed was speculated, and more was speculated: bytes wasted, safe. */
	OVER_APPROXIMATED(false),
	/** Speculated exactly the bytes observed, per direction. */
	EXACT(false);

	private final boolean unsafe;

	AccessVerdict(boolean unsafe) {
		this.unsafe = unsafe;
	}

	/** @return whether a write went unspeculated (the checkpoint may be inconsistent) */
	public boolean unsafe() {
		return unsafe;
	}

	/** @return the name as tables and CSV write it ({@code missed-write}) */
	public String label() {
		return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
	}
}
