package org.phos.workbench.analysis.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.WeakHashMap;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.SpeculationKeyframes;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.ByteRanges;
import org.phos.workbench.speculation.core.validate.EngineValidation;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.TruthReliability;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservedIndex;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.GpuTimeEstimate;
import org.phos.workbench.trace.core.replay.ReplayEngine;

/**
 * The analysis layer's entry point: answers typed queries about traces and caches the answers per trace. One session
 * per workbench (or per command run), passed to whoever asks, never a static singleton; engines come from the
 * session's {@link EngineCatalog}.
 * <p>
 * Every query is answered blocking, with an {@link IProgressMonitor} for progress and cancellation (an
 * {@link OperationCanceledException} when cancelled): the command line calls it directly, a view inside a
 * {@code Job}. Thread-safe: queries may run concurrently; a cache entry is computed at most once per key at a time
 * per trace. The cache is keyed weakly, but an answer holds its trace (replay state, query records), so a trace stays
 * until {@link #forget} drops its answers (when its editor closes); the generations of a live trace are retired by
 * {@link #generation} (i14-incr).
 * <p>
 * Usage: {@code Table<LaunchRow> page = session.launches(LaunchQuery.page(trace, 0, 100), monitor);}
 */
public final class AnalysisSession {

	private final EngineCatalog catalog;
	private final Map<Trace, TraceCache> caches = Collections.synchronizedMap(new WeakHashMap<>());

	/** @param catalog where engines named in queries come from */
	public AnalysisSession(EngineCatalog catalog) {
		this.catalog = catalog;
	}

	/** @return a session over the standard engine catalog */
	public static AnalysisSession standard() {
		return new AnalysisSession(EngineCatalog.standard());
	}

	/** @return the engine catalog */
	public EngineCatalog catalog() {
		return catalog;
	}

	/** Drops every cached answer about {@code trace}. */
	public void forget(Trace trace) {
		caches.remove(trace);
	}

	// i14-agent: begin
	/**
	 * Gives the launches of {@code trace} the Java call sites the JCuda agent recorded (the {@code java_site} column
	 * of {@link LaunchRow#TABLE}); null takes them away. Callers read them with
	 * {@code JavaSites.nextTo(trace, traceFile)} when they open a trace.
	 */
	public void javaSites(Trace trace, org.phos.workbench.trace.core.javasites.@Nullable JavaSites sites) {
		cache(trace).javaSites = sites;
	}
	// i14-agent: end

	// i14-incr: begin
	/** Generations of each live trace the session was told of ({@link #generation}), oldest first. */
	private final Map<Object, java.util.ArrayDeque<java.lang.ref.WeakReference<Trace>>> lineages = new WeakHashMap<>();
	/** Generations of a live trace whose answers are kept: the newest and the one a view may still be painting. */
	public static final int GENERATIONS_KEPT = 2;

	/**
	 * Says that {@code trace} is the newest generation of the live trace {@code lineage} (an immutable snapshot of a
	 * trace still being recorded) and drops the answers about its generations older than the
	 * {@value #GENERATIONS_KEPT} newest. A cached answer holds its trace (the replay state, the query records), so the
	 * session's weak keys alone would keep every generation a view ever asked about: this lets old generations be
	 * collected while the live trace goes on. When the live trace ends, {@link #endLineage} drops the rest.
	 *
	 * @param lineage the live trace (its editor, say); held weakly
	 * @param trace its newest generation
	 * @param speculation the live trace's incremental speculation, consulted by {@link #accesses} before speculating
	 *        the generation itself; null for none
	 * @param numberOf the number in the stream of each launch of {@code trace}
	 */
	public void generation(Object lineage, Trace trace, @Nullable LiveSpeculation speculation,
			java.util.function.IntToLongFunction numberOf) {
		List<Trace> older = new ArrayList<>();
		synchronized (lineages) {
			var deque = lineages.computeIfAbsent(lineage, k -> new java.util.ArrayDeque<>());
			deque.addLast(new java.lang.ref.WeakReference<>(trace));
			while (deque.size() > GENERATIONS_KEPT) {
				Trace old = deque.removeFirst().get();
				if (old != null) {
					older.add(old);
				}
			}
		}
		for (Trace old : older) {
			forget(old);
		}
		live.put(trace, new LiveInfo(speculation, numberOf));
	}

