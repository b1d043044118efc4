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
	 * @param lowBound the first byte (may be negative), possibly depending on scalar arguments (a slice
	 *        {@code base[off .. off + n)} with {@code off} passed by value)
	 * @param high one past the last byte, possibly depending on scalar arguments
	 */
	record Bounded(LinearBound lowBound, LinearBound high) implements AccessRange {
		/** A range whose low end is a constant. */
		public Bounded(long low, LinearBound high) {
			this(LinearBound.of(low), high);
		}

		/** @return the constant part of the low end (the whole low end when {@link #lowBound()} is constant) */
		public long low() {
			return lowBound.constant();
		}

		@Override
		public String toString() {
			return "[" + lowBound + ", " + high + ")";
		}
	}

	/** The shared instance for no access. */
	AccessRange NONE = new None();
	/** The shared instance for whole-allocation access. */
	AccessRange WHOLE = new Whole();
}
