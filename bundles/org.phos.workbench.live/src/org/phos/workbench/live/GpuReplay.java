package org.phos.workbench.live;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.speculation.core.engines.FatbinContainer;
import org.phos.workbench.speculation.core.instrument.AccessTable;
import org.phos.workbench.speculation.core.instrument.AccessTableLayout;
import org.phos.workbench.speculation.core.instrument.AddressRelocation;
import org.phos.workbench.speculation.core.instrument.InputTaint;
import org.phos.workbench.speculation.core.instrument.InstrumentedModule;
import org.phos.workbench.speculation.core.instrument.PtxInstrumenter;
import org.phos.workbench.speculation.core.ptx.PtxFunction;
import org.phos.workbench.speculation.core.ptx.PtxModule;
import org.phos.workbench.speculation.core.ptx.PtxParam;
import org.phos.workbench.speculation.core.ptx.PtxParseException;
import org.phos.workbench.speculation.core.ptx.PtxParser;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;

/**
 * Replays a recorded trace on a GPU through a {@link ReplayExecutor}, in event order:
 * <ul>
 * <li><b>allocations</b> get fresh zero-filled device memory of the recorded size; the {@link AddressRelocation}
 * maps recorded to replay addresses (host-pinned allocations are replayed as device memory); frees release it;</li>
 * <li><b>copies</b>: host-to-device from the captured payload, with 8-byte pointer words relocated; bytes without a
 * payload are written as zeros (counted: data-dependent kernels may then take other paths than recorded);
 * device-to-device and fills with relocated addresses; device-to-host and host-to-host copies change no device
 * state and are skipped;</li>
 * <li><b>launches</b> of functions whose module is PTX text run with the recorded grid, block, shared memory and
 * parameter bytes, pointer words relocated (8-byte aligned words that fall in a live recorded allocation), split per
 * parameter by the PTX declaration; launches of other modules (cubin, fatbin) are skipped and noted, so memory they
 * would have written keeps the replay's contents;</li>
 * <li><b>streams and events</b> are mapped to executor streams and events; every launch is followed by a
 * synchronisation, so the replay runs the launches one at a time in issue order (one valid order of the recorded
 * happens-before).</li>
 * </ul>
 * With {@link Options#instrument()} the modules are rewritten by {@link PtxInstrumenter}; before each launch the
 * module's access table is filled with the live allocations and after it read back and decoded into
 * {@link ObservedAccess} records ({@value #TOOL}). Every launch is timed with events around it.
 * <p>
 * The replay knows which device bytes it does not have ({@link InputTaint}: copies without their payload, memory
 * that skipped launches would have written): a launch whose observed reads touch such bytes may have taken other
 * addresses than in the real run, so its records are marked {@link ObservedAccess#INPUTS_UNKNOWN} and counted in
 * {@link GpuReplayResult#unreliableLaunches()}.
 */
public final class GpuReplay {

	/** The tool name of the observed accesses. */
	public static final String TOOL = "ptx-instrument";
	private static final int MAX_NOTES = 200;

	/**
	 * @param instrument whether to run the instrumented modules and collect observed accesses
	 * @param layout the access table layout
	 */
	public record Options(boolean instrument, AccessTableLayout layout) {
	}

	private record LoadedModule(long handle, PtxModule ptx, ReplayExecutor.@Nullable DeviceSymbol table) {
	}

	private final Trace trace;
	private final ReplayExecutor executor;
	private final Options options;
	private final AddressRelocation relocation = new AddressRelocation();
	private final Map<Integer, @Nullable LoadedModule> modules = new HashMap<>();
	private final Map<Integer, Long> functions = new HashMap<>();
	private final Map<Long, Long> streams = new HashMap<>();
	private final Map<Long, Long> events = new HashMap<>();
	private final List<String> notes = new ArrayList<>();
	private final List<ObservedAccess> observed = new ArrayList<>();
	private final List<LaunchTiming> timings = new ArrayList<>();
	private final InputTaint taint = new InputTaint();
	private int unreliable;
	private int replayed;
	private int skipped;
	private int zeroFilled;
	private long relocatedWords;
	private long startEvent;
	private long endEvent;

	private GpuReplay(Trace trace, ReplayExecutor executor, Options options) {
		this.trace = trace;
		this.executor = executor;
		this.options = options;
	}

	/**
	 * Replays the whole trace.
	 *
	 * @param trace the recorded trace
	 * @param executor the GPU to replay on (not closed here)
	 * @param options what to run
	 * @param monitor progress and cancellation, in events
	 * @return what the replay did and observed
	 * @throws ReplayException when a GPU operation fails (the message names the event)
	 */
	public static GpuReplayResult run(Trace trace, ReplayExecutor executor, Options options,
			@Nullable IProgressMonitor monitor) throws ReplayException {
		return new GpuReplay(trace, executor, options).run(monitor);
	}