	/**
	 * What {@link #generation} said of a trace, in its own weak map (it holds nothing of the trace, so the trace stays
	 * collectable; and the UI thread asking for a launch number never waits on a cache being built).
	 */
	private record LiveInfo(@Nullable LiveSpeculation speculation, java.util.function.IntToLongFunction numberOf) {
	}

	private final Map<Trace, LiveInfo> live = Collections.synchronizedMap(new WeakHashMap<>());

	/** Drops the answers about every generation of {@code lineage} (the live trace was closed). */
	public void endLineage(Object lineage) {
		java.util.ArrayDeque<java.lang.ref.WeakReference<Trace>> deque;
		synchronized (lineages) {
			deque = lineages.remove(lineage);
		}
		if (deque != null) {
			for (var ref : deque) {
				Trace t = ref.get();
				if (t != null) {
					forget(t);
				}
			}
		}
	}

	/** @return the live speculation {@link #generation} gave {@code trace}, or null */
	public @Nullable LiveSpeculation liveSpeculation(Trace trace) {
		LiveInfo i = live.get(trace);
		return i == null ? null : i.speculation();
	}

	/** @return how many traces the session holds answers about (tests and the live editor's status) */
	public int cachedTraces() {
		return caches.size();
	}

	/**
	 * The number in its stream of launch {@code launch} of {@code trace}: for a generation of a live trace
	 * ({@link #generation}) as the saved stream numbers it, else the launch index itself.
	 */
	public long launchNumber(Trace trace, int launch) {
		LiveInfo i = live.get(trace);
		return i == null ? launch : i.numberOf().applyAsLong(launch);
	}
	// i14-incr: end

	private TraceCache cache(Trace trace) {
		synchronized (caches) {
			return caches.computeIfAbsent(trace, TraceCache::new);
		}
	}

	private static IProgressMonitor orNull(@Nullable IProgressMonitor monitor) {
		return monitor != null ? monitor : new NullProgressMonitor();
	}

	// ---------------------------------------------------------------- launches

	/**
	 * Lists a page of launches.
	 *
	 * @param query the question
	 * @param monitor progress and cancellation, may be null
	 * @return the page: {@link Table#total()} counts every matching launch
	 * @throws IllegalArgumentException for an unknown engine
	 */
	public Table<LaunchRow> launches(LaunchQuery query, @Nullable IProgressMonitor monitor) {
		Trace trace = query.trace();
		TraceCache cache = cache(trace);
		@Nullable ValidationAnswer verdicts = query.verdictEngine() == null ? null
				: validate(new ValidationQuery(trace, List.of(query.verdictEngine()), query.tool()), monitor);
		// every launch in launch order (the view's first query) needs no order array: 40 MB at 10M launches
		boolean identity = query.filter().equals(LaunchQuery.Filter.ALL)
				&& query.sort().equals(LaunchQuery.Sort.LAUNCH_ORDER);
		int[] order = identity ? null : cache.order(query, verdicts, orNull(monitor));
		int total = order == null ? trace.launchCount() : order.length;
		int from = (int) Math.min(total, query.offset());
		int to = (int) Math.min(total, (long) from + query.limit());
		List<LaunchRow> rows = new ArrayList<>(to - from);
		int[] page = order == null ? java.util.stream.IntStream.range(from, to).toArray()
				: java.util.Arrays.copyOfRange(order, from, to);
		// decode parameters against the live allocations: one replay, visited in event order (it seeks from its
		// checkpoints when it must go back)
		int[] byEvent = page.clone();
		java.util.Arrays.sort(byEvent);
		Map<Integer, List<String>> params = new HashMap<>();
		synchronized (cache.replay) {
			for (int launch : byEvent) {
				int event = trace.launchEvent(launch);
				cache.replay.seek(event);
				params.put(launch, decodeParams(trace, event, cache.replay));
			}
		}
		for (int launch : page) {
			int e = trace.launchEvent(launch);
			rows.add(new LaunchRow(launch, e, trace.hostNs(e), trace.gpuStartNs(e), trace.gpuEndNs(e), trace.stream(e),
					trace.functionId(e), cache.kernelName(trace.functionId(e)), trace.grid(e), trace.block(e),
					params.get(launch), verdicts == null ? null : verdicts.verdict(0, launch),
					cache.javaSite(e))); // i14-agent
		}
		return new Table<>(LaunchRow.TABLE, rows, from, total);
	}

