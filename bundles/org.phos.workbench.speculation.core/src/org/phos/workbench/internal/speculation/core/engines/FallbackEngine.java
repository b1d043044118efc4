package org.phos.workbench.internal.speculation.core.engines;

import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;
import org.phos.workbench.speculation.core.SpeculationEngine;

/**
 * Tries engines in order and takes the first that covers the launch ({@code ptx-flow/arg-scan}: the PTX analysis
 * where the kernel has PTX, scanning the arguments elsewhere). Whether an engine covers a launch depends on the
 * function only, so each engine still sees every launch of the functions it covers, in order.
 */
public final class FallbackEngine implements SpeculationEngine {

	private final String name;
	private final SpeculationEngine[] engines;

	/** @param engines the engines, most precise first */
	public FallbackEngine(List<SpeculationEngine> engines) {
		this.engines = engines.toArray(SpeculationEngine[]::new);
		this.name = String.join("/", engines.stream().map(SpeculationEngine::name).toList());
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public boolean speculate(LaunchContext launch, AccessSink sink) {
		for (SpeculationEngine e : engines) {
			if (e.speculate(launch, sink)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public Memory memory() {
		Memory most = Memory.NONE;
		for (SpeculationEngine e : engines) {
			most = e.memory().compareTo(most) > 0 ? e.memory() : most;
		}
		return most;
	}

	@Override
	public boolean usesStoredPointers() {
		for (SpeculationEngine e : engines) {
			if (e.usesStoredPointers()) {
				return true;
			}
		}
		return false;
	}

	@Override
	public List<String> notes() {
		List<String> all = new ArrayList<>();
		for (SpeculationEngine e : engines) {
			for (String n : e.notes()) {
				all.add(e.name() + ": " + n);
			}
		}
		return all;
	}
}
