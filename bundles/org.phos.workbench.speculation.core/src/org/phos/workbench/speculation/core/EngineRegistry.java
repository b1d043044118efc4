package org.phos.workbench.speculation.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.phos.workbench.internal.speculation.core.engines.ArgScanEngine;
import org.phos.workbench.internal.speculation.core.engines.FallbackEngine;
import org.phos.workbench.internal.speculation.core.engines.IndirectEngine;
import org.phos.workbench.internal.speculation.core.engines.PhosEngine;
import org.phos.workbench.internal.speculation.core.engines.PtxFlowEngine;
import org.phos.workbench.trace.core.Trace;

/**
 * The speculation engines by name, and the small language that combines them:
 * <ul>
 * <li>a base engine: {@code phos}, {@code arg-scan}, {@code ptx-flow};</li>
 * <li>{@code A/B}: engine A where it covers the launch, else B ({@code ptx-flow/arg-scan});</li>
 * <li>{@code X+indirect}: X plus the allocations reachable through pointers copied into device memory;</li>
 * <li>{@code best}: {@code ptx-flow/arg-scan+indirect}.</li>
 * </ul>
 * Engines hold per-trace state, so {@link #create} makes a new one per trace.
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
	public static final String BEST_SPEC = PtxFlowEngine.NAME + "/" + ArgScanEngine.NAME + IndirectEngine.SUFFIX;

	private static final Map<String, EngineInfo> INFOS = new LinkedHashMap<>();
	private static final Map<String, Function<Trace, SpeculationEngine>> FACTORIES = new LinkedHashMap<>();

	static {
		register(PhosEngine.NAME, "PhoenixOS as released: demangled signature (const pointer read, other pointer "
				+ "read-write), first-launch 48-bit scan of parameters >= 8 bytes, cudaMalloc allocations only, "
				+ "whole allocations", PhosEngine::new);
		register(ArgScanEngine.NAME, "every 8-byte-aligned parameter word matched against all live allocations: "
				+ "read-write, whole allocation", ArgScanEngine::new);
		register(PtxFlowEngine.NAME, "PTX dataflow from each parameter to loads/stores/atomics: direction and byte "
				+ "range per pointer; covers only kernels with PTX", PtxFlowEngine::new);
	}

	private EngineRegistry() {
	}

	/**
	 * Adds a base engine (for plug-ins and tests).
	 *
	 * @param name its name: letters, digits and dashes
	 * @param description one line
	 * @param factory makes an instance for a trace
	 */
	public static synchronized void register(String name, String description,
			Function<Trace, SpeculationEngine> factory) {
		if (!name.matches("[a-z0-9][a-z0-9-]*") || name.equals(BEST)) {
			throw new IllegalArgumentException("engine name must be lower-case letters, digits and dashes: " + name);
		}
		INFOS.put(name, new EngineInfo(name, description));
		FACTORIES.put(name, factory);
	}

	/** @return the base engines, in registration order */
	public static synchronized List<EngineInfo> engines() {
		return List.copyOf(INFOS.values());
	}

	/**
	 * @param spec a name or combination, as {@link SpeculationEngine#name()} gives it
	 * @return whether {@link #create} knows every engine it names
	 */
	public static synchronized boolean canCreate(String spec) {
		String text = spec.trim();
		if (text.equals(BEST)) {
			return true;
		}
		if (text.endsWith(IndirectEngine.SUFFIX)) {
			text = text.substring(0, text.length() - IndirectEngine.SUFFIX.length());
		}
		for (String part : text.split("/", -1)) {
			if (!FACTORIES.containsKey(part)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Makes an engine for one trace from a name or combination ({@code ptx-flow/arg-scan+indirect}).
	 *
	 * @param spec the name
	 * @param trace the trace it will speculate
	 * @return a fresh engine
	 * @throws IllegalArgumentException naming the unknown part and the known engines
	 */
	public static synchronized SpeculationEngine create(String spec, Trace trace) {
		String text = spec.trim();
		if (text.equals(BEST)) {
			text = BEST_SPEC;
		}
		boolean indirect = text.endsWith(IndirectEngine.SUFFIX);
		if (indirect) {
			text = text.substring(0, text.length() - IndirectEngine.SUFFIX.length());
		}
		List<SpeculationEngine> chain = new ArrayList<>();
		for (String part : text.split("/", -1)) {
			Function<Trace, SpeculationEngine> factory = FACTORIES.get(part);
			if (factory == null) {
				throw new IllegalArgumentException("unknown engine '" + part + "' in '" + spec + "'; known: "
						+ String.join(", ", FACTORIES.keySet()) + ", combined as A/B (A, else B), X" + IndirectEngine.SUFFIX
						+ ", or " + BEST + " (" + BEST_SPEC + ")");
			}
			chain.add(factory.apply(trace));
		}
		SpeculationEngine engine = chain.size() == 1 ? chain.get(0) : new FallbackEngine(chain);
		return indirect ? new IndirectEngine(engine) : engine;
	}
}