	private GpuReplayResult run(@Nullable IProgressMonitor monitor) throws ReplayException {
		// driven directly: SubMonitor needs OSGi classes at run time, and the GPU machine runs a plain classpath
		IProgressMonitor sub = monitor == null ? new NullProgressMonitor() : monitor;
		sub.beginTask("GPU replay", trace.eventCount());
		startEvent = executor.createEvent();
		endEvent = executor.createEvent();
		for (int i = 0; i < trace.eventCount(); i++) {
			if (sub.isCanceled()) {
				throw new OperationCanceledException();
			}
			sub.worked(1);
			try {
				step(i);
			} catch (ReplayException e) {
				throw new ReplayException("event " + i + " (" + trace.kind(i) + "): " + e.getMessage(), e);
			}
		}
		sub.done();
		executor.synchronize();
		for (AddressRelocation.Mapping m : relocation.mappings()) {
			executor.free(m.replayBase());
		}
		return new GpuReplayResult(executor.deviceName(), observed, timings, replayed, skipped, zeroFilled,
				relocatedWords, notes, unreliable);
	}

	private void note(String s) {
		if (notes.size() < MAX_NOTES) {
			notes.add(s);
		} else if (notes.size() == MAX_NOTES) {
			notes.add("... further notes left out");
		}
	}

	private void step(int i) throws ReplayException {
		switch (trace.kind(i)) {
			case ALLOC -> alloc(i);
			case FREE -> {
				AddressRelocation.Mapping m = relocation.unmap(trace.address(i));
				if (m != null) {
					executor.free(m.replayBase());
				} else if (trace.address(i) != 0) {
					note("event " + i + ": free of 0x" + Long.toHexString(trace.address(i))
							+ ", not a live recorded allocation");
				}
			}
			case MEMCPY -> copy(i);
			case MEMSET -> fill(i);
			case LAUNCH -> launch(i);
			case SYNC -> sync(i);
			default -> {
				// graph launches: their kernel nodes follow as launches; unknown events change nothing we know
			}
		}
		if (trace.kind(i) != org.phos.workbench.trace.core.EventKind.LAUNCH) {
			taint.event(trace, i);
		}
	}

	private void alloc(int i) throws ReplayException {
		long size = trace.size(i);
		long base = trace.address(i);
		if (size <= 0) {
			return;
		}
		AddressRelocation.Mapping stale = relocation.containingRecorded(base);
		if (stale != null) {
			note("event " + i + ": allocation at 0x" + Long.toHexString(base) + " overlaps a live one (free not "
					+ "recorded); the older one is taken as freed");
			relocation.unmap(stale.recordedBase());
			executor.free(stale.replayBase());
		}
		if (trace.allocKind(i) == AllocKind.HOST_PINNED) {
			note("event " + i + ": host-pinned allocation replayed as device memory");
		}
		long replayBase = executor.allocate(size);
		relocation.map(base, size, replayBase);
	}

	private void copy(int i) throws ReplayException {
		CopyKind kind = trace.copyKind(i);
		long bytes = trace.bytes(i);
		long dst = relocation.toReplay(trace.dst(i));
		long src = relocation.toReplay(trace.src(i));
		if (bytes <= 0 || dst < 0) {
			return; // to the host or to memory we do not replay
		}
		long stream = stream(trace.stream(i));
		if (kind == CopyKind.A2D) {
			// i16-rec: the replay holds no CUDA arrays (their contents come from copies it does not keep): the bytes
			// this copy wrote stay as the replay had them
			note("event " + i + ": copy from a CUDA array into device memory not replayed (arrays are not replayed)");
			return;
		}
		boolean fromHost = kind == CopyKind.H2D || (kind == CopyKind.DEFAULT || kind == CopyKind.UNKNOWN) && src < 0;
		if (!fromHost) {
			if (src >= 0) {
				executor.copyOnDevice(dst, src, bytes, stream);
			}
			return;
		}
		int captured = trace.payloadLength(i);
		if (captured > 0) {
			byte[] data = new byte[captured];
			trace.copyPayload(i, data, 0);
			relocatedWords += relocation.relocateWords(data, 0, captured, trace.dst(i));
			executor.copyToDevice(dst, data, 0, (int) Math.min(captured, bytes), stream);
		}
		if (captured < bytes) {
			zeroFilled++;
			executor.fill(dst + captured, 0, 1, bytes - captured, stream);
		}
	}