	/**
	 * The parameters of one launch: by the function's parameter layout when known, else 8-byte words; a word that
	 * points into a live allocation is written {@code alloc@EVENT+0xOFF}, other words in hexadecimal, 4-byte and
	 * smaller parameters in decimal.
	 */
	static List<String> decodeParams(Trace trace, int event, ReplayEngine replay) {
		FunctionInfo f = trace.functionById(trace.functionId(event));
		List<ParamInfo> layout = f != null && !f.params().isEmpty() ? f.params() : null;
		List<String> out = new ArrayList<>();
		int length = trace.paramLength(event);
		if (layout == null) {
			for (int off = 0; off + 8 <= length; off += 8) {
				out.add(word(trace.paramLong(event, off), replay));
			}
			return out;
		}
		for (ParamInfo p : layout) {
			long v = trace.paramLong(event, p.offset());
			switch (p.size()) {
			case 8 -> out.add(word(v, replay));
			case 4 -> out.add(Integer.toString((int) v));
			case 2 -> out.add(Short.toString((short) v));
			case 1 -> out.add(Byte.toString((byte) v));
			default -> out.add("[" + p.size() + " bytes]");
			}
		}
		return out;
	}

	private static String word(long v, ReplayEngine replay) {
		long[] range = new long[2];
		long id = replay.find(v, range);
		if (id >= 0) {
			return "alloc@" + id + "+0x" + Long.toHexString(v - range[0]);
		}
		return "0x" + Long.toHexString(v);
	}

	// ---------------------------------------------------------------- accesses

	/**
	 * Compares, for one launch, what each engine speculates with what each tool observed, per allocation.
	 * <p>
	 * The engines are brought to the launch through the trace's {@link SpeculationKeyframes} ({@link #keyframes},
	 * built on the first such query): the keyframe before the launch is restored and engines that remember first
	 * launches are shown those they remember, so the answer equals the one a walk of the whole trace gives for that
	 * launch, at a cost that does not grow with the launch's position. Answers are cached per query.
	 *
	 * @param query the question
	 * @param monitor progress and cancellation, may be null
	 * @return one row per allocation either side names, by base address
	 * @throws IllegalArgumentException for an unknown engine
	 */
	public AccessAnswer accesses(AccessQuery query, @Nullable IProgressMonitor monitor) {
		TraceCache cache = cache(query.trace());
		AccessAnswer cached = cache.accesses.get(query);
		if (cached != null) {
			return cached;
		}
		AccessAnswer answer = computeAccesses(query, monitor);
		cache.accesses.put(query, answer);
		return answer;
	}

