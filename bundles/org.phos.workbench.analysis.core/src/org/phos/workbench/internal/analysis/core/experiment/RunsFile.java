package org.phos.workbench.internal.analysis.core.experiment;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.cr.core.BufferState;
import org.phos.workbench.cr.core.BufferStateChange;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.ConsistencyReport;
import org.phos.workbench.cr.core.ConsistencyViolation;
import org.phos.workbench.cr.core.CounterSample;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.LaneKind;
import org.phos.workbench.cr.core.Marker;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.cr.core.io.OutputFile;

/**
 * The full-fidelity record of an experiment's runs, so a saved experiment reopens from its files instead of being
 * simulated again (a live run on a GPU cannot be): each run's name, every field of its metrics and its whole
 * {@link TimelineModel} (lanes, intervals, stalls, markers, buffer state changes, counters), in a compact binary
 * form: big-endian numbers, strings once each then by index.
 * <p>
 * Layout: {@code PHOSRUNS}, version (int), the trace's SHA-256 (string, empty when unknown), the run count (int),
 * then each run. Reading checks the magic, the version and the end of the file; any damage is an
 * {@link IOException} saying what was expected.
 */
public final class RunsFile {
	/** The file's name in an experiment's outputs. */
	public static final String NAME = "runs.phosruns";
	private static final byte[] MAGIC = "PHOSRUNS".getBytes(StandardCharsets.US_ASCII);
	private static final int VERSION = 1;

	private RunsFile() {
	}

	/** What a runs file holds. */
	public record Contents(@Nullable String traceSha256, List<CrRun> runs) {
	}

	/**
	 * Writes the runs into {@code file} (the caller commits it), with progress per run and every 64k items, and
	 * cancellation ({@link org.eclipse.core.runtime.OperationCanceledException}).
	 */
	public static void write(OutputFile file, @Nullable String traceSha256, List<CrRun> runs,
			IProgressMonitor monitor) throws IOException {
		OutputStream stream = file.stream();
		DataOutputStream out = new DataOutputStream(new BufferedOutputStream(stream, 1 << 16));
		long items = 0;
		for (CrRun r : runs) {
			items += items(r.timeline());
		}
		monitor.beginTask("saving the runs", (int) Math.max(1, items >> 16));
		Writer w = new Writer(out, monitor);
		out.write(MAGIC);
		out.writeInt(VERSION);
		w.string(traceSha256 == null ? "" : traceSha256);
		out.writeInt(runs.size());
		for (CrRun r : runs) {
			w.string(r.name());
			w.metrics(r.metrics());
			w.timeline(r.timeline());
		}
		out.flush();
		monitor.done();
	}

	/** Intervals, stalls and state changes of a timeline (what progress counts). */
	private static long items(TimelineModel t) {
		return t.intervalCount() + t.stalls().size() + t.stateChanges().size();
	}

