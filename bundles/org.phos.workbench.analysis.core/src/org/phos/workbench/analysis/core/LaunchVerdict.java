package org.phos.workbench.analysis.core;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.validate.AccessVerdict;

/**
 * One launch's verdict under one engine: the worst {@link AccessVerdict} over the allocations either side names (the
 * order of that enum, unsafe first), or why there is none. Unreliable truth shows as {@link #UNRELIABLE}, never as a
 * verdict.
 */
public enum LaunchVerdict {
	/** An observed write was speculated only as a read. */
	WRONG_DIRECTION(AccessVerdict.WRONG_DIRECTION),
	/** Observed written bytes were not speculated as written. */
	MISSED_WRITE(AccessVerdict.MISSED_WRITE),
	/** Observed read bytes were not speculated as read. */
	MISSED_READ(AccessVerdict.MISSED_READ),
	/** Everything observed speculated, and more. */
	OVER_APPROXIMATED(AccessVerdict.OVER_APPROXIMATED),
	/** Exactly the observed bytes. */
	EXACT(AccessVerdict.EXACT),
	/** Observed, but its truth cannot be stood behind ({@code TruthReliability}): left out of every figure. */
	UNRELIABLE(null),
	/** Not observed by any tool asked: nothing to compare with. */
	NOT_OBSERVED(null);

	private final @Nullable AccessVerdict access;

	LaunchVerdict(@Nullable AccessVerdict access) {
		this.access = access;
	}

	/** @return the access verdict it stands for, null for the two that are not verdicts */
	public @Nullable AccessVerdict access() {
		return access;
	}

	/** @return whether a write went unspeculated */
	public boolean unsafe() {
		return access != null && access.unsafe();
	}

	/** @return the name as tables write it ({@code missed-write}, {@code not-observed}) */
	public String label() {
		return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
	}

	/** @return the launch verdict for an access verdict */
	public static LaunchVerdict of(AccessVerdict verdict) {
		return values()[verdict.ordinal()];
	}
}
