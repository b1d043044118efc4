package org.phos.workbench.trace.core.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.IdentityHashMap;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.phos.workbench.internal.trace.core.util.LongLongMap;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * Chrome Trace Event JSON in the shape PyTorch's profiler (Kineto) writes, for ui.perfetto.dev, chrome://tracing
 * and Holistic Trace Analysis.
 * <p>
 * The recorded process is one process (its pid; threads by the recorder's thread numbers) whose API calls are
 * {@code X} slices of category {@code cuda_runtime}; the GPU is process 0 ({@code GPU 0}) with one thread per stream
 * on which kernels ({@code kernel}), copies ({@code gpu_memcpy}) and fills ({@code gpu_memset}) are {@code X}
 * slices; each GPU operation has a flow ({@code s} on the API call, {@code f} with {@code "bp":"e"} on the GPU slice,
 * category {@code ac2g}, id = event index) as Kineto draws them, and {@code args.correlation} is the event index on
 * both. Times are microseconds since the trace start with nanosecond precision ({@code ts}, {@code dur}).
 * <p>
 * What the v1 format does not record is placed as follows (docs/cli.md): API calls have a host timestamp but no
 * duration, so each host slice lasts until the next event of its thread, at most {@value #NOMINAL_NS} ns; a GPU
 * operation without GPU times is placed at its host time (or after the previous operation of its stream), with the
 * same nominal duration and {@code args.timing} saying so. Slices of one track therefore never overlap, which
 * Perfetto's JSON importer needs.
 * <p>
 * Streaming: events are written as they are walked; the only state is one pending slice per track (threads and
 * streams), so memory does not grow with the trace. Records are formatted as ASCII straight into a 1 MiB buffer
 * (constant fragments, names and per-track placements pre-encoded once; numbers by {@link ByteSink}'s own
 * formatting); full 1 MiB buffers are written out by a second thread while the next one fills (two buffers).
 */
public final class TraceChromeExporter implements TraceExporter {

	/** Width given to a slice whose duration was not recorded, when the next slice of its track is later. */
	public static final long NOMINAL_NS = 1_000;

	/** The pid of the GPU process, as Kineto numbers devices. */
	static final int GPU_PID = 0;

	private static final String UNTIMED_NOTE = "GPU time not measured: placed at host time, nominal duration";

	private final boolean params;

	/** An exporter that leaves the launch parameter bytes out (see {@link #TraceChromeExporter(boolean)}). */
	public TraceChromeExporter() {
		this(false);
	}

	/**
	 * @param params whether kernel slices carry {@code args.params}, the launch's parameter bytes in hexadecimal
	 *               (about 120 bytes more per launch, a sixth of the file)
	 */
	public TraceChromeExporter(boolean params) {
		this.params = params;
	}

	@Override
	public String formatName() {
		return "chrome-json";
	}

	@Override
	public long export(Trace trace, String traceName, OutputStream out, IProgressMonitor monitor)
			throws IOException {
		// 1 MiB blocks, written out by a second thread while the next one is formatted
		ByteSink sink = new ByteSink(out, 1 << 20, true);
		Walk walk = new Walk(trace, sink, params);
		walk.begin(traceName);
		int n = trace.eventCount();
		int step = 1 << 16;
		monitor.beginTask("exporting " + traceName + " as Chrome JSON", Math.max(1, (n + step - 1) / step));
		try {
			for (int start = 0; start < n; start += step) {
				if (monitor.isCanceled()) {
					throw new OperationCanceledException();
				}
				int end = Math.min(n, start + step);
				for (int i = start; i < end; i++) {
					walk.event(i);
				}
				monitor.worked(1);
			}
			walk.end();
			sink.flush();
			sink.stopWriter();
		} catch (IOException | RuntimeException | Error e) {
			try {
				sink.stopWriter();
			} catch (IOException | RuntimeException stop) {
				e.addSuppressed(stop);
			}
			throw e;
		} finally {
			monitor.done();
		}
		return walk.records;
	}

	/** One slice track: a host thread or a GPU stream. */
	private static final class Track {
		final int pid;
		final long tid;
		/** {@code ,"pid":P,"tid":T}, written with every record of the track. */
		final byte[] pidTid;
		/** {@code ,"pid":P,"tid":T,"ts":}, which starts the placement of every slice and flow event. */
		final byte[] pidTidTs;
		/** {@code ,"device":0,"stream":T} of the args of a GPU slice on this track. */
		final byte[] deviceStream;
		/** End of the last slice written or pending on this track. */
		long lastEnd = Long.MIN_VALUE;
		/** Event index of the slice whose duration waits for the next slice of the track, or -1. */
		int pendingEvent = -1;
		long pendingTs;
		boolean pendingGpu;

		Track(int pid, long tid) {
			this.pid = pid;
			this.tid = tid;
			String placement = ",\"pid\":" + pid + ",\"tid\":" + tid;
			this.pidTid = placement.getBytes(StandardCharsets.US_ASCII);
			this.pidTidTs = (placement + ",\"ts\":").getBytes(StandardCharsets.US_ASCII);
			this.deviceStream = (",\"device\":0,\"stream\":" + tid).getBytes(StandardCharsets.US_ASCII);
		}
	}

	/** The state of one export. */
	private static final class Walk {
		private static final byte[] X_RUNTIME = ascii("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":");
		private static final byte[] X_KERNEL = ascii("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":");
		private static final byte[] X_MEMCPY = ascii("{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy ");
		private static final byte[] X_MEMSET = ascii(
				"{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset (Device)\"");
		private static final byte[] DUR = ascii(",\"dur\":");
		private static final byte[] ARGS_CORRELATION = ascii(",\"args\":{\"correlation\":");
		private static final byte[] FLOW_S = ascii("{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":");
		private static final byte[] FLOW_F = ascii("{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":");
		private static final byte[] CLOSE_ARGS = ascii("}},\n");
		private static final byte[] CLOSE = ascii("},\n");
		private static final byte[] FUNCTION = ascii(",\"function\":");
		private static final byte[] PARAMS = ascii(",\"params\":\"");
		private static final byte[] UNTIMED = ascii(",\"timing\":" + JsonEscape.quote(UNTIMED_NOTE));
		private static final int SHAPE_CACHE = 1 << 10;
		/**
		 * Room for the parts of a record other than its name and launch shape: phase and category (60), placement
		 * (two 20-digit numbers and keys, 50), two times (2 x 24 and keys), correlation and device/stream (100),
		 * function (40), the closing, with a margin.
		 */
		private static final int FIXED_RECORD_BYTES = 400;
		/** Room for the longest shape: seven 10-digit numbers and the keys. */
		private static final int SHAPE_BYTES = 160;
		private static final byte[] GRID = ascii(",\"grid\":[");
		private static final byte[] BLOCK = ascii("],\"block\":[");
		private static final byte[] SHARED = ascii("],\"shared memory\":");

		private final Trace trace;
		private final ByteSink out;
		private final boolean params;
		private final int hostPid;
		/** {@code {"ph":"X","cat":"kernel","name":"<escaped name>"} by function id (index), or null. */
		private final byte[][] kernelNames;
		/** {@code {"ph":"X","cat":"cuda_runtime","name":"<api>"} by identity of the literal HostApiNames returns. */
		private final IdentityHashMap<String, byte[]> hostNames = new IdentityHashMap<>();
		private final LongLongMap hostTracks = new LongLongMap();
		private final LongLongMap streamTracks = new LongLongMap();
		private Track[] tracks = new Track[8];
		private int trackCount;
		/** The decimal event index of the GPU operation being written (id, correlation), formatted once. */
		private final byte[] id = new byte[24];
		private int idLength;
		/** The start of the GPU slice being written, in microseconds, formatted once for the slice and its flow. */
		private final byte[] gpuTs = new byte[32];
		private int gpuTsLength;
		/** Launch shapes ({@code grid, block, shared memory} args), direct-mapped by a hash of the seven values. */
		private final int[] shapeKeys = new int[SHAPE_CACHE * 7];
		private final byte[][] shapeBytes = new byte[SHAPE_CACHE][];
		private final int[] shapeLength = new int[SHAPE_CACHE];
		private final byte[] paramScratch = new byte[4096];
		long records;

		Walk(Trace trace, ByteSink out, boolean params) {
			this.trace = trace;
			this.out = out;
			this.params = params;
			int pid = trace.header().pid();
			this.hostPid = pid == GPU_PID ? 1 : pid;
			for (String name : HostApiNames.ALL) {
				hostNames.put(name, runtimePrefix(JsonEscape.quoted(name)));
			}
			int maxId = 0;
			for (FunctionInfo f : trace.functions()) {
				maxId = Math.max(maxId, f.id());
			}
			kernelNames = new byte[Math.min(maxId, 1 << 20) + 1][];
			for (FunctionInfo f : trace.functions()) {
				if (f.id() >= 0 && f.id() < kernelNames.length) {
					kernelNames[f.id()] = kernelPrefix(JsonEscape.quoted(f.displayName()));
				}
			}
		}

		private static byte[] runtimePrefix(byte[] quotedName) {
			byte[] prefix = Arrays.copyOf(X_RUNTIME, X_RUNTIME.length + quotedName.length);
			System.arraycopy(quotedName, 0, prefix, X_RUNTIME.length, quotedName.length);
			return prefix;
		}

		private static byte[] kernelPrefix(byte[] quotedName) {
			byte[] prefix = Arrays.copyOf(X_KERNEL, X_KERNEL.length + quotedName.length);
			System.arraycopy(quotedName, 0, prefix, X_KERNEL.length, quotedName.length);
			return prefix;
		}

		private static byte[] ascii(String s) {
			return s.getBytes(StandardCharsets.US_ASCII);
		}

		void begin(String traceName) throws IOException {
			TraceHeader h = trace.header();
			out.ascii("{\n\"schemaVersion\":1,\n\"deviceProperties\":[{\"id\":0,\"name\":").jsonString(h.deviceName())
					.ascii(",\"computeMajor\":").decimal(h.ccMajor()).ascii(",\"computeMinor\":").decimal(h.ccMinor())
					.ascii(",\"totalGlobalMem\":").unsignedDecimal(h.deviceMemory()).ascii("}],\n");
			out.ascii("\"traceName\":").jsonString(traceName).ascii(",\n\"displayTimeUnit\":\"ms\",\n");
			out.ascii("\"baseTimeNanoseconds\":").unsignedDecimal(h.startUnixNs()).ascii(",\n");
			out.ascii("\"phos\":{\"recorder\":").jsonString(h.recorder() + " " + h.recorderVersion())
					.ascii(",\"events\":").decimal(trace.eventCount())
					.ascii(",\"hostSliceDuration\":").jsonString("not recorded in .phos v1: a host slice lasts until "
							+ "the next event of its thread, at most " + NOMINAL_NS + " ns")
					.ascii("},\n\"traceEvents\":[\n");
			String program = h.argv().isEmpty() ? "host" : h.argv().get(0);
			int slash = program.lastIndexOf('/');
			program = program.substring(slash + 1);
			processMetadata(hostPid, program + " (pid " + Integer.toUnsignedString(h.pid()) + ")", "CPU", 0);
			processMetadata(GPU_PID, "GPU 0", "GPU 0: " + h.deviceName(), 1);
		}

		private void processMetadata(int pid, String name, String labels, int sortIndex) throws IOException {
			out.ascii("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":").decimal(pid)
					.ascii(",\"tid\":0,\"args\":{\"name\":").jsonString(name).raw(CLOSE_ARGS);
			out.ascii("{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":").decimal(pid)
					.ascii(",\"tid\":0,\"args\":{\"labels\":").jsonString(labels).raw(CLOSE_ARGS);
			out.ascii("{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":").decimal(pid)
					.ascii(",\"tid\":0,\"args\":{\"sort_index\":").decimal(sortIndex).raw(CLOSE_ARGS);
			records += 3;
		}

		private void threadMetadata(Track track, String name) throws IOException {
			out.ascii("{\"ph\":\"M\",\"name\":\"thread_name\"").raw(track.pidTid)
					.ascii(",\"args\":{\"name\":").jsonString(name).raw(CLOSE_ARGS);
			out.ascii("{\"ph\":\"M\",\"name\":\"thread_sort_index\"").raw(track.pidTid)
					.ascii(",\"args\":{\"sort_index\":").decimal(track.tid).raw(CLOSE_ARGS);
			records += 2;
		}

		private Track hostTrack(int thread) throws IOException {
			long index = hostTracks.get(thread, -1);
			if (index >= 0) {
				return tracks[(int) index];
			}
			Track track = addTrack(hostPid, Integer.toUnsignedLong(thread));
			hostTracks.put(thread, trackCount - 1);
			threadMetadata(track, "thread " + Integer.toUnsignedString(thread));
			return track;
		}

		private Track streamTrack(long stream) throws IOException {
			long index = streamTracks.get(stream, -1);
			if (index >= 0) {
				return tracks[(int) index];
			}
			Track track = addTrack(GPU_PID, streamTracks.size() + 1);
			streamTracks.put(stream, trackCount - 1);
			threadMetadata(track, streamName(stream));
			return track;
		}

		static String streamName(long stream) {
			if (stream == 0) {
				return "stream 0 (legacy default)";
			}
			if (stream == 2) {
				return "stream 2 (per-thread default)";
			}
			return "stream " + (stream > 0 && stream < 65536 ? Long.toString(stream) : "0x" + Long.toHexString(stream));
		}

		private Track addTrack(int pid, long tid) {
			if (trackCount == tracks.length) {
				tracks = Arrays.copyOf(tracks, trackCount * 2);
			}
			Track track = new Track(pid, tid);
			tracks[trackCount++] = track;
			return track;
		}

		void event(int i) throws IOException {
			EventKind kind = trace.kind(i);
			switch (kind) {
			case LAUNCH -> {
				if (trace.launchKind(i) != LaunchKind.GRAPH_NODE) {
					hostSlice(i);
				}
				gpuOperation(i);
			}
			case MEMCPY, MEMSET -> {
				hostSlice(i);
				gpuOperation(i);
			}
			default -> hostSlice(i);
			}
		}

		/** Places the API call of event i on its thread; it is written when the thread's next slice is known. */
		private void hostSlice(int i) throws IOException {
			Track track = hostTrack(trace.thread(i));
			long ts = trace.hostNs(i);
			settle(track, ts);
			track.pendingEvent = i;
			track.pendingTs = ts;
			track.pendingGpu = false;
			track.lastEnd = ts;
		}

		/** Writes the pending slice of a track, ending it at the next slice's start (or after the nominal width). */
		private void settle(Track track, long nextTs) throws IOException {
			int p = track.pendingEvent;
			if (p < 0) {
				return;
			}
			long dur = Math.max(0, Math.min(NOMINAL_NS, nextTs - track.pendingTs));
			if (track.pendingGpu) {
				formatId(p);
				gpuTsLength = ByteSink.putMicros(Math.max(0, track.pendingTs), gpuTs, 0);
				writeGpuSlice(p, track, dur, true);
			} else {
				writeHostSlice(p, track, track.pendingTs, dur);
			}
			track.pendingEvent = -1;
			track.lastEnd = track.pendingTs + dur;
		}

		private void formatId(int i) {
			idLength = ByteSink.putDecimal(i, id, 0);
		}

		private void gpuOperation(int i) throws IOException {
			Track track = streamTrack(trace.stream(i));
			long start = trace.gpuStartNs(i);
			long ts;
			if (start != 0) {
				ts = start;
				settle(track, ts);
				long dur = Math.max(0, trace.gpuEndNs(i) - start);
				formatId(i);
				gpuTsLength = ByteSink.putMicros(Math.max(0, ts), gpuTs, 0);
				writeGpuSlice(i, track, dur, false);
				track.lastEnd = Math.max(track.lastEnd, ts + dur);
			} else {
				ts = Math.max(trace.hostNs(i), track.lastEnd);
				settle(track, ts);
				track.pendingEvent = i;
				track.pendingTs = ts;
				track.pendingGpu = true;
				track.lastEnd = ts;
				formatId(i);
				gpuTsLength = ByteSink.putMicros(Math.max(0, ts), gpuTs, 0);
			}
			// the flow from the API call (or the graph launch of a graph node) to the GPU operation
			int from = i;
			if (trace.kind(i) == EventKind.LAUNCH && trace.launchKind(i) == LaunchKind.GRAPH_NODE) {
				long g = trace.graphLaunchEvent(i);
				if (g < 0 || g >= i) {
					return; // no graph launch to draw from
				}
				from = (int) g;
			}
			Track host = hostTrack(trace.thread(from));
			out.reserve(2 * FIXED_RECORD_BYTES);
			out.put(FLOW_S);
			out.put(id, 0, idLength);
			out.put(host.pidTidTs);
			out.putMicros(Math.max(0, trace.hostNs(from)));
			out.put(CLOSE);
			out.put(FLOW_F);
			out.put(id, 0, idLength);
			out.put(track.pidTidTs);
			out.put(gpuTs, 0, gpuTsLength);
			out.put(CLOSE);
			records += 2;
		}

		/** Writes the GPU slice of event i, whose id and start are formatted in {@link #id} and {@link #gpuTs}. */
		private void writeGpuSlice(int i, Track track, long dur, boolean untimed) throws IOException {
			EventKind kind = trace.kind(i);
			switch (kind) {
			case LAUNCH -> {
				int function = trace.functionId(i);
				byte[] prefix = kernelName(function);
				out.reserve(prefix.length + FIXED_RECORD_BYTES + SHAPE_BYTES);
				out.put(prefix);
				gpuSliceTail(track, dur);
				out.put(track.deviceStream);
				writeLaunchShape(i);
				out.put(FUNCTION);
				out.putDecimal(Integer.toUnsignedLong(function));
				LaunchKind lk = trace.launchKind(i);
				if (lk != LaunchKind.PLAIN) {
					out.ascii(",\"launch kind\":\"").ascii(lk.name()).ch('"');
					if (lk == LaunchKind.GRAPH_NODE) {
						out.ascii(",\"graph launch\":").decimal(trace.graphLaunchEvent(i));
					}
				}
				if (params) {
					out.raw(PARAMS);
					writeParams(i, trace.paramLength(i));
					out.ch('"');
				}
			}
			case MEMCPY -> {
				out.raw(X_MEMCPY).ascii(copyName(trace.copyKind(i))).ch('"');
				out.reserve(FIXED_RECORD_BYTES);
				gpuSliceTail(track, dur);
				out.raw(track.deviceStream).ascii(",\"stream handle\":\"").hexAddress(trace.stream(i))
						.ascii("\",\"bytes\":").unsignedDecimal(trace.bytes(i)).ascii(",\"src\":\"")
						.hexAddress(trace.src(i)).ascii("\",\"dst\":\"").hexAddress(trace.dst(i)).ch('"');
				long bytes = trace.bytes(i);
				if (!untimed && dur > 0 && bytes >= 0 && bytes < Long.MAX_VALUE / 1000) {
					// bytes per ns are GB/s; micros() prints thousandths with three decimals
					out.ascii(",\"memory bandwidth (GB/s)\":").micros(bytes * 1000 / dur);
				}
			}
			case MEMSET -> {
				out.raw(X_MEMSET);
				out.reserve(FIXED_RECORD_BYTES);
				gpuSliceTail(track, dur);
				out.raw(track.deviceStream).ascii(",\"stream handle\":\"").hexAddress(trace.stream(i))
						.ascii("\",\"bytes\":").unsignedDecimal(trace.bytes(i)).ascii(",\"dst\":\"")
						.hexAddress(trace.dst(i)).ascii("\",\"value\":")
						.decimal(Integer.toUnsignedLong(trace.memsetValue(i)));
			}
			default -> throw new IllegalStateException("event " + i + " of kind " + kind + " has no GPU slice");
			}
			if (untimed) {
				out.raw(UNTIMED);
			}
			out.raw(CLOSE_ARGS);
			records++;
		}

		/** The placement, time and correlation of a GPU slice, into room {@link #FIXED_RECORD_BYTES} reserved. */
		private void gpuSliceTail(Track track, long dur) {
			out.put(track.pidTidTs);
			out.put(gpuTs, 0, gpuTsLength);
			out.put(DUR);
			out.putMicros(dur);
			out.put(ARGS_CORRELATION);
			out.put(id, 0, idLength);
		}

		/**
		 * Writes {@code ,"grid":[x,y,z],"block":[x,y,z],"shared memory":n} of launch i from a direct-mapped cache of
		 * recent shapes (most launches repeat a few shapes); a miss formats into the slot's own array, so that the
		 * cache allocates at most {@value #SHAPE_CACHE} arrays however many shapes the trace has.
		 */
		private void writeLaunchShape(int i) {
			int gx = trace.gridX(i);
			int gy = trace.gridY(i);
			int gz = trace.gridZ(i);
			int bx = trace.blockX(i);
			int by = trace.blockY(i);
			int bz = trace.blockZ(i);
			int sm = trace.sharedMem(i);
			int h = (((((gx * 31 + gy) * 31 + gz) * 31 + bx) * 31 + by) * 31 + bz) * 31 + sm;
			int slot = (h ^ (h >>> 15)) & (SHAPE_CACHE - 1);
			int k = slot * 7;
			byte[] bytes = shapeBytes[slot];
			if (bytes == null || shapeKeys[k] != gx || shapeKeys[k + 1] != gy || shapeKeys[k + 2] != gz
					|| shapeKeys[k + 3] != bx || shapeKeys[k + 4] != by || shapeKeys[k + 5] != bz
					|| shapeKeys[k + 6] != sm) {
				if (bytes == null) {
					bytes = new byte[SHAPE_BYTES];
					shapeBytes[slot] = bytes;
				}
				int p = put(GRID, bytes, 0);
				p += ByteSink.putDecimal(Integer.toUnsignedLong(gx), bytes, p);
				bytes[p++] = ',';
				p += ByteSink.putDecimal(Integer.toUnsignedLong(gy), bytes, p);
				bytes[p++] = ',';
				p += ByteSink.putDecimal(Integer.toUnsignedLong(gz), bytes, p);
				p = put(BLOCK, bytes, p);
				p += ByteSink.putDecimal(Integer.toUnsignedLong(bx), bytes, p);
				bytes[p++] = ',';
				p += ByteSink.putDecimal(Integer.toUnsignedLong(by), bytes, p);
				bytes[p++] = ',';
				p += ByteSink.putDecimal(Integer.toUnsignedLong(bz), bytes, p);
				p = put(SHARED, bytes, p);
				p += ByteSink.putDecimal(Integer.toUnsignedLong(sm), bytes, p);
				shapeLength[slot] = p;
				shapeKeys[k] = gx;
				shapeKeys[k + 1] = gy;
				shapeKeys[k + 2] = gz;
				shapeKeys[k + 3] = bx;
				shapeKeys[k + 4] = by;
				shapeKeys[k + 5] = bz;
				shapeKeys[k + 6] = sm;
			}
			out.put(bytes, 0, shapeLength[slot]);
		}

		private static int put(byte[] literal, byte[] into, int at) {
			System.arraycopy(literal, 0, into, at, literal.length);
			return at + literal.length;
		}

		private void writeParams(int i, int length) throws IOException {
			byte[] buffer = length <= paramScratch.length ? paramScratch : new byte[length];
			trace.copyParams(i, buffer, 0);
			out.hexBytes(buffer, 0, length);
		}

		private static String copyName(CopyKind kind) {
			return switch (kind) {
			case H2D -> "HtoD";
			case D2H -> "DtoH";
			case D2D -> "DtoD";
			case H2H -> "HtoH";
			case PEER -> "PtoP";
			case DEFAULT -> "Default";
			default -> "Unknown";
			};
		}

		private byte[] kernelName(int functionId) {
			if (functionId >= 0 && functionId < kernelNames.length && kernelNames[functionId] != null) {
				return kernelNames[functionId];
			}
			return kernelPrefix(ascii("\"function " + Integer.toUnsignedString(functionId) + "\""));
		}

		private void writeHostSlice(int i, Track track, long ts, long dur) throws IOException {
			String api = HostApiNames.of(trace, i);
			byte[] quoted = hostNames.get(api);
			byte[] prefix = quoted != null ? quoted : runtimePrefix(JsonEscape.quoted(api));
			out.reserve(prefix.length + FIXED_RECORD_BYTES);
			out.put(prefix);
			out.put(track.pidTidTs);
			out.putMicros(Math.max(0, ts));
			out.put(DUR);
			out.putMicros(dur);
			out.put(ARGS_CORRELATION);
			out.putDecimal(i);
			switch (trace.kind(i)) {
			case LAUNCH -> {
				// as in Kineto, the runtime slice carries the correlation only; the kernel slice has the details
			}
			case ALLOC -> out.ascii(",\"address\":\"").hexAddress(trace.address(i)).ascii("\",\"size\":")
					.unsignedDecimal(trace.size(i)).ascii(",\"kind\":\"").ascii(trace.allocKind(i).name()).ch('"');
			case FREE -> out.ascii(",\"address\":\"").hexAddress(trace.address(i)).ascii("\",\"kind\":\"")
					.ascii(trace.allocKind(i).name()).ch('"');
			case MEMCPY -> {
				out.ascii(",\"kind\":\"").ascii(trace.copyKind(i).name()).ascii("\",\"bytes\":")
						.unsignedDecimal(trace.bytes(i));
				int payload = trace.payloadLength(i);
				if (payload > 0) {
					out.ascii(",\"payload bytes\":").decimal(payload);
				}
			}
			case MEMSET -> out.ascii(",\"bytes\":").unsignedDecimal(trace.bytes(i));
			case SYNC -> {
				out.ascii(",\"operation\":\"").ascii(trace.syncKind(i).name()).ascii("\",\"stream\":\"")
						.hexAddress(trace.stream(i)).ch('"');
				long event = trace.cudaEvent(i);
				if (event != 0) {
					out.ascii(",\"cuda event\":\"").hexAddress(event).ch('"');
				}
			}
			case GRAPH_LAUNCH -> out.ascii(",\"graph exec\":\"").hexAddress(trace.graphExec(i))
					.ascii("\",\"kernel nodes\":").decimal(Integer.toUnsignedLong(trace.graphKernelNodes(i)))
					.ascii(",\"stream\":\"").hexAddress(trace.stream(i)).ch('"');
			default -> {
				// unknown event: time and thread only
			}
			}
			out.raw(CLOSE_ARGS);
			records++;
		}

		void end() throws IOException {
			for (int t = 0; t < trackCount; t++) {
				settle(tracks[t], Long.MAX_VALUE);
			}
			// a last metadata record closes the array without a trailing comma
			out.ascii("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":").decimal(GPU_PID)
					.ascii(",\"tid\":0,\"args\":{\"name\":\"GPU 0\"}}\n]\n}\n");
			records++;
		}
	}
}