	/** Reads a runs file; IOException (saying what is wrong) for a damaged or foreign one. */
	public static Contents read(Path file) throws IOException {
		try (InputStream in = Files.newInputStream(file)) {
			DataInputStream data = new DataInputStream(new BufferedInputStream(in, 1 << 16));
			byte[] magic = new byte[MAGIC.length];
			data.readFully(magic);
			if (!java.util.Arrays.equals(magic, MAGIC)) {
				throw new IOException("not a runs file (it does not start with PHOSRUNS)");
			}
			int version = data.readInt();
			if (version != VERSION) {
				throw new IOException("runs file version " + version + " is not known (this workbench reads "
						+ VERSION + ")");
			}
			Reader r = new Reader(data);
			String sha = r.string();
			int count = r.count();
			List<CrRun> runs = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				String name = r.string();
				SimulationMetrics m = r.metrics();
				TimelineModel t = r.timeline();
				runs.add(new CrRun(name, m, t));
			}
			if (data.read() != -1) {
				throw new IOException("unexpected bytes after the last run");
			}
			return new Contents(sha.isEmpty() ? null : sha, runs);
		} catch (EOFException e) {
			throw new IOException("the file ends early (truncated)", e);
		} catch (IllegalArgumentException e) {
			throw new IOException("damaged: " + e.getMessage(), e);
		}
	}

	private static final class Writer {
		private final DataOutputStream out;
		private final IProgressMonitor monitor;
		private final Map<String, Integer> strings = new HashMap<>();
		private long items;

		Writer(DataOutputStream out, IProgressMonitor monitor) {
			this.out = out;
			this.monitor = monitor;
		}

		/** One more item written: every 64k, progress and a look at cancel. */
		private void item() {
			if ((++items & 0xFFFF) == 0) {
				if (monitor.isCanceled()) {
					throw new OperationCanceledException();
				}
				monitor.worked(1);
			}
		}

		void string(String s) throws IOException {
			Integer index = strings.get(s);
			if (index != null) {
				out.writeInt(index);
				return;
			}
			strings.put(s, strings.size());
			byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
			out.writeInt(-1 - bytes.length);
			out.write(bytes);
		}

		void metrics(SimulationMetrics m) throws IOException {
			string(m.policy());
			string(m.machine());
			for (long v : new long[] { m.operations(), m.launches(), m.appEndNs(), m.baselineEndNs(), m.endNs(),
					m.stallTotalNs(), m.stallLongestNs(), m.stallCount() }) {
				out.writeLong(v);
			}
			out.writeInt(m.stallByCause().size());
			for (StallCause c : StallCause.values()) {
				Long v = m.stallByCause().get(c);
				if (v != null) {
					string(c.name());
					out.writeLong(v);
				}
			}
			out.writeInt(m.checkpoints().size());
			for (CheckpointSummary c : m.checkpoints()) {
				out.writeInt(c.number());
				for (long v : new long[] { c.requestedNs(), c.drainedNs(), c.completedNs() }) {
					out.writeLong(v);
				}
				out.writeInt(c.snapshotBuffers());
				for (long v : new long[] { c.snapshotBytes(), c.cowCount(), c.cowBytes(), c.fallbackCount(),
						c.fallbackBytes(), c.dirtyBytes(), c.recopyBytes(), c.recomputeNs(), c.peakBudgetBytes() }) {
					out.writeLong(v);
				}
			}
			for (long v : new long[] { m.restoreStartNs(), m.restoreFirstKernelNs(), m.restoreFullStateNs(),
					m.bytesNeverRestored() }) {
				out.writeLong(v);
			}
			out.writeInt(m.bytesPerLane().size());
			for (Map.Entry<String, Long> e : new java.util.TreeMap<>(m.bytesPerLane()).entrySet()) {
				string(e.getKey());
				out.writeLong(e.getValue());
			}
			out.writeLong(m.cowCount());
			out.writeLong(m.cowBytes());
			ConsistencyReport c = m.consistency();
			out.writeBoolean(c.checked());
			out.writeLong(c.observedLaunches());
			out.writeInt(c.violations().size());
			for (ConsistencyViolation v : c.violations()) {
				string(v.kind().name());
				out.writeInt(v.buffer());
				out.writeLong(v.opIndex());
				out.writeLong(v.begin());
				out.writeLong(v.end());
				out.writeLong(v.timeNs());
				out.writeInt(v.checkpoint());
				string(v.detail());
			}
			out.writeLong(c.affectedBytes());
		}

		void timeline(TimelineModel t) throws IOException {
			out.writeBoolean(t.includesApplicationIntervals());
			List<Lane> lanes = t.lanes();
			out.writeInt(lanes.size());
			for (Lane l : lanes) {
				out.writeInt(l.id());
				string(l.name());
				string(l.kind().name());
				List<TimelineInterval> intervals = t.intervals(l.id());
				out.writeInt(intervals.size());
				for (TimelineInterval i : intervals) {
					item();
					out.writeLong(i.startNs());
					out.writeLong(i.endNs());
					string(i.label());
					string(i.category());
					out.writeInt(i.buffer());
					out.writeLong(i.bytes());
					out.writeLong(i.opIndex());
				}
			}
			List<StallInterval> stalls = t.stalls();
			out.writeInt(stalls.size());
			for (StallInterval s : stalls) {
				item();
				out.writeInt(s.lane());
				out.writeLong(s.startNs());
				out.writeLong(s.endNs());
				string(s.cause().name());
				out.writeInt(s.buffer());
				out.writeLong(s.opIndex());
			}
			List<Marker> markers = t.markers();
			out.writeInt(markers.size());
			for (Marker m : markers) {
				out.writeLong(m.timeNs());
				string(m.label());
				out.writeInt(m.checkpoint());
			}
			List<BufferStateChange> changes = t.stateChanges();
			out.writeInt(changes.size());
			for (BufferStateChange c : changes) {
				item();
				out.writeLong(c.timeNs());
				out.writeInt(c.buffer());
				string(c.from().name());
				string(c.to().name());
				out.writeInt(c.checkpoint());
			}
			List<String> counters = t.counterNames();
			out.writeInt(counters.size());
			for (String name : counters) {
				string(name);
				List<CounterSample> samples = t.counter(name);
				out.writeInt(samples.size());
				for (CounterSample s : samples) {
					item();
					out.writeLong(s.timeNs());
					out.writeLong(s.value());
				}
			}
		}
	}

	private static final class Reader {
		private final DataInputStream in;
		private final List<String> strings = new ArrayList<>();

		Reader(DataInputStream in) {
			this.in = in;
		}

		int count() throws IOException {
			int n = in.readInt();
			if (n < 0) {
				throw new IOException("damaged: negative count " + n);
			}
			return n;
		}

		String string() throws IOException {
			int n = in.readInt();
			if (n >= 0) {
				if (n >= strings.size()) {
					throw new IOException("damaged: string #" + n + " was never defined");
				}
				return strings.get(n);
			}
			int length = -1 - n;
			if (length > (64 << 20)) {
				throw new IOException("damaged: string of " + length + " bytes");
			}
			byte[] bytes = new byte[length];
			in.readFully(bytes);
			String s = new String(bytes, StandardCharsets.UTF_8);
			strings.add(s);
			return s;
		}

		private <E extends Enum<E>> E constant(Class<E> type) throws IOException {
			String name = string();
			try {
				return Enum.valueOf(type, name);
			} catch (IllegalArgumentException e) {
				throw new IOException("damaged: '" + name + "' is not a " + type.getSimpleName(), e);
			}
		}

		SimulationMetrics metrics() throws IOException {
			String policy = string();
			String machine = string();
			long operations = in.readLong();
			long launches = in.readLong();
			long appEnd = in.readLong();
			long baselineEnd = in.readLong();
			long end = in.readLong();
			long stallTotal = in.readLong();
			long stallLongest = in.readLong();
			long stallCount = in.readLong();
			Map<StallCause, Long> byCause = new EnumMap<>(StallCause.class);
			for (int i = count(); i > 0; i--) {
				StallCause c = constant(StallCause.class);
				byCause.put(c, in.readLong());
			}
			List<CheckpointSummary> checkpoints = new ArrayList<>();
			for (int i = count(); i > 0; i--) {
				int number = in.readInt();
				long requested = in.readLong();
				long drained = in.readLong();
				long completed = in.readLong();
				int snapshotBuffers = in.readInt();
				checkpoints.add(new CheckpointSummary(number, requested, drained, completed, snapshotBuffers,
						in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(),
						in.readLong(), in.readLong(), in.readLong()));
			}
			long restoreStart = in.readLong();
			long restoreFirstKernel = in.readLong();
			long restoreFull = in.readLong();
			long neverRestored = in.readLong();
			Map<String, Long> perLane = new LinkedHashMap<>();
			for (int i = count(); i > 0; i--) {
				String lane = string();
				perLane.put(lane, in.readLong());
			}
			long cowCount = in.readLong();
			long cowBytes = in.readLong();
			boolean checked = in.readBoolean();
			long observedLaunches = in.readLong();
			List<ConsistencyViolation> violations = new ArrayList<>();
			for (int i = count(); i > 0; i--) {
				ConsistencyViolation.Kind kind = constant(ConsistencyViolation.Kind.class);
				int buffer = in.readInt();
				long op = in.readLong();
				long begin = in.readLong();
				long vend = in.readLong();
				long time = in.readLong();
				int checkpoint = in.readInt();
				violations.add(new ConsistencyViolation(kind, buffer, op, begin, vend, time, checkpoint, string()));
			}
			long affected = in.readLong();
			return new SimulationMetrics(policy, machine, operations, launches, appEnd, baselineEnd, end, stallTotal,
					stallLongest, stallCount, byCause, checkpoints, restoreStart, restoreFirstKernel, restoreFull,
					neverRestored, perLane, cowCount, cowBytes,
					new ConsistencyReport(checked, observedLaunches, violations, affected));
		}

		TimelineModel timeline() throws IOException {
			TimelineModel t = new TimelineModel(in.readBoolean());
			for (int l = count(); l > 0; l--) {
				int id = in.readInt();
				String name = string();
				t.lane(new Lane(id, name, constant(LaneKind.class)));
				for (int i = count(); i > 0; i--) {
					long start = in.readLong();
					long end = in.readLong();
					String label = string();
					String category = string();
					t.interval(new TimelineInterval(id, start, end, label, category, in.readInt(), in.readLong(),
							in.readLong()));
				}
			}
			for (int i = count(); i > 0; i--) {
				int lane = in.readInt();
				long start = in.readLong();
				long end = in.readLong();
				StallCause cause = constant(StallCause.class);
				t.stall(new StallInterval(lane, start, end, cause, in.readInt(), in.readLong()));
			}
			for (int i = count(); i > 0; i--) {
				long time = in.readLong();
				String label = string();
				t.marker(new Marker(time, label, in.readInt()));
			}
			for (int i = count(); i > 0; i--) {
				long time = in.readLong();
				int buffer = in.readInt();
				BufferState from = constant(BufferState.class);
				BufferState to = constant(BufferState.class);
				t.bufferState(new BufferStateChange(time, buffer, from, to, in.readInt()));
			}
			for (int c = count(); c > 0; c--) {
				String name = string();
				for (int i = count(); i > 0; i--) {
					long time = in.readLong();
					t.counter(new CounterSample(time, name, in.readLong()));
				}
			}
			return t;
		}
	}
}