	private void fill(int i) throws ReplayException {
		long dst = relocation.toReplay(trace.dst(i));
		if (dst < 0) {
			note("event " + i + ": memset of 0x" + Long.toHexString(trace.dst(i)) + " outside live allocations");
			return;
		}
		int es = Math.max(1, trace.memsetElementSize(i));
		executor.fill(dst, trace.memsetValue(i), es, trace.bytes(i) / es, stream(trace.stream(i)));
	}

	private void sync(int i) throws ReplayException {
		switch (trace.syncKind(i)) {
			case STREAM_CREATE -> streams.put(trace.stream(i), executor.createStream((trace.syncFlags(i) & 1) != 0));
			case EVENT_RECORD -> executor.recordEvent(event(trace.cudaEvent(i)), stream(trace.stream(i)));
			case STREAM_WAIT_EVENT -> executor.waitEvent(stream(trace.stream(i)), event(trace.cudaEvent(i)));
			case STREAM_SYNCHRONIZE, EVENT_SYNCHRONIZE, CONTEXT_SYNCHRONIZE -> executor.synchronize();
			// i16-rec: the program's host code is not here to run; the replay issues in trace order on one host
			// thread, so the work around a host function keeps its stream order without it
			case HOST_FUNCTION, STREAM_CALLBACK -> note("event " + i + ": host function in stream not run (its place in "
					+ "stream order is kept)");
			default -> {
				// create/destroy of events and streams are implied by first use; captures are not operations
			}
		}
	}

	private long stream(long recorded) throws ReplayException {
		if (recorded == 0 || recorded == 1 || recorded == 2) {
			return 0; // legacy and per-thread default streams: the replay runs one host thread
		}
		Long s = streams.get(recorded);
		if (s == null) {
			s = executor.createStream(false);
			streams.put(recorded, s);
		}
		return s;
	}

	private long event(long recorded) throws ReplayException {
		Long e = events.get(recorded);
		if (e == null) {
			e = executor.createEvent();
			events.put(recorded, e);
		}
		return e;
	}

	private @Nullable LoadedModule module(int moduleId) throws ReplayException {
		if (modules.containsKey(moduleId)) {
			return modules.get(moduleId);
		}
		LoadedModule loaded = null;
		ModuleInfo info = trace.moduleById(moduleId);
		int sm = executor.computeCapability();
		String ptx = info == null ? null : ptxText(info, sm);
		int[] ptxTargets = ptx == null && info != null && info.kind() == ModuleKind.FATBIN
				? fatbinPtxTargets(info.image()) : new int[0];
		if (info == null) {
			note("module " + moduleId + " is not in the trace; its launches are skipped");
		} else if (ptx == null && info.image().length == 0 && info.imageSize() > 0) {
			note("module " + moduleId + " (" + info.kind() + ", " + info.origin() + "): its " + info.imageSize()
					+ "-byte image was not recorded (over the recorder's PHOS_MODULE_IMAGE_LIMIT); its launches are "
					+ "skipped");
		} else if (ptxTargets.length > 0) {
			note("module " + moduleId + " (FATBIN, " + info.origin() + ") carries PTX only for "
					+ Arrays.stream(ptxTargets).mapToObj(v -> "sm_" + v).collect(Collectors.joining(", "))
					+ ", newer than this device (sm_" + sm + "); its launches are skipped");
		} else if (ptx == null) {
			note("module " + moduleId + " (" + info.kind() + ", " + info.origin() + ") is not PTX text; its launches "
					+ "are skipped");
		} else {
			try {
				PtxModule parsed = PtxParser.parse("module " + moduleId, ptx);
				if (options.instrument()) {
					InstrumentedModule im = PtxInstrumenter.instrument(parsed, options.layout());
					for (var f : im.functions()) {
						for (String u : f.untracked()) {
							note("module " + moduleId + " " + f.name() + ": untracked " + u);
						}
					}
					long h = executor.loadModule(im.ptx());
					loaded = new LoadedModule(h, parsed, executor.global(h, AccessTableLayout.SYMBOL));
				} else {
					loaded = new LoadedModule(executor.loadModule(ptx), parsed, null);
				}
			} catch (PtxParseException e) {
				note("module " + moduleId + ": " + e.getMessage() + "; its launches are skipped");
			}
		}
		modules.put(moduleId, loaded);
		return loaded;
	}

	/**
	 * @param info a module
	 * @param deviceSm the device's compute capability (10 * major + minor)
	 * @return the PTX text of the module image, or null when it is not PTX or holds no PTX the device can compile
	 */
	static @Nullable String ptxText(ModuleInfo info, int deviceSm) {
		byte[] image = info.image();
		if (image.length == 0 || info.kind() == ModuleKind.CUBIN) {
			return null;
		}
		if (info.kind() == ModuleKind.FATBIN || FatbinContainer.isFatbin(image)) {
			return fatbinPtx(image, deviceSm);
		}
		int len = image.length;
		while (len > 0 && image[len - 1] == 0) {
			len--;
		}
		String text = new String(image, 0, len, StandardCharsets.UTF_8);
		if (info.kind() == ModuleKind.PTX || text.contains(".version") && text.indexOf('\0') < 0) {
			return text;
		}
		return null;
	}