	private AccessAnswer computeAccesses(AccessQuery query, @Nullable IProgressMonitor monitor) {
		Trace trace = query.trace();
		int event = trace.launchEvent(query.launch());
		List<SpeculationEngine> engines = new ArrayList<>();
		for (String name : query.engines()) {
			engines.add(catalog.create(name, trace));
		}
		List<String> tools = query.tools().isEmpty() ? SpeculationValidator.tools(trace) : query.tools();
		// truth, per tool and united, by allocation base
		List<Map<Long, ByteRanges[]>> perTool = new ArrayList<>();
		Map<Long, ByteRanges[]> united = new TreeMap<>(Long::compareUnsigned);
		TraceCache cache = cache(trace);
		// i14-incr: begin (a live generation: the engines' side as speculated when the launch arrived)
		List<LaunchSpeculation> stored = null;
		LiveInfo info = live.get(trace);
		LiveSpeculation speculation = info == null ? null : info.speculation();
		if (speculation != null && speculation.engines().containsAll(query.engines())) {
			List<LaunchSpeculation> all = speculation.speculation(info.numberOf().applyAsLong(query.launch()), event);
			if (all != null) {
				stored = new ArrayList<>();
				for (String name : query.engines()) {
					stored.add(all.get(speculation.engines().indexOf(name)));
				}
			}
		}
		// i14-incr: end
		List<ObservedAccess> records = new ArrayList<>();
		for (ObservedAccess a : cache.observed(null).records(event)) {
			if (tools.contains(a.tool())) {
				records.add(a);
			}
		}
		for (String tool : tools) {
			Map<Long, ByteRanges[]> m = new HashMap<>();
			for (ObservedAccess a : records) {
				if (a.tool().equals(tool) && a.allocation() != 0) {
					add(m, a);
					add(united, a);
				}
			}
			perTool.add(m);
		}
		String unreliable = null;
		if (!records.isEmpty()) {
			TruthReliability reliability = cache.reliability(tools.size() == 1 ? tools.get(0) : null);
			TruthReliability.Reason reason = reliability.unreliable().get(event);
			if (reason != null) {
				unreliable = reason == TruthReliability.Reason.INPUTS_UNKNOWN
						? "the observer read bytes it did not have (inputs unknown)"
						: "sanitizer records of a kernel node of a multi-node graph launch";
			}
		}
		boolean observed = !records.isEmpty();
		List<Map<Long, ByteRanges[]>> speculated = new ArrayList<>();
		List<Boolean> covered = new ArrayList<>();
		Map<Long, Object[]> allocations = new TreeMap<>(Long::compareUnsigned); // base -> {id, size, kind}
		// i14-incr: begin
		if (stored != null) {
			synchronized (cache.replay) {
				cache.replay.seek(event);
				for (LaunchSpeculation ls : stored) {
					Map<Long, ByteRanges[]> m = new HashMap<>();
					for (org.phos.workbench.speculation.core.SpeculatedAccess a : ls.accesses()) {
						ByteRanges[] r = m.computeIfAbsent(a.allocationBase(),
								k -> new ByteRanges[] { new ByteRanges(), new ByteRanges() });
						if (a.read()) {
							r[0].add(a.begin(), a.end());
						}
						if (a.written()) {
							r[1].add(a.begin(), a.end());
						}
					}
					covered.add(ls.covered());
					speculated.add(m);
					for (long base : m.keySet()) {
						allocations.computeIfAbsent(base, b -> describe(trace, cache.replay, b));
					}
				}
				for (long base : united.keySet()) {
					allocations.computeIfAbsent(base, b -> describe(trace, cache.replay, b));
				}
			}
		} else {
		// i14-incr: end
		SpeculationKeyframes keyframes = keyframes(trace, monitor);
		TraceSpeculator.forEngines(trace, engines, keyframes).run(monitor, query.launch(), query.launch() + 1,
				launch -> {
			for (SpeculationEngine engine : engines) {
				Map<Long, ByteRanges[]> m = new HashMap<>();
				covered.add(engine.speculate(launch, (id, base, begin, end, mode, param, offset) -> {
					ByteRanges[] r = m.computeIfAbsent(base, k -> new ByteRanges[] { new ByteRanges(), new ByteRanges() });
					if ((mode & org.phos.workbench.speculation.core.SpeculatedAccess.READ) != 0) {
						r[0].add(begin, end);
					}
					if ((mode & org.phos.workbench.speculation.core.SpeculatedAccess.WRITE) != 0) {
						r[1].add(begin, end);
					}
				}));
				speculated.add(m);
				for (long base : m.keySet()) {
					allocations.computeIfAbsent(base, b -> describe(launch, b));
				}
			}
			for (long base : united.keySet()) {
				allocations.computeIfAbsent(base, b -> describe(launch, b));
			}
		});
		} // i14-incr
		ByteRanges empty = new ByteRanges();
		List<AccessRow> rows = new ArrayList<>();
		for (Map.Entry<Long, Object[]> a : allocations.entrySet()) {
			long base = a.getKey();
			List<AccessRow.EngineSide> sides = new ArrayList<>();
			ByteRanges[] truth = united.get(base);
			for (Map<Long, ByteRanges[]> m : speculated) {
				ByteRanges[] s = m.get(base);
				ByteRanges sr = s == null ? empty : s[0];
				ByteRanges sw = s == null ? empty : s[1];
				LaunchVerdict v = !observed ? LaunchVerdict.NOT_OBSERVED
						: s == null && truth == null ? LaunchVerdict.NOT_NAMED
						: unreliable != null ? LaunchVerdict.UNRELIABLE
								: LaunchVerdict.of(SpeculationValidator.verdict(sr, sw, truth == null ? empty : truth[0],
										truth == null ? empty : truth[1]));
				sides.add(new AccessRow.EngineSide(sr.ranges(), sw.ranges(), v));
			}
			List<AccessRow.ToolSide> toolSides = new ArrayList<>();
			for (Map<Long, ByteRanges[]> m : perTool) {
				ByteRanges[] t = m.get(base);
				toolSides.add(new AccessRow.ToolSide(t == null ? List.of() : t[0].ranges(),
						t == null ? List.of() : t[1].ranges()));
			}
			Object[] d = a.getValue();
			rows.add(new AccessRow((Long) d[0], base, (Long) d[1], (AllocKind) d[2], sides, toolSides));
		}
		return new AccessAnswer(query, tools, Table.of(AccessRow.table(query.engines(), tools), rows), unreliable,
				covered);
	}

