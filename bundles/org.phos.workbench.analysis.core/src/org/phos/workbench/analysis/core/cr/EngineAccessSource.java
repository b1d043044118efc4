package org.phos.workbench.analysis.core.cr;

import java.util.List;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.trace.LaunchAccessSource;
import org.phos.workbench.cr.core.trace.LaunchAccesses;
import org.phos.workbench.cr.core.trace.LiveBuffers;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.trace.core.Trace;

/**
 * A speculation engine's predictions as the launch sets of a simulation. The engine walks the trace once up front
 * (engines keep per-trace state and must see launches in order; a simulation replays the trace twice, with and
 * without C/R), and its accesses are kept per launch as address ranges. A launch the engine cannot speak for has no
 * sets ({@code null}), as with observed accesses. This is the bridge from speculation to C/R: the command line's
 * {@code simulate --sets engine:NAME} and any view that simulates use it.
 * <p>
 * The reads of a launch are the non-empty ranges the engine emitted with the read bit, in its order, the writes
 * those with the write bit (as {@link LaunchSpeculation#reads()} and {@link LaunchSpeculation#writes()}). They are
 * received through the engine's primitive sink and packed (i12-gc, {@link AccessSetTable}): a million launches cost
 * a few arrays, not a dozen long-lived objects each.
 */
public final class EngineAccessSource implements LaunchAccessSource {
	private final String name;
	private final AccessSetTable sets;

	/** Runs {@code engine} over the whole trace now (the cost of one speculation pass). */
	public EngineAccessSource(Trace trace, SpeculationEngine engine, @Nullable IProgressMonitor monitor) {
		this.name = "engine " + engine.name();
		AccessSetTable table = new AccessSetTable(trace.eventCount());
		TraceSpeculator.forEngines(trace, List.of(engine)).run(monitor, launch -> {
			table.begin();
			if (engine.speculate(launch, table.sink())) {
				table.end(launch.event());
			}
		});
		table.trim();
		this.sets = table;
	}

	/** How many distinct sets the engine's launches have (launches of one kernel with one argument list share). */
	public int distinctSets() {
		return sets.distinctSets();
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public @Nullable LaunchAccesses accesses(Trace trace, int eventIndex, LiveBuffers live) {
		return sets.accesses(eventIndex);
	}
}
