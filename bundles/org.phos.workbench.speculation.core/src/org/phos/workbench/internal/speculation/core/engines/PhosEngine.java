package org.phos.workbench.internal.speculation.core.engines;

import static org.phos.workbench.speculation.core.SpeculatedAccess.READ;
import static org.phos.workbench.speculation.core.SpeculatedAccess.READ_WRITE;
import static org.phos.workbench.speculation.core.SpeculatedAccess.WHOLE_ALLOCATION;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.demangle.DemangledName;
import org.phos.workbench.speculation.core.demangle.ItaniumDemangler;
import org.phos.workbench.speculation.core.demangle.KernelSignature;
import org.phos.workbench.speculation.core.demangle.ParameterType;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code phos}: PhoenixOS's released speculation, as the baseline.
 * <ul>
 * <li>The kernel's mangled name is demangled; a data pointer parameter whose pointee is {@code const} is read, any
 * other data pointer is read-write (nothing is write-only). An {@code extern "C"} name, a name the demangler does not
 * understand, or a signature whose parameter count differs from the recorded layout types nothing.</li>
 * <li>Every other parameter of 8 bytes or more ("suspicious": structs by value, 64-bit integers, untyped
 * parameters) is scanned on the function's <b>first launch only</b>, at every byte offset, as a 48-bit little-endian
 * address; each hit becomes a fixed (parameter, offset) pair read as a 48-bit address on every launch and treated
 * read-write. A pointer that is null at the first launch, or moves to another offset later, is missed.</li>
 * <li>Only allocations made by plain {@code cudaMalloc} ({@link AllocKind#PLAIN}, {@link AllocKind#PITCHED}) are
 * tracked; pools, managed memory and VMM mappings are invisible.</li>
 * <li>Granularity is the whole allocation.</li>
 * </ul>
 * Without a recorded parameter layout the whole buffer is one suspicious parameter.
 */
public final class PhosEngine implements SpeculationEngine {

	/** The registry name. */
	public static final String NAME = "phos";

	private static final long ADDRESS_48 = (1L << 48) - 1;

	/** What phos knows of one function. */
	private static final class Model {
		/** Typed pointers: buffer offset, parameter index, mode. */
		int[] typedOffset = new int[0];
		int[] typedParam = new int[0];
		int[] typedMode = new int[0];
		/** Suspicious parameters, scanned at the first launch: buffer offset and size, parameter index. */
		int[] scanOffset = new int[0];
		int[] scanSize = new int[0];
		int[] scanParam = new int[0];
		boolean scanned;
		/** Fixed (parameter, offset) pairs found by the scan: buffer offset of the 48-bit address, parameter. */
		int[] pairOffset = new int[0];
		int[] pairParam = new int[0];
	}

	private final Trace trace;
	private final PerFunction<Model> models;
	private final List<String> notes = new ArrayList<>();

	/** @param trace the trace it will speculate */
	public PhosEngine(Trace trace) {
		this.trace = trace;
		this.models = new PerFunction<>(id -> model(trace.functionById(id)));
	}

	@Override
	public Memory memory() {
		return Memory.FIRST_LAUNCH_OF_FUNCTION; // the scan offsets
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public List<String> notes() {
		return List.copyOf(notes);
	}

	@Override
	public boolean speculate(LaunchContext launch, AccessSink sink) {
		Model m = models.get(launch.functionId());
		for (int t = 0; t < m.typedOffset.length; t++) {
			emit(launch, sink, launch.paramLong(m.typedOffset[t]), m.typedMode[t], m.typedParam[t],
					m.typedOffset[t]);
		}
		if (!m.scanned) {
			scan(launch, m);
		}
		for (int p = 0; p < m.pairOffset.length; p++) {
			emit(launch, sink, launch.paramLong(m.pairOffset[p]) & ADDRESS_48, READ_WRITE, m.pairParam[p],
					m.pairOffset[p]);
		}
		return true;
	}

	private static void emit(LaunchContext launch, AccessSink sink, long address, int mode, int param, int offset) {
		if (address == 0) {
			return;
		}
		long id = launch.findAllocation(address);
		if (id < 0 || !tracked(launch.allocationKind(id))) {
			return;
		}
		long base = launch.allocationBase(id);
		sink.access(id, base, base, base + launch.allocationSize(id), mode | WHOLE_ALLOCATION, param, offset);
	}

	private static boolean tracked(AllocKind kind) {
		return kind == AllocKind.PLAIN || kind == AllocKind.PITCHED;
	}

	/** The first-launch scan: every byte offset of every suspicious parameter, as a 48-bit address. */
	private static void scan(LaunchContext launch, Model m) {
		byte[] bytes = launch.paramBytes();
		int length = launch.paramLength();
		int[] offsets = new int[8];
		int[] params = new int[8];
		int n = 0;
		for (int s = 0; s < m.scanOffset.length; s++) {
			int end = Math.min(m.scanOffset[s] + m.scanSize[s], length);
			for (int at = m.scanOffset[s]; at + 6 <= end; at++) {
				long address = 0;
				for (int k = 5; k >= 0; k--) {
					address = address << 8 | (bytes[at + k] & 0xffL);
				}
				if (address == 0) {
					continue;
				}
				long id = launch.findAllocation(address);
				if (id >= 0 && tracked(launch.allocationKind(id))) {
					if (n == offsets.length) {
						offsets = Arrays.copyOf(offsets, n * 2);
						params = Arrays.copyOf(params, n * 2);
					}
					offsets[n] = at;
					params[n++] = m.scanParam[s];
				}
			}
		}
		m.pairOffset = Arrays.copyOf(offsets, n);
		m.pairParam = Arrays.copyOf(params, n);
		m.scanned = true;
	}

	private Model model(@Nullable FunctionInfo function) {
		Model m = new Model();
		List<ParamInfo> layout = function == null ? List.of() : function.params();
		if (function == null || layout.isEmpty()) {
			if (function == null) {
				notes.add("a launched function is missing from the trace; scanning its whole parameter buffer");
			}
			m.scanOffset = new int[] { 0 };
			m.scanSize = new int[] { Integer.MAX_VALUE / 2 };
			m.scanParam = new int[] { -1 };
			return m;
		}
		DemangledName name = ItaniumDemangler.demangle(function.mangledName());
		KernelSignature signature = name.signature();
		if (signature != null && signature.size() != layout.size()) {
			notes.add(function.mangledName() + ": signature has " + signature.size() + " parameters, layout "
					+ layout.size() + "; typing nothing");
			signature = null;
		}
		List<int[]> typed = new ArrayList<>();
		List<int[]> scanned = new ArrayList<>();
		for (int i = 0; i < layout.size(); i++) {
			ParamInfo p = layout.get(i);
			ParameterType type = signature == null ? null : signature.parameter(i);
			if (type != null && type.isDataPointer() && p.size() == 8) {
				typed.add(new int[] { p.offset(), i, type.isWritablePointer() ? READ_WRITE : READ });
			} else if (p.size() >= 8) {
				scanned.add(new int[] { p.offset(), p.size(), i });
			}
		}
		m.typedOffset = typed.stream().mapToInt(a -> a[0]).toArray();
		m.typedParam = typed.stream().mapToInt(a -> a[1]).toArray();
		m.typedMode = typed.stream().mapToInt(a -> a[2]).toArray();
		m.scanOffset = scanned.stream().mapToInt(a -> a[0]).toArray();
		m.scanSize = scanned.stream().mapToInt(a -> a[1]).toArray();
		m.scanParam = scanned.stream().mapToInt(a -> a[2]).toArray();
		return m;
	}

	@Override
	public String toString() {
		return NAME + " on " + trace.functions().size() + " functions";
	}
}
