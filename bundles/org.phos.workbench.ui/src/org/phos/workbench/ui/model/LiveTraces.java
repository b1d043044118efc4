package org.phos.workbench.ui.model;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Which {@link LoadedTrace}s are generations of a live trace (a process attached to, still recording). A live trace
 * is published as a sequence of ordinary immutable loaded traces, one per snapshot of what has arrived; a view that
 * gets a new generation of the session it shows keeps its place (filter, scroll position) instead of starting over,
 * and, while the session {@link Session#following() follows}, moves to the newest events. Kept weakly: a generation
 * no view holds any more is forgotten.
 */
public final class LiveTraces {
	/** One attach session, as the views see it. */
	public interface Session {
		/** Whether the views keep the newest events in sight. */
		boolean following();

		/** Turns following on or off (a view calls it with false when a person scrolls back). */
		void setFollowing(boolean on);

		/**
		 * One line about what the views hold: live or ended, events received, and where the events older than the
		 * window are (the process's trace file), empty while nothing was left out.
		 */
		String note();
	}

	private static final Map<LoadedTrace, Session> LIVE = Collections.synchronizedMap(new WeakHashMap<>());

	private LiveTraces() {
	}

	/** Says that {@code generation} belongs to {@code session}. */
	public static void register(LoadedTrace generation, Session session) {
		LIVE.put(generation, session);
	}

	/** The live session of {@code trace}, or null for an ordinary trace. */
	public static @Nullable Session of(@Nullable LoadedTrace trace) {
		return trace == null ? null : LIVE.get(trace);
	}

	/** Whether {@code a} and {@code b} are two generations of one live session. */
	public static boolean sameSession(@Nullable LoadedTrace a, @Nullable LoadedTrace b) {
		Session s = of(a);
		return s != null && s == of(b);
	}
}