	private static Object[] describe(org.phos.workbench.speculation.core.LaunchContext launch, long base) {
		long id = launch.findAllocation(base);
		if (id < 0) {
			return new Object[] { -1L, 0L, null };
		}
		return new Object[] { id, launch.allocationSize(id), launch.allocationKind(id) };
	}

	// i14-incr: begin
	/** {@link #describe(org.phos.workbench.speculation.core.LaunchContext, long)} from a replay at the launch. */
	private static Object[] describe(Trace trace, ReplayEngine replay, long base) {
		long id = replay.find(base);
		if (id < 0) {
			return new Object[] { -1L, 0L, null };
		}
		return new Object[] { id, trace.size((int) id), trace.allocKind((int) id) };
	}
	// i14-incr: end

	private static void add(Map<Long, ByteRanges[]> m, ObservedAccess a) {
		ByteRanges[] r = m.computeIfAbsent(a.allocation(), k -> new ByteRanges[] { new ByteRanges(), new ByteRanges() });
		for (AddressRange x : a.read()) {
			r[0].add(x.begin(), x.end());
		}
		for (AddressRange x : a.written()) {
			r[1].add(x.begin(), x.end());
		}
	}

	/**
	 * The trace's keyframes of the replay state ({@link SpeculationKeyframes}): built once per trace and session by
	 * one walk of the trace (about a second per 10M launches), then kept. {@link #accesses} builds them when it
	 * first needs them; a view calls this in a background {@code Job} when a trace opens so that its first Accesses
	 * query does not wait for them.
	 *
	 * @param trace the trace
	 * @param monitor progress and cancellation, may be null
	 * @return the keyframes
	 */
	public SpeculationKeyframes keyframes(Trace trace, @Nullable IProgressMonitor monitor) {
		TraceCache cache = cache(trace);
		synchronized (cache.keyframesLock) {
			if (cache.keyframes == null) {
				cache.keyframes = SpeculationKeyframes.build(trace, monitor);
			}
			return cache.keyframes;
		}
	}

