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

		// i14-incr: begin
		/**
		 * The file that holds the events older than the views' window (the process's own trace file), or null while
		 * the window holds everything received (or the file cannot be found).
		 */
		default java.nio.file.@Nullable Path olderEventsFile() {
			return null;
		}

		/** Opens {@link #olderEventsFile()} as an ordinary trace (a view's "Open" link). */
		default void openOlderEvents() {
		}
		// i14-incr: end
		// i14-ckpt: begin
		/**
		 * Moments of the session to mark on the timelines, in time order (the driver checkpoint's phases of the
		 * attached process); none by default.
		 */
		default java.util.List<Mark> marks() {
			return java.util.List.of();
		}
		// i14-ckpt: end
	}

	// i14-ckpt: begin
	/**
	 * A moment to mark on a live trace's timelines: host time in CLOCK_MONOTONIC nanoseconds (the recorder's clock:
	 * a trace's host times are this minus its header's {@code startMonoNs}), and a short label.
	 */
	public record Mark(long hostNs, String label) {
	}
	// i14-ckpt: end

	private static final Map<LoadedTrace, Session> LIVE = Collections.synchronizedMap(new WeakHashMap<>());
	private static final java.util.List<java.util.function.Consumer<LoadedTrace>> LISTENERS =
			new java.util.concurrent.CopyOnWriteArrayList<>();

	private LiveTraces() {
	}

	/** Says that {@code generation} belongs to {@code session}. */
	public static void register(LoadedTrace generation, Session session) {
		LIVE.put(generation, session);
	}

	/**
	 * Calls {@code listener} on the UI thread with each new generation a live session publishes. The page's selection
	 * only carries the active part's selection, so a view showing a live trace while another part is active (a click
	 * into the Launches table makes it active) would stop at the generation it has: through this it moves on.
	 * Remove the listener when the view is disposed.
	 */
	public static void addGenerationListener(java.util.function.Consumer<LoadedTrace> listener) {
		LISTENERS.add(listener);
	}

	public static void removeGenerationListener(java.util.function.Consumer<LoadedTrace> listener) {
		LISTENERS.remove(listener);
	}

	/** Tells the listeners that {@code generation} (already {@link #register registered}) is the newest (UI thread). */
	public static void published(LoadedTrace generation) {
		for (var l : LISTENERS) {
			l.accept(generation);
		}
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
