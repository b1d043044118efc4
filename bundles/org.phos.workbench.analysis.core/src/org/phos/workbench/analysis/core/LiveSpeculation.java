package org.phos.workbench.analysis.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.trace.core.Trace;

/**
 * Speculation of a live trace, launch by launch as the launches arrive: each launch is speculated once, by every
 * engine of the set, when the first generation holding it comes ({@link #update}), and what the engines said is kept
 * under the launch's number in the stream until no generation holds the launch any more. A live trace is published as
 * a sequence of immutable generations (snapshots of a bounded window), so the usual per-trace answers of
 * {@link AnalysisSession} would speculate the whole window again for every generation; through this, a generation
 * costs the speculation of its new launches plus one replay of the allocations before them.
 * <p>
 * A new launch is speculated in the generation that first holds it, against that generation's device state (the live
 * allocations, which a live window keeps, and the copy payloads it still holds), by engines created for that
 * generation; engines that remember the first launch of each function are shown the first ones the generation holds
 * (a live window keeps the batch of each function's first launch). On the same events this is what a speculation of
 * the saved stream gives (LiveSpeculationTest), for engines that read the parameters and the live allocations; not
 * for those that follow pointers stored in device memory by copies older than the window ({@code +indirect}).
 * <p>
 * Launches that came and left the window between two generations (a window smaller than what arrives between two
 * snapshots) are in no generation, so they are not speculated either: {@link #speculated()} counts those that were.
 * <p>
 * What is kept is packed: per launch and engine, 4 longs per access (base, begin, end, mode and parameter), and equal
 * arrays (a training loop launches the same kernels on the same buffers) are shared. Thread-safe.
 */
public final class LiveSpeculation {

	/** What one {@link #update} did. */
	public record Update(int speculated, int held, long nanos) {
	}

	private static final long[] UNCOVERED = new long[0];
	private static final int INTERN = 8192;

	private final EngineCatalog catalog;
	private final List<String> engines;
	/** Launch numbers held, ascending, and what each engine said of each (packed, see {@link #pack}). */
	private long[] numbers = new long[1024];
	private long[][][] said = new long[1024][][];
	private int size;
	private long last = -1;
	private long speculatedTotal;
	private long nanosTotal;
	private final Map<Key, long[]> interned = new LinkedHashMap<>(INTERN * 2, 0.75f, true) {
		private static final long serialVersionUID = 1L;

		@Override
		protected boolean removeEldestEntry(Map.Entry<Key, long[]> eldest) {
			return size() > INTERN;
		}
	};

	private record Key(long[] packed) {
		@Override
		public boolean equals(Object o) {
			return o instanceof Key k && Arrays.equals(packed, k.packed);
		}

		@Override
		public int hashCode() {
			return Arrays.hashCode(packed);
		}
	}

	/**
	 * @param catalog where the engines come from
	 * @param engines the engine specifications to speculate with (see {@link #registered})
	 * @throws IllegalArgumentException for an engine the catalog does not know
	 */
	public LiveSpeculation(EngineCatalog catalog, List<String> engines) {
		for (String e : engines) {
			if (!catalog.canCreate(e)) {
				throw new IllegalArgumentException("unknown engine '" + e + "' for live speculation");
			}
		}
		this.catalog = catalog;
		this.engines = List.copyOf(engines);
	}

	/** The combination of {@code best} without its indirect part (see {@link #registered}). */
	public static final String BEST_DIRECT = "ptx-flow/arg-scan";

	/**
	 * @return every base engine of the catalog and {@value #BEST_DIRECT}; not {@code best}: its indirect part follows
	 *         pointers that host-to-device copies stored in device memory, and a bounded window does not hold the
	 *         copies (nor the allocations they pointed to) from before it, so over a window it says something else
	 *         than over the saved stream (LiveSpeculationTest measured it)
	 */
	public static List<String> registered(EngineCatalog catalog) {
		List<String> names = new ArrayList<>();
		for (EngineRegistry.EngineInfo info : catalog.engines()) {
			names.add(info.name());
		}
		if (catalog.canCreate(BEST_DIRECT)) {
			names.add(BEST_DIRECT);
		}
		return List.copyOf(names);
	}

	/** @return the engines, in the order {@link #speculation} answers */
	public List<String> engines() {
		return engines;
	}