	// ---------------------------------------------------------------- validation, kernels

	/**
	 * Validates engines over the whole trace, as the {@code validate} command does, and keeps each launch's verdict.
	 * Cached per query.
	 *
	 * @param query the question
	 * @param monitor progress and cancellation, may be null
	 * @return the report and the per-launch verdicts
	 */
	public ValidationAnswer validate(ValidationQuery query, @Nullable IProgressMonitor monitor) {
		TraceCache cache = cache(query.trace());
		synchronized (cache.validations) {
			ValidationAnswer cached = cache.validations.get(query);
			if (cached != null) {
				return cached;
			}
		}
		Trace trace = query.trace();
		List<SpeculationEngine> engines = new ArrayList<>();
		for (String name : query.engines()) {
			engines.add(catalog.create(name, trace));
		}
		int launches = trace.launchCount();
		byte[][] verdicts = new byte[engines.size()][launches];
		for (byte[] v : verdicts) {
			java.util.Arrays.fill(v, (byte) LaunchVerdict.NOT_OBSERVED.ordinal());
		}
		Map<String, Integer> index = new HashMap<>();
		for (int i = 0; i < engines.size(); i++) {
			index.putIfAbsent(engines.get(i).name(), i);
		}
		ValidationReport report = SpeculationValidator.validate(trace, engines, query.tool(), monitor, (engine, v) -> {
			Integer e = index.get(engine);
			if (e != null) {
				int launch = trace.launchIndex(v.launchEvent());
				byte now = verdicts[e][launch];
				byte next = (byte) v.verdict().ordinal();
				verdicts[e][launch] = (byte) Math.min(now, next); // unsafe first: the worst verdict wins
			}
		});
		for (int launchEvent : report.reliability().unreliable().keySet()) {
			int launch = trace.launchIndex(launchEvent);
			if (launch >= 0) {
				for (byte[] v : verdicts) {
					v[launch] = (byte) LaunchVerdict.UNRELIABLE.ordinal();
				}
			}
		}
		ValidationAnswer answer = new ValidationAnswer(query, report, verdicts);
		synchronized (cache.validations) {
			cache.validations.put(query, answer);
		}
		return answer;
	}

	/**
	 * One row per launched kernel.
	 *
	 * @param query the question
	 * @param monitor progress and cancellation, may be null
	 * @return the kernels, by function id
	 */
	public Table<KernelRow> kernels(KernelQuery query, @Nullable IProgressMonitor monitor) {
		Trace trace = query.trace();
		TraceCache cache = cache(trace);
		List<EngineValidation> validation = query.engines().isEmpty() ? List.of()
				: validate(new ValidationQuery(trace, query.engines(), query.tool()), monitor).report().engines();
		TreeMap<Integer, long[]> perFunction = new TreeMap<>();
		for (int l = 0; l < trace.launchCount(); l++) {
			int e = trace.launchEvent(l);
			long[] t = perFunction.computeIfAbsent(trace.functionId(e), k -> new long[2]);
			t[0]++;
			long start = trace.gpuStartNs(e);
			long end = trace.gpuEndNs(e);
			if (start != 0 && end >= start) {
				t[1] += end - start;
			}
		}
		if (trace.header().timingSampling().sampled()) {
			// i15-cost: sampled GPU timing: the kernel's GPU time is estimated over all its launches
			GpuTimeEstimate estimate = GpuTimeEstimate.of(trace);
			perFunction.forEach((id, t) -> t[1] = estimate.kernelNs(id));
		}
		List<KernelRow> rows = new ArrayList<>();
		for (Map.Entry<Integer, long[]> f : perFunction.entrySet()) {
			List<KernelRow.EngineFigures> figures = new ArrayList<>();
			for (EngineValidation v : validation) {
				Accuracy a = v.kernels().get(f.getKey());
				figures.add(a == null ? new KernelRow.EngineFigures(0, Double.NaN, Double.NaN, Double.NaN, 0)
						: new KernelRow.EngineFigures(a.launches(), a.bytePrecision(), a.readRecall(), a.writeRecall(),
								a.unsafeLaunches(), a.directions().directionAccuracy())); // i15-val: direction
			}
			rows.add(new KernelRow(f.getKey(), cache.kernelName(f.getKey()), f.getValue()[0], f.getValue()[1], figures));
		}
		return Table.of(KernelRow.table(query.engines()), rows);
	}