	/**
	 * The PTX a fatbin carries beside its SASS (nvcc embeds it for {@code -arch=sm_XX}), which the replay can
	 * instrument and load: of its PTX entries the one for the highest virtual architecture the device can compile;
	 * null when there is none (libraries such as cuRAND and cuBLAS ship PTX only for the newest architecture, which
	 * an older device's JIT refuses) or the fatbin holds no readable PTX.
	 *
	 * @param image the fatbin
	 * @param deviceSm the device's compute capability (10 * major + minor)
	 */
	static @Nullable String fatbinPtx(byte[] image, int deviceSm) {
		FatbinContainer.Entry best = null;
		for (FatbinContainer.Entry e : FatbinContainer.read(image).entries()) {
			if (e.kind() == FatbinContainer.KIND_PTX && !e.compressed() && e.smVersion() <= deviceSm
					&& (best == null || e.smVersion() > best.smVersion())) {
				best = e;
			}
		}
		return best == null ? null : best.text();
	}

	/** The targets of a fatbin's readable PTX entries, ascending. */
	static int[] fatbinPtxTargets(byte[] image) {
		return FatbinContainer.read(image).entries().stream()
				.filter(e -> e.kind() == FatbinContainer.KIND_PTX && !e.compressed())
				.mapToInt(FatbinContainer.Entry::smVersion).sorted().toArray();
	}

	private void launch(int i) throws ReplayException {
		FunctionInfo f = trace.functionById(trace.functionId(i));
		if (f == null) {
			skipped++;
			taint.launch(trace, i, List.of(), false);
			note("event " + i + ": launch of unknown function " + trace.functionId(i));
			return;
		}
		LoadedModule m = module(f.moduleId());
		PtxFunction fn = m == null ? null : m.ptx().function(f.mangledName()).orElse(null);
		if (m == null || fn == null) {
			skipped++;
			taint.launch(trace, i, List.of(), false);
			if (m != null) {
				note("event " + i + ": " + f.mangledName() + " is not in the PTX of module " + f.moduleId());
			}
			return;
		}
		Long handle = functions.get(f.id());
		if (handle == null) {
			handle = executor.function(m.handle(), f.mangledName());
			functions.put(f.id(), handle);
		}
		byte[] params = new byte[(int) Math.max(trace.paramLength(i), fn.paramBufferSize())];
		trace.copyParams(i, params, 0);
		relocatedWords += relocation.relocateWords(params, 0, trace.paramLength(i), 0);
		List<byte[]> split = new ArrayList<>(fn.params().size());
		for (PtxParam p : fn.params()) {
			byte[] b = new byte[(int) p.size()];
			System.arraycopy(params, (int) p.offset(), b, 0, b.length);
			split.add(b);
		}
		long stream = stream(trace.stream(i));
		AccessTable table = null;
		ReplayExecutor.DeviceSymbol symbol = m.table();
		if (symbol != null) {
			List<AccessTable.Entry> entries = new ArrayList<>(relocation.size());
			for (AddressRelocation.Mapping r : relocation.mappings()) {
				entries.add(new AccessTable.Entry(r.recordedBase(), r.replayBase(), r.size()));
			}
			table = AccessTable.of(options.layout(), entries);
			if (table.omitted() > 0) {
				note("event " + i + ": " + table.omitted() + " live allocations do not fit the access table; "
						+ "their accesses land in the overflow slot");
			}
			byte[] image = table.image();
			executor.copyToDevice(symbol.address(), image, 0, image.length, stream);
		}
		executor.recordEvent(startEvent, stream);
		executor.launch(handle, trace.grid(i), trace.block(i), trace.sharedMem(i), stream, split);
		executor.recordEvent(endEvent, stream);
		executor.synchronize();
		timings.add(new LaunchTiming(i, f.mangledName(), symbol != null, executor.elapsedMs(startEvent, endEvent)));
		List<ObservedAccess> records = List.of();
		if (table != null && symbol != null) {
			byte[] back = new byte[(int) options.layout().bytes()];
			executor.copyToHost(symbol.address(), back, 0, back.length);
			records = table.observed(i, back, relocation, TOOL);
		}
		if (taint.launch(trace, i, records, true) && !records.isEmpty()) {
			unreliable++;
			records = records.stream().map(a -> a.withFlag(ObservedAccess.INPUTS_UNKNOWN)).toList();
		}
		observed.addAll(records);
		replayed++;
	}
}