	/**
	 * Speculates the launches of {@code generation} that no earlier generation held (their number is above every
	 * number seen), and forgets the launches the generation does not hold any more.
	 *
	 * @param generation the newest generation
	 * @param numberOf the stream's number of each launch of the generation, ascending
	 * @param monitor cancellation, may be null
	 * @return what it did
	 */
	public synchronized Update update(Trace generation, IntToLongFunction numberOf, @Nullable IProgressMonitor monitor) {
		long t0 = System.nanoTime();
		int n = generation.launchCount();
		int from = firstAbove(n, numberOf, last);
		if (from < n) {
			List<SpeculationEngine> made = new ArrayList<>(engines.size());
			for (String spec : engines) {
				made.add(catalog.create(spec, generation));
			}
			int[] next = { from };
			List<Long> packed = new ArrayList<>();
			TraceSpeculator.forEngines(generation, made).run(monitor, from, n, launch -> {
				long number = numberOf.applyAsLong(next[0]++);
				long[][] perEngine = new long[made.size()][];
				for (int e = 0; e < made.size(); e++) {
					packed.clear();
					boolean covered;
					try {
						covered = made.get(e).speculate(launch, (id, base, begin, end, mode, param, offset) -> {
							packed.add(base);
							packed.add(begin);
							packed.add(end);
							packed.add((mode & 0xffL) | ((param & 0xffffffL) << 8) | ((long) offset << 32));
						});
					} catch (RuntimeException failed) {
						// one engine failing on one launch: that launch is "not covered" by it, the others go on
						covered = false;
						engineFailures++;
					}
					perEngine[e] = covered ? intern(packed) : UNCOVERED;
				}
				append(number, perEngine);
			});
			last = numberOf.applyAsLong(n - 1);
			speculatedTotal += n - from;
		}
		retain(n, numberOf);
		long nanos = System.nanoTime() - t0;
		nanosTotal += nanos;
		return new Update(n - from, size, nanos);
	}

	private static int firstAbove(int n, IntToLongFunction numberOf, long number) {
		int lo = 0;
		int hi = n;
		while (lo < hi) {
			int mid = (lo + hi) >>> 1;
			if (numberOf.applyAsLong(mid) <= number) {
				lo = mid + 1;
			} else {
				hi = mid;
			}
		}
		return lo;
	}

	private long[] intern(List<Long> packed) {
		long[] a = new long[packed.size()];
		for (int i = 0; i < a.length; i++) {
			a[i] = packed.get(i);
		}
		return interned.computeIfAbsent(new Key(a), k -> k.packed());
	}

	private void append(long number, long[][] perEngine) {
		if (size > 0 && numbers[size - 1] >= number) {
			throw new IllegalStateException("launch " + number + " after launch " + numbers[size - 1]);
		}
		if (size == numbers.length) {
			numbers = Arrays.copyOf(numbers, size * 2);
			said = Arrays.copyOf(said, size * 2);
		}
		numbers[size] = number;
		said[size++] = perEngine;
	}

	/** Keeps only the launches the generation holds (both lists ascending: one merge). */
	private void retain(int n, IntToLongFunction numberOf) {
		int kept = 0;
		int g = 0;
		for (int i = 0; i < size; i++) {
			long number = numbers[i];
			while (g < n && numberOf.applyAsLong(g) < number) {
				g++;
			}
			if (g < n && numberOf.applyAsLong(g) == number) {
				numbers[kept] = number;
				said[kept++] = said[i];
			}
		}
		Arrays.fill(said, kept, size, null);
		size = kept;
		if (numbers.length > 1024 && size < numbers.length / 4) {
			numbers = Arrays.copyOf(numbers, numbers.length / 2);
			said = Arrays.copyOf(said, numbers.length);
		}
	}

	/**
	 * What the engines said of one launch, in the order of {@link #engines()}.
	 *
	 * @param number the launch's number in the stream
	 * @param launchEvent the launch's event index in the generation asking (put into the answers)
	 * @return one speculation per engine, or null when the launch was not speculated (not yet, or no longer held)
	 */
	public synchronized @Nullable List<LaunchSpeculation> speculation(long number, int launchEvent) {
		int i = Arrays.binarySearch(numbers, 0, size, number);
		if (i < 0) {
			return null;
		}
		List<LaunchSpeculation> out = new ArrayList<>(engines.size());
		for (int e = 0; e < engines.size(); e++) {
			long[] p = said[i][e];
			List<SpeculatedAccess> accesses = new ArrayList<>(p.length / 4);
			for (int a = 0; a + 3 < p.length; a += 4) {
				long m = p[a + 3];
				int param = (int) ((m >>> 8) & 0xffffff);
				// the allocation id is the generation's: the id of the speculating one would mean nothing here (-1)
				accesses.add(SpeculatedAccess.of(-1, p[a], p[a + 1], p[a + 2], (int) (m & 0xff),
						param == 0xffffff ? -1 : param, (int) (m >>> 32)));
			}
			out.add(new LaunchSpeculation(launchEvent, engines.get(e), p != UNCOVERED, accesses));
		}
		return out;
	}

	/** @return engine answers that failed with an exception (counted as not covered) since the start */
	public synchronized long engineFailures() {
		return engineFailures;
	}

	private long engineFailures;

	/** @return launches whose speculation is held now */
	public synchronized int held() {
		return size;
	}

	/** @return launches speculated since the start */
	public synchronized long speculated() {
		return speculatedTotal;
	}

	/** @return time spent in {@link #update} since the start, ns */
	public synchronized long nanos() {
		return nanosTotal;
	}
}