	// ---------------------------------------------------------------- buffers

	/**
	 * Every allocation of the trace, in allocation order.
	 *
	 * @param query the question
	 * @param monitor progress and cancellation, may be null
	 * @return the allocations
	 */
	public Table<BufferRow> buffers(BufferQuery query, @Nullable IProgressMonitor monitor) {
		Trace trace = query.trace();
		IProgressMonitor progress = orNull(monitor);
		progress.beginTask("Listing allocations", Math.max(1, trace.eventCount() >> 16));
		// allocation ids by base, in allocation order, with the free of each
		Map<Long, List<int[]>> byBase = new HashMap<>(); // {allocEvent, freeEvent}
		Map<Long, int[]> live = new HashMap<>();
		List<int[]> all = new ArrayList<>();
		for (int i = 0; i < trace.eventCount(); i++) {
			if ((i & 0xffff) == 0xffff) {
				if (progress.isCanceled()) {
					throw new OperationCanceledException();
				}
				progress.worked(1);
			}
			EventKind kind = trace.kind(i);
			if (kind == EventKind.ALLOC) {
				int[] a = { i, -1 };
				all.add(a);
				byBase.computeIfAbsent(trace.address(i), k -> new ArrayList<>()).add(a);
				live.put(trace.address(i), a);
			} else if (kind == EventKind.FREE) {
				int[] a = live.remove(trace.address(i));
				if (a != null) {
					a[1] = i;
				}
			}
		}
		progress.done();
		Map<Integer, long[]> touched = new HashMap<>(); // alloc event -> {read, written, touched, lastLaunch}
		for (ObservedAccess o : trace.observedAccesses()) {
			if (query.tool() != null && !query.tool().equals(o.tool())) {
				continue;
			}
			List<int[]> candidates = byBase.get(o.allocation());
			if (candidates == null) {
				continue;
			}
			int[] hit = null;
			for (int[] a : candidates) {
				if (a[0] < o.launchEvent() && (a[1] < 0 || a[1] > o.launchEvent())) {
					hit = a;
				}
			}
			if (hit == null) {
				continue;
			}
			// records of one launch may come from several tools: count the launch once per direction
			long[] t = touched.computeIfAbsent(hit[0], k -> new long[] { 0, 0, 0, -1, 0 });
			boolean r = !o.read().isEmpty() || o.readCount() > 0;
			boolean w = !o.written().isEmpty() || o.writeCount() > 0;
			if (t[3] != o.launchEvent()) {
				t[3] = o.launchEvent();
				t[4] = 0;
				t[2]++;
			}
			if (r && (t[4] & 1) == 0) {
				t[0]++;
				t[4] |= 1;
			}
			if (w && (t[4] & 2) == 0) {
				t[1]++;
				t[4] |= 2;
			}
		}
		List<BufferRow> rows = new ArrayList<>(all.size());
		for (int[] a : all) {
			long[] t = touched.getOrDefault(a[0], new long[5]);
			rows.add(new BufferRow(a[0], trace.address(a[0]), trace.size(a[0]), trace.allocKind(a[0]), a[1], t[0], t[1],
					t[2]));
		}
		return Table.of(BufferRow.TABLE, rows);
	}

