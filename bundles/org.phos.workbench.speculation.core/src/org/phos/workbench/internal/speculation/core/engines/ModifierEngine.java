package org.phos.workbench.internal.speculation.core.engines;

import java.util.List;

import org.phos.workbench.speculation.core.SpeculationEngine;

/**
 * An engine that changes what another engine speculates: a modifier such as {@code +blocks} or {@code +indirect}. Its
 * name is the base engine's plus the modifier's suffix; what it remembers of earlier launches, whether it reads stored
 * pointers and its notes are the base engine's unless the modifier says otherwise.
 */
abstract class ModifierEngine implements SpeculationEngine {
	/** The engine whose accesses this one changes. */
	protected final SpeculationEngine base;
	private final String name;

	/**
	 * @param base   the engine whose accesses this one changes
	 * @param suffix what the modifier adds to the base engine's name
	 */
	ModifierEngine(SpeculationEngine base, String suffix) {
		this.base = base;
		this.name = base.name() + suffix;
	}

	@Override
	public final String name() {
		return name;
	}

	@Override
	public Memory memory() {
		return base.memory();
	}

	@Override
	public boolean usesStoredPointers() {
		return base.usesStoredPointers();
	}

	@Override
	public List<String> notes() {
		return base.notes();
	}
}
