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
import org.phos.workbench.speculation.core.StreamSpeculator;
import org.phos.workbench.trace.core.StreamGap;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.attach.LiveWindow;

/**
 * Speculation of a live trace, launch by launch as the launches arrive: every event of the stream is fed once, in
 * stream order, to one set of engines that lives as long as the attach ({@link StreamSpeculator}), and what the engines
 * said of each launch is kept under the launch's number in the stream until no generation holds the launch any more.
 * A live trace is published as a sequence of immutable generations (snapshots of a bounded window); {@link #update}
 * feeds a generation's events that no earlier generation held, so a generation costs the speculation of its new
 * events only, and no engine state is rebuilt: every engine of the catalog, {@code best} (whose {@code +indirect}
 * follows pointer tables copied long before the window) and any {@code X+modifier}, says of each launch what a walk
 * of the saved stream says (LiveSpeculationTest).
 * <p>
 * Events that came and left the window between two generations (a window smaller than what arrives between two
 * snapshots; the live window keeps what no snapshot has held yet, up to a bound) are in no generation: they are not
 * fed, {@link #eventsNotFed()} counts them, and the engines go on without them (their state may then differ from the
 * saved stream's).
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

	private final List<String> engines;
	/** i14-livebest: the engines and device state of the whole attach. */
	private final StreamSpeculator stream;
	/** The process's index of the last event fed, -1 before the first. */
	private long lastEvent = -1;
	private volatile long eventsNotFed;
	/** Held while events are fed (one generation at a time); {@code this} guards what was said. */
	private final Object feeding = new Object();
	private volatile StreamSpeculator.State lastState;
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
		this.engines = List.copyOf(engines);
		this.stream = new StreamSpeculator(catalog, this.engines);
		this.lastState = stream.state();
	}

	/** The combination of {@code best} without its indirect and block parts (an engine a person may add by name). */
	public static final String BEST_DIRECT = "ptx-flow/arg-scan";

	/**
	 * @return every base engine of the catalog, then {@value EngineCatalog#BEST} (the engine the workbench recommends
	 *         elsewhere: fed the whole stream, its {@code +indirect} part follows the pointer tables however old)
	 */
	public static List<String> registered(EngineCatalog catalog) {
		List<String> names = new ArrayList<>();
		for (EngineRegistry.EngineInfo info : catalog.engines()) {
			names.add(info.name());
		}
		names.add(EngineCatalog.BEST);
		return List.copyOf(names);
	}

	/** @return the engines, in the order {@link #speculation} answers */
	public List<String> engines() {
		return engines;
	}

	/**
	 * Feeds the events of {@code generation} that no earlier generation held (those after the last one fed, by the
	 * process's event index), speculating each launch among them with every engine, and forgets the launches the
	 * generation does not hold any more.
	 *
	 * @param generation the newest generation
	 * @param gaps the generation's stream gaps (where its events are in the process, {@link StreamGap#processIndex})
	 * @param numberOf the stream's number of each launch of the generation, ascending
	 * @param monitor cancellation, may be null (a generation's new events are fed whole: the state must not skip)
	 * @return what it did
	 */
	public Update update(Trace generation, List<StreamGap> gaps, IntToLongFunction numberOf,
			@Nullable IProgressMonitor monitor) {
		// i14-livebest: fed under its own lock, kept under this one only at the end: the views asking what was said of
		// a launch (the UI thread painting rows) do not wait for a generation's feed
		synchronized (feeding) {
			long t0 = System.nanoTime();
			int n = generation.launchCount();
			int events = generation.eventCount();
			int from = firstEventAfter(events, gaps, lastEvent);
			int[] speculated = { 0 };
			int[] failures = { 0 };
			List<long[][]> results = new ArrayList<>();
			long[][] numbersFed = { new long[256] };
			if (from < events) {
				List<Long> packed = new ArrayList<>();
				List<SpeculationEngine> made = stream.engines();
				stream.feed(generation, from, numberOf, launch -> {
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
							failures[0]++;
						}
						perEngine[e] = covered ? intern(packed) : UNCOVERED;
					}
					int k = speculated[0]++;
					if (k == numbersFed[0].length) {
						numbersFed[0] = Arrays.copyOf(numbersFed[0], k * 2);
					}
					numbersFed[0][k] = launch.launchIndex();
					results.add(perEngine);
				});
				lastEvent = StreamGap.processIndex(gaps, events - 1);
			}
			lastState = stream.state();
			synchronized (this) {
				for (int k = 0; k < speculated[0]; k++) {
					append(numbersFed[0][k], results.get(k));
				}
				speculatedTotal += speculated[0];
				engineFailures += failures[0];
				retain(n, numberOf);
				long nanos = System.nanoTime() - t0;
				nanosTotal += nanos;
				return new Update(speculated[0], size, nanos);
			}
		}
	}

	/** The first local event whose process index is above {@code event} ({@code events} if none). */
	private static int firstEventAfter(int events, List<StreamGap> gaps, long event) {
		int lo = 0;
		int hi = events;
		while (lo < hi) {
			int mid = (lo + hi) >>> 1;
			if (StreamGap.processIndex(gaps, mid) <= event) {
				lo = mid + 1;
			} else {
				hi = mid;
			}
		}
		return lo;
	}

	/**
	 * {@link #update(Trace, List, IntToLongFunction, IProgressMonitor)} for a snapshot of a {@link LiveWindow}, which
	 * also counts the events received before the snapshot that no generation held ({@link #eventsNotFed()}).
	 */
	public Update update(LiveWindow.Snapshot snapshot, @Nullable IProgressMonitor monitor) {
		synchronized (feeding) {
			Update u = update(snapshot.loaded().trace(), snapshot.loaded().streamGaps(),
					snapshot.launchNumbers()::number, monitor);
			eventsNotFed = Math.max(0, snapshot.received() - lastState.eventsFed());
			return u;
		}
	}

	/**
	 * What an engine says of itself so far (for {@code ptx-flow}: the functions it analysed from PTX, once each for
	 * the whole attach).
	 *
	 * @param engine one of {@link #engines()}
	 * @return its notes
	 */
	public List<String> notes(String engine) {
		int i = engines.indexOf(engine);
		if (i < 0) {
			throw new IllegalArgumentException("no live engine '" + engine + "'; live: " + engines);
		}
		synchronized (feeding) {
			return stream.engines().get(i).notes();
		}
	}

	/**
	 * @return events received before the last snapshot given to {@link #update(LiveWindow.Snapshot, IProgressMonitor)}
	 *         that were not fed (they left the window before a snapshot held them): 0 when every event was fed once
	 */
	public long eventsNotFed() {
		return eventsNotFed;
	}

	/** @return what the engines' state held after the last {@link #update} (allocations, pointer tables, ...) */
	public StreamSpeculator.State state() {
		return lastState;
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

	/**
	 * Keeps only the launches the generation holds (both lists ascending: one merge), and those newer than its last
	 * (i14-livebest: a newer generation's feed may have come first).
	 */
	private void retain(int n, IntToLongFunction numberOf) {
		int kept = 0;
		int g = 0;
		long newest = n == 0 ? Long.MAX_VALUE : numberOf.applyAsLong(n - 1);
		for (int i = 0; i < size; i++) {
			long number = numbers[i];
			if (number > newest) {
				numbers[kept] = number;
				said[kept++] = said[i];
				continue;
			}
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
