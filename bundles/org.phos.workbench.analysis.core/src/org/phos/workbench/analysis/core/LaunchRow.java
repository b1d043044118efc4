package org.phos.workbench.analysis.core;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.TableDef;
import org.phos.workbench.trace.core.Dim3;

/**
 * One launch as the launch table lists it.
 *
 * @param launch dense launch index
 * @param event event index
 * @param hostNs host time of the call
 * @param gpuStartNs GPU start, 0 when not measured
 * @param gpuEndNs GPU end, 0 when not measured
 * @param stream stream handle
 * @param functionId launched function id
 * @param kernel demangled kernel name (mangled when it cannot be demangled, {@code function N} when unknown)
 * @param grid grid dimensions
 * @param block block dimensions
 * @param params the decoded parameters: one entry per parameter, pointer words as {@code alloc@EVENT+0xOFF}
 * @param verdict the verdict under the query's engine, null when none was asked
 * @param javaSite the Java call site that launched it ({@code Class.method(File.java:LINE)}) when the JCuda agent
 *                 recorded one ({@link AnalysisSession#javaSites}), else null
 */
public record LaunchRow(int launch, int event, long hostNs, long gpuStartNs, long gpuEndNs, long stream,
		int functionId, String kernel, Dim3 grid, Dim3 block, List<String> params, @Nullable LaunchVerdict verdict,
		@Nullable String javaSite) {

	/** Copies. */
	public LaunchRow {
		params = List.copyOf(params);
	}

	// i14-agent: begin
	/** A row without a Java call site. */
	public LaunchRow(int launch, int event, long hostNs, long gpuStartNs, long gpuEndNs, long stream, int functionId,
			String kernel, Dim3 grid, Dim3 block, List<String> params, @Nullable LaunchVerdict verdict) {
		this(launch, event, hostNs, gpuStartNs, gpuEndNs, stream, functionId, kernel, grid, block, params, verdict,
				null);
	}
	// i14-agent: end

	/** @return GPU duration, 0 when not measured */
	public long gpuNs() {
		return gpuStartNs == 0 || gpuEndNs < gpuStartNs ? 0 : gpuEndNs - gpuStartNs;
	}

	/** The columns, as the {@code launches} command and the Launches view show them. */
	public static final TableDef<LaunchRow> TABLE = new TableDef<>("launches", List.of(
			Column.integer("launch", "", LaunchRow::launch),
			Column.integer("event", "", LaunchRow::event),
			Column.integer("host_ns", "ns", LaunchRow::hostNs),
			Column.integer("gpu_start_ns", "ns", LaunchRow::gpuStartNs),
			Column.integer("gpu_end_ns", "ns", LaunchRow::gpuEndNs),
			Column.integer("gpu_ns", "ns", LaunchRow::gpuNs),
			Column.address("stream", LaunchRow::stream),
			Column.integer("function", "", LaunchRow::functionId),
			Column.text("kernel", LaunchRow::kernel),
			Column.text("grid", r -> dim(r.grid())),
			Column.text("block", r -> dim(r.block())),
			Column.text("params", r -> String.join(" ", r.params())),
			Column.text("verdict", r -> r.verdict() == null ? null : r.verdict().label()),
			// i14-agent: begin (i14-incr: last, so that the columns before it keep their places in CSV)
			Column.text("java_site", LaunchRow::javaSite)));
			// i14-agent: end

	/** @return {@code x,y,z} */
	static String dim(Dim3 d) {
		return Integer.toUnsignedString(d.x()) + "," + Integer.toUnsignedString(d.y()) + ","
				+ Integer.toUnsignedString(d.z());
	}
}
