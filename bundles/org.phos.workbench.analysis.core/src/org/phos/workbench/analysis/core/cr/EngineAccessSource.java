package org.phos.workbench.analysis.core.cr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.trace.LaunchAccessSource;
import org.phos.workbench.cr.core.trace.LaunchAccesses;
import org.phos.workbench.cr.core.trace.LiveBuffers;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.Trace;

/**
 * A speculation engine's predictions as the launch sets of a simulation. The engine walks the trace once up front
 * (engines keep per-trace state and must see launches in order; a simulation replays the trace twice, with and
 * without C/R), and its accesses are kept per launch as address ranges. A launch the engine cannot speak for has no
 * sets ({@code null}), as with observed accesses. This is the bridge from speculation to C/R: the command line's
 * {@code simulate --sets engine:NAME} and any view that simulates use it.
 */
public final class EngineAccessSource implements LaunchAccessSource {
	private final String name;
	private final Map<Integer, LaunchAccesses> byLaunch = new HashMap<>();

	/** Runs {@code engine} over the whole trace now (the cost of one speculation pass). */
	public EngineAccessSource(Trace trace, SpeculationEngine engine, IProgressMonitor monitor) {
		this.name = "engine " + engine.name();
		TraceSpeculator.forEngines(trace, List.of(engine)).run(monitor, launch -> {
			LaunchSpeculation s = LaunchSpeculation.collect(engine, launch);
			if (s.covered()) {
				byLaunch.put(launch.event(), new LaunchAccesses(ranges(s.reads()), ranges(s.writes())));
			}
		});
	}

	private static List<AddressRange> ranges(List<SpeculatedAccess> accesses) {
		List<AddressRange> out = new ArrayList<>(accesses.size());
		for (SpeculatedAccess a : accesses) {
			if (a.end() > a.begin()) {
				out.add(new AddressRange(a.begin(), a.end()));
			}
		}
		return out;
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public @Nullable LaunchAccesses accesses(Trace trace, int eventIndex, LiveBuffers live) {
		return byLaunch.get(eventIndex);
	}
}