	// i11-buffers: begin (overview page)
	/**
	 * A trace at a glance (the trace editor's overview page): header, counts, kernels by GPU time, memory by kind,
	 * launches per stream, ground truth. One pass over the events; not cached (the editor asks once per load).
	 *
	 * @param query the question
	 * @param monitor progress and cancellation, may be null
	 * @return the overview
	 */
	public Overview overview(OverviewQuery query, @Nullable IProgressMonitor monitor) {
		return Overview.of(query, monitor);
	}
	// i11-buffers: end

	// ---------------------------------------------------------------- per-trace cache

	/** What the session keeps about one trace. */
	private static final class TraceCache {
		final Trace trace;
		final String[] kernelNames;
		final ReplayEngine replay;
		final Map<List<Object>, int[]> orders = new HashMap<>();
		final Map<ValidationQuery, ValidationAnswer> validations = new HashMap<>();
		final Object keyframesLock = new Object();
		@Nullable SpeculationKeyframes keyframes;
		// i14-agent: begin
		volatile org.phos.workbench.trace.core.javasites.@Nullable JavaSites javaSites;

		@Nullable String javaSite(int event) {
			org.phos.workbench.trace.core.javasites.JavaSites s = javaSites;
			org.phos.workbench.trace.core.javasites.JavaCall c = s == null ? null : s.site(event);
			return c == null ? null : c.site();
		}
		// i14-agent: end
		private final Map<String, ObservedIndex> observed = new HashMap<>();
		private final Map<String, TruthReliability> reliability = new HashMap<>();
		final Map<AccessQuery, AccessAnswer> accesses = Collections.synchronizedMap(new java.util.LinkedHashMap<>(64,
				0.75f, true) {
			private static final long serialVersionUID = 1L;

			@Override
			protected boolean removeEldestEntry(Map.Entry<AccessQuery, AccessAnswer> eldest) {
				return size() > 256;
			}
		});

		TraceCache(Trace trace) {
			this.trace = trace;
			int max = 0;
			for (FunctionInfo f : trace.functions()) {
				max = Math.max(max, f.id());
			}
			kernelNames = new String[max + 1];
			for (FunctionInfo f : trace.functions()) {
				if (f.id() >= 0) {
					kernelNames[f.id()] = KernelName.of(f);
				}
			}
			replay = new ReplayEngine(trace);
		}

		private static String key(@Nullable String tool) {
			return tool == null ? "\0all tools" : tool;
		}

		/** The observed records indexed per launch, of one tool or (null) all; built once. */
		synchronized ObservedIndex observed(@Nullable String tool) {
			return observed.computeIfAbsent(key(tool), k -> ObservedIndex.of(trace, tool));
		}

		/** Which launches' truth is reliable, judged on the records of one tool or (null) all; built once. */
		TruthReliability reliability(@Nullable String tool) {
			ObservedIndex index = observed(tool);
			synchronized (this) {
				TruthReliability r = reliability.get(key(tool));
				if (r == null) {
					r = TruthReliability.of(trace, index);
					reliability.put(key(tool), r);
				}
				return r;
			}
		}

		String kernelName(int functionId) {
			String n = functionId >= 0 && functionId < kernelNames.length ? kernelNames[functionId] : null;
			return n != null ? n : "function " + functionId;
		}

		/** The filtered, sorted launch indices, built once per (filter, sort, verdict engine, tool). */
		int[] order(LaunchQuery q, @Nullable ValidationAnswer verdicts, IProgressMonitor monitor) {
			List<Object> key = java.util.Arrays.asList(q.filter(), q.sort(), q.verdictEngine(), q.tool());
			synchronized (orders) {
				int[] cached = orders.get(key);
				if (cached != null) {
					return cached;
				}
			}
			int[] order = LaunchOrder.build(trace, q, this::kernelName, verdicts, monitor);
			synchronized (orders) {
				orders.put(key, order);
			}
			return order;
		}
	}
}
