package org.phos.workbench.analysis.core;

import java.util.regex.Pattern;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.Trace;

/**
 * Which launches of a trace to list, in which order, which page: the question behind the launch table of the
 * {@code launches} command and the Launches view. The filtered, sorted order is built once per (trace, filter, sort,
 * verdict engine) and cached by the {@link AnalysisSession}; paging through it reads rows from the columnar trace.
 *
 * @param trace the trace
 * @param filter which launches
 * @param sort the order
 * @param verdictEngine an engine name from the catalog: each row then carries the launch's verdict under it (and the
 *        filter may ask for a verdict); null: no verdicts (nothing is speculated)
 * @param tool the observing tool whose truth verdicts compare with, or null for all tools united
 * @param offset the first row of the page among the matching launches
 * @param limit rows in the page at most
 */
public record LaunchQuery(Trace trace, Filter filter, Sort sort, @Nullable String verdictEngine, @Nullable String tool,
		int offset, int limit) {

	/** Checks the page. */
	public LaunchQuery {
		if (offset < 0 || limit < 0) {
			throw new IllegalArgumentException("offset and limit must be >= 0");
		}
	}

	/** @return the first {@code limit} launches in launch order, no filter, no verdicts */
	public static LaunchQuery page(Trace trace, int offset, int limit) {
		return new LaunchQuery(trace, Filter.ALL, Sort.LAUNCH_ORDER, null, null, offset, limit);
	}

	/** @return the same question for another page (the cached order is reused) */
	public LaunchQuery withPage(int newOffset, int newLimit) {
		return new LaunchQuery(trace, filter, sort, verdictEngine, tool, newOffset, newLimit);
	}

	/**
	 * Which launches match. Every part is optional; all given parts must hold.
	 *
	 * @param kernel a regular expression found anywhere in the demangled kernel name ({@link Pattern#find}), or null
	 * @param stream the stream handle, or null for every stream
	 * @param fromHostNs host time at or after which the launch was issued ({@link Long#MIN_VALUE}: no bound)
	 * @param toHostNs host time before which it was issued ({@link Long#MAX_VALUE}: no bound)
	 * @param verdict a verdict label ({@code missed-write}, {@code exact}, ..., or {@link LaunchVerdict#label()} of
	 *        any {@link LaunchVerdict}; {@code unsafe} for both unsafe ones) the launch must have under the query's
	 *        engine, or null
	 */
	public record Filter(@Nullable String kernel, @Nullable Long stream, long fromHostNs, long toHostNs,
			@Nullable String verdict) {

		/** Every launch. */
		public static final Filter ALL = new Filter(null, null, Long.MIN_VALUE, Long.MAX_VALUE, null);

		/** Checks the expression. */
		public Filter {
			if (kernel != null) {
				Pattern.compile(kernel); // PatternSyntaxException (an IllegalArgumentException) names the error
			}
		}
	}

	/**
	 * The order.
	 *
	 * @param column a header of {@link LaunchRow#TABLE} that can be sorted: {@code launch}, {@code event},
	 *        {@code host_ns}, {@code gpu_start_ns}, {@code gpu_end_ns}, {@code gpu_ns}, {@code stream},
	 *        {@code function}, {@code kernel}, {@code verdict}; ties keep launch order
	 * @param descending largest first
	 */
	public record Sort(String column, boolean descending) {

		/** Columns that can be sorted. */
		public static final java.util.List<String> COLUMNS = java.util.List.of("launch", "event", "host_ns",
				"gpu_start_ns", "gpu_end_ns", "gpu_ns", "stream", "function", "kernel", "verdict");

		/** Launch order. */
		public static final Sort LAUNCH_ORDER = new Sort("launch", false);

		/** Checks the column. */
		public Sort {
			if (!COLUMNS.contains(column)) {
				throw new IllegalArgumentException(
						"cannot sort by '" + column + "'; sortable: " + String.join(", ", COLUMNS));
			}
		}

		/**
		 * @param text {@code COL} or {@code -COL} (descending)
		 * @return the order
		 */
		public static Sort parse(String text) {
			return text.startsWith("-") ? new Sort(text.substring(1), true) : new Sort(text, false);
		}
	}
}
