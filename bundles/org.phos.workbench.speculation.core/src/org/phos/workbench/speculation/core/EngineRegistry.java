package org.phos.workbench.speculation.core;

import java.util.List;
import java.util.function.Function;

import org.phos.workbench.internal.speculation.core.engines.ArgScanEngine;
import org.phos.workbench.internal.speculation.core.engines.BlockEngine;
import org.phos.workbench.internal.speculation.core.engines.IndirectEngine;
import org.phos.workbench.internal.speculation.core.engines.PtxFlowEngine;
import org.phos.workbench.trace.core.Trace;

/**
 * The speculation engines by name, and the small language that combines them:
 * <ul>
 * <li>a base engine: {@code phos}, {@code arg-scan}, {@code ptx-flow};</li>
 * <li>{@code A/B}: engine A where it covers the launch, else B ({@code ptx-flow/arg-scan});</li>
 * <li>{@code X+indirect}: X plus the allocations reachable through pointers copied into device memory;</li>
 * <li>{@code X+blocks}, {@code X+past-blocks}: X narrowed to caching-allocator blocks (see {@link EngineCatalog});</li>
 * <li>{@code X+cublas}: X with cuBLAS's split-K kernels bounded by their parameters (see {@link EngineCatalog});</li>
 * <li>{@code best}: {@code ptx-flow/arg-scan+indirect}.</li>
 * </ul>
 * Engines hold per-trace state, so {@link #create} makes a new one per trace. The static entry points delegate to
 * {@link EngineCatalog#standard()}; new code takes an {@link EngineCatalog} instance.
 */
public final class EngineRegistry {

	/**
	 * A registered base engine.
	 *
	 * @param name what to type
	 * @param description one line
	 */
	public record EngineInfo(String name, String description) {
	}

	/** The alias for the most accurate combination. */
	public static final String BEST = "best";
	/** What {@link #BEST} stands for. */
	public static final String BEST_SPEC = PtxFlowEngine.NAME + "/" + ArgScanEngine.NAME + IndirectEngine.SUFFIX
			+ BlockEngine.SUFFIX; // i15-prec: +blocks (0 unsafe launches on every sample, docs/accuracy.md)

	private EngineRegistry() {
	}

	/**
	 * Adds a base engine to the {@link EngineCatalog#standard() standard catalog} (for plug-ins and tests; new code
	 * registers in a catalog of its own, {@link EngineCatalog#copy()}).
	 *
	 * @param name its name: letters, digits and dashes
	 * @param description one line
	 * @param factory makes an instance for a trace
	 */
	public static void register(String name, String description, Function<Trace, SpeculationEngine> factory) {
		EngineCatalog.standard().register(name, description, factory);
	}

	/** @return the base engines of the standard catalog, in registration order */
	public static List<EngineInfo> engines() {
		return EngineCatalog.standard().engines();
	}

	/**
	 * @param spec a name or combination, as {@link SpeculationEngine#name()} gives it
	 * @return whether the standard catalog knows every engine it names
	 */
	public static boolean canCreate(String spec) {
		return EngineCatalog.standard().canCreate(spec);
	}

	/**
	 * Makes an engine from the standard catalog ({@link EngineCatalog#create}).
	 *
	 * @param spec the name
	 * @param trace the trace it will speculate
	 * @return a fresh engine
	 * @throws IllegalArgumentException naming the unknown part and the known engines
	 */
	public static SpeculationEngine create(String spec, Trace trace) {
		return EngineCatalog.standard().create(spec, trace);
	}
}
