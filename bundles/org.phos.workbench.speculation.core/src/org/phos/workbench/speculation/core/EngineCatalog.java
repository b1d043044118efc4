package org.phos.workbench.speculation.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.phos.workbench.internal.speculation.core.engines.AllocBlockEngine;
import org.phos.workbench.internal.speculation.core.engines.ArgScanEngine;
import org.phos.workbench.internal.speculation.core.engines.BlockEngine;
import org.phos.workbench.internal.speculation.core.engines.CublasEngine; // i15-cublas
import org.phos.workbench.internal.speculation.core.engines.FallbackEngine;
import org.phos.workbench.internal.speculation.core.engines.IndirectEngine;
import org.phos.workbench.internal.speculation.core.engines.TensorMapEngine;
import org.phos.workbench.internal.speculation.core.engines.PhosEngine;
import org.phos.workbench.internal.speculation.core.engines.PtxFlowEngine;
import org.phos.workbench.trace.core.Trace;

/**
 * A catalog of speculation engines by name (an instance: a workbench or a command run holds one and passes it on;
 * {@link #standard()} has the built-in engines, {@link #copy()} gives one to extend for plug-ins and tests without
 * touching anyone else's), and the small language that combines them:
 * <ul>
 * <li>a base engine: {@code phos}, {@code arg-scan}, {@code ptx-flow};</li>
 * <li>{@code A/B}: engine A where it covers the launch, else B ({@code ptx-flow/arg-scan});</li>
 * <li>{@code X+indirect}: X plus the allocations reachable through pointers copied into device memory;</li>
 * <li>{@code X+tma}: X plus the exact byte ranges of the tensor maps (TMA descriptors) the launch takes by value
 * ({@code tma} alone speaks only for launches that take one);</li>
 * <li>{@code X+blocks}: X with whole-allocation accesses narrowed to the caching allocator's block the pointer
 * names, bounded by the launch's other pointers ({@code X+past-blocks}: and by those of earlier launches and
 * copies);</li>
 * <li>{@code X+cublas}: X with the accesses of cuBLAS's split-K kernels bounded to the extents their parameters give
 * (a library table: workspace and outputs of {@code cutlass::Kernel2} and {@code splitKreduce_kernel});</li>
 * <li>{@code X+alloc-blocks}: X with whole-allocation accesses narrowed to the block the caching allocator itself
 * reported live at the launch (a trace recorded with {@code PHOS_TORCH_ALLOC=1}); after {@code +blocks} it takes both
 * bounds ({@code best+alloc-blocks}); {@code X+alloc-blocks-strict}: and a pointer into the free space of one of
 * the allocator's segments names nothing;</li>
 * <li>{@code best}: {@code ptx-flow/arg-scan+indirect+blocks}.</li>
 * </ul>
 * Engines hold per-trace state, so {@link #create} makes a new one per trace.
 */
public final class EngineCatalog {

	/** The alias for the most accurate combination. */
	public static final String BEST = EngineRegistry.BEST;
	/** What {@link #BEST} stands for. */
	public static final String BEST_SPEC = EngineRegistry.BEST_SPEC;

	private final Map<String, EngineRegistry.EngineInfo> infos = new LinkedHashMap<>();
	private final Map<String, Function<Trace, SpeculationEngine>> factories = new LinkedHashMap<>();

	private static final EngineCatalog STANDARD = new EngineCatalog();

	/** The built-in engines. */
	public EngineCatalog() {
		register(PhosEngine.NAME, "PhoenixOS as released: demangled signature (const pointer read, other pointer "
				+ "read-write), first-launch 48-bit scan of parameters >= 8 bytes, cudaMalloc allocations only, "
				+ "whole allocations", PhosEngine::new);
		register(ArgScanEngine.NAME, "every 8-byte-aligned parameter word matched against all live allocations: "
				+ "read-write, whole allocation", ArgScanEngine::new);
		register(PtxFlowEngine.NAME, "PTX dataflow from each parameter to loads/stores/atomics: direction and byte "
				+ "range per pointer; covers only kernels with PTX", PtxFlowEngine::new);
		// i16-rec
		register(TensorMapEngine.NAME, "tensor maps (TMA descriptors) passed by value, matched by their 128 bytes "
				+ "against the trace's cuTensorMapEncode* calls: read-write, the exact byte extent of the tensor; "
				+ "covers only launches that take a known map", t -> new TensorMapEngine(t, null));
	}

	private EngineCatalog(EngineCatalog from) {
		synchronized (from) {
			infos.putAll(from.infos);
			factories.putAll(from.factories);
		}
	}

	/** @return the shared catalog of the built-in engines, which the static {@link EngineRegistry} delegates to */
	public static EngineCatalog standard() {
		return STANDARD;
	}

	/** @return a new catalog with the engines of this one, to register more in */
	public EngineCatalog copy() {
		return new EngineCatalog(this);
	}

	/**
	 * Adds a base engine (for plug-ins and tests).
	 *
	 * @param name its name: letters, digits and dashes
	 * @param description one line
	 * @param factory makes an instance for a trace
	 */
	public synchronized void register(String name, String description,
			Function<Trace, SpeculationEngine> factory) {
		if (!name.matches("[a-z0-9][a-z0-9-]*") || name.equals(BEST)) {
			throw new IllegalArgumentException("engine name must be lower-case letters, digits and dashes: " + name);
		}
		infos.put(name, new EngineRegistry.EngineInfo(name, description));
		factories.put(name, factory);
	}

