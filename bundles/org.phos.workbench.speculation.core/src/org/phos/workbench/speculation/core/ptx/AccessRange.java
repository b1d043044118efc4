package org.phos.workbench.speculation.core.ptx;

/**
 * The bytes, relative to the pointer a parameter word holds, that a kernel may access through it.
 */
public sealed interface AccessRange {

	/** No access of this direction. */
	record None() implements AccessRange {
		@Override
		public String toString() {
			return "none";
		}
	}

	/** The analysis cannot bound the access: assume the whole allocation. */
	record Whole() implements AccessRange {
		@Override
		public String toString() {
			return "whole";
		}
	}

	/**
	 * Bytes {@code [low, high)} relative to the pointer.
	 *
	 * @param low the first byte (may be negative)
	 * @param high one past the last byte, possibly depending on scalar arguments
	 */
	record Bounded(long low, LinearBound high) implements AccessRange {
		@Override
		public String toString() {
			return "[" + low + ", " + high + ")";
		}
	}

	/** The shared instance for no access. */
	AccessRange NONE = new None();
	/** The shared instance for whole-allocation access. */
	AccessRange WHOLE = new Whole();
}