	/** @return the base engines, in registration order */
	public synchronized List<EngineRegistry.EngineInfo> engines() {
		return List.copyOf(infos.values());
	}

	/**
	 * @param spec a name or combination, as {@link SpeculationEngine#name()} gives it
	 * @return whether {@link #create} knows every engine it names
	 */
	public synchronized boolean canCreate(String spec) {
		String text = spec.trim();
		if (text.equals(BEST)) {
			return true;
		}
		text = stripModifiers(text, new ArrayList<>());
		if (text.equals(BEST)) {
			return true;
		}
		for (String part : text.split("/", -1)) {
			if (!factories.containsKey(part)) {
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
	public synchronized SpeculationEngine create(String spec, Trace trace) {
		String text = spec.trim();
		if (text.equals(BEST)) {
			text = BEST_SPEC;
		}
		List<String> modifiers = new ArrayList<>();
		text = stripModifiers(text, modifiers);
		if (text.equals(BEST)) { // best+tma: the modifiers of BEST_SPEC come first
			List<String> inner = new ArrayList<>();
			text = stripModifiers(BEST_SPEC, inner);
			inner.addAll(modifiers);
			modifiers = inner;
		}
		modifiers = oneBlockModifier(modifiers);
		List<SpeculationEngine> chain = new ArrayList<>();
		for (String part : text.split("/", -1)) {
			Function<Trace, SpeculationEngine> factory = factories.get(part);
			if (factory == null) {
				throw new IllegalArgumentException("unknown engine '" + part + "' in '" + spec + "'; known: "
						+ String.join(", ", factories.keySet()) + ", combined as A/B (A, else B), X" + IndirectEngine.SUFFIX
						+ ", X" + BlockEngine.SUFFIX + ", X" + BlockEngine.PAST_SUFFIX + ", X" + CublasEngine.SUFFIX
						+ ", X" + AllocBlockEngine.SUFFIX + ", X" + AllocBlockEngine.STRICT_SUFFIX + ", or " + BEST + " ("
						+ BEST_SPEC + ")");
			}
			chain.add(factory.apply(trace));
		}
		SpeculationEngine engine = chain.size() == 1 ? chain.get(0) : new FallbackEngine(chain);
		for (String m : modifiers) {
			if (m.equals(CublasEngine.SUFFIX)) { // i15-cublas
				engine = new CublasEngine(engine, trace);
				continue;
			}
			if (m.equals(AllocBlockEngine.SUFFIX) || m.equals(AllocBlockEngine.STRICT_SUFFIX)) { // i15-alloc
				boolean strict = m.equals(AllocBlockEngine.STRICT_SUFFIX);
				engine = engine instanceof BlockEngine b && !b.usesPast() // after +blocks: both bounds
						? new AllocBlockEngine(b.base(), trace, true, strict)
						: new AllocBlockEngine(engine, trace, false, strict);
				continue;
			}
			if (m.equals(BlockEngine.SUFFIX) || m.equals(BlockEngine.PAST_SUFFIX)) { // i15-prec
				engine = new BlockEngine(engine, trace, m.equals(BlockEngine.PAST_SUFFIX));
				continue;
			}
			engine = m.equals(IndirectEngine.SUFFIX) ? new IndirectEngine(engine, trace) // i15-val: directions from the trace
					: new TensorMapEngine(trace, engine);
		}
		return engine;
	}

	/**
	 * Removes the trailing {@code +indirect} / {@code +tma} / {@code +blocks} / {@code +past-blocks} / {@code +cublas}
	 * modifiers;
	 * {@code into} gets them innermost first.
	 */
	private static String stripModifiers(String text, List<String> into) {
		String t = text;
		for (;;) {
			String m = t.endsWith(AllocBlockEngine.SUFFIX) ? AllocBlockEngine.SUFFIX // i15-alloc
					: t.endsWith(AllocBlockEngine.STRICT_SUFFIX) ? AllocBlockEngine.STRICT_SUFFIX
					: t.endsWith(IndirectEngine.SUFFIX) ? IndirectEngine.SUFFIX
					: t.endsWith(TensorMapEngine.SUFFIX) ? TensorMapEngine.SUFFIX
					: t.endsWith(BlockEngine.SUFFIX) ? BlockEngine.SUFFIX // i15-prec
					: t.endsWith(BlockEngine.PAST_SUFFIX) ? BlockEngine.PAST_SUFFIX
					: t.endsWith(CublasEngine.SUFFIX) ? CublasEngine.SUFFIX : null; // i15-cublas
			if (m == null) {
				return t;
			}
			into.add(0, m);
			t = t.substring(0, t.length() - m.length());
		}
	}

	// i15-prec: begin
	/**
	 * At most one block modifier, the outermost, in place of the first: {@code best+past-blocks} is {@code best}
	 * with {@code +past-blocks} instead of its {@code +blocks}, {@code best+blocks} is {@code best}.
	 */
	private static List<String> oneBlockModifier(List<String> modifiers) {
		String last = null;
		for (String m : modifiers) {
			if (m.equals(BlockEngine.SUFFIX) || m.equals(BlockEngine.PAST_SUFFIX)) {
				last = m;
			}
		}
		if (last == null) {
			return modifiers;
		}
		List<String> out = new ArrayList<>();
		boolean placed = false;
		for (String m : modifiers) {
			boolean block = m.equals(BlockEngine.SUFFIX) || m.equals(BlockEngine.PAST_SUFFIX);
			if (!block) {
				out.add(m);
			} else if (!placed) {
				out.add(last);
				placed = true;
			}
		}
		return out;
	}
	// i15-prec: end
}
