package org.phos.workbench.internal.speculation.core.engines;

import static org.phos.workbench.speculation.core.SpeculatedAccess.READ;
import static org.phos.workbench.speculation.core.SpeculatedAccess.READ_WRITE;
import static org.phos.workbench.speculation.core.SpeculatedAccess.WHOLE_ALLOCATION;
import static org.phos.workbench.speculation.core.SpeculatedAccess.WRITE;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.ptx.AccessRange;
import org.phos.workbench.speculation.core.ptx.KernelAccessSummary;
import org.phos.workbench.speculation.core.ptx.LinearBound;
import org.phos.workbench.speculation.core.ptx.ParamWordAccess;
import org.phos.workbench.speculation.core.ptx.PtxFlowAnalyzer;
import org.phos.workbench.speculation.core.ptx.PtxFunction;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code ptx-flow}: for kernels whose module carries PTX, the {@link PtxFlowAnalyzer} verdict of each parameter word
 * (computed once per function) is applied to each launch: a word the analysis found used as an address is resolved
 * against the live allocations (any kind), with the direction the analysis found, over the byte range it bounded
 * (relative to the pointer's value, evaluated with the launch's scalar arguments, clipped to the allocation) or the
 * whole allocation where it could not. A word marked {@code unknown} (textures, calls...) is read-write, whole
 * allocation. Launches of functions without PTX are not covered (combine with {@code arg-scan}).
 * <p>
 * Limits: pointers loaded from memory (pointer tables) are not followed here (see the {@code +indirect} modifier);
 * the analysis assumes 32-bit index arithmetic does not wrap.
 */
public final class PtxFlowEngine implements SpeculationEngine {

	/** The registry name. */
	public static final String NAME = "ptx-flow";

	/** A function's verdict compiled for the hot path; words that are not pointers are left out. */
	static final class Plan {
		static final Plan NO_PTX = new Plan(null);

		final @Nullable KernelAccessSummary summary;
		final int[] offset;
		final int[] param;
		final boolean[] unknown;
		final int[] mode;
		final @Nullable Range[] read;
		final @Nullable Range[] write;

		Plan(@Nullable KernelAccessSummary summary) {
			this.summary = summary;
			List<ParamWordAccess> words = summary == null ? List.of()
					: summary.words().stream().filter(w -> w.pointer() || w.unknown()).toList();
			int n = words.size();
			offset = new int[n];
			param = new int[n];
			unknown = new boolean[n];
			mode = new int[n];
			read = new Range[n];
			write = new Range[n];
			for (int i = 0; i < n; i++) {
				ParamWordAccess w = words.get(i);
				offset[i] = (int) w.offset();
				param[i] = w.paramIndex();
				unknown[i] = w.unknown();
				mode[i] = (w.read() ? READ : 0) | (w.written() ? WRITE : 0);
				// a direction the analysis found without a range (it should not happen) is taken as whole
				read[i] = w.read() ? orWhole(Range.of(w.readRange())) : null;
				write[i] = w.written() ? orWhole(Range.of(w.writeRange())) : null;
			}
		}
	}

	private static Range orWhole(@Nullable Range r) {
		return r == null ? Range.WHOLE : r;
	}

	/**
	 * A range relative to the pointer: whole allocation, or {@code [low, high)} with both ends linear in scalar
	 * arguments (the low end has terms for a slice {@code base[off ..)} with {@code off} passed by value).
	 */
	record Range(boolean whole, Linear low, Linear high) {

		static final Linear ZERO = new Linear(0, new int[0], new int[0], new boolean[0], new long[0]);
		static final Range WHOLE = new Range(true, ZERO, ZERO);

		static @Nullable Range of(AccessRange r) {
			if (r instanceof AccessRange.Bounded b) {
				return new Range(false, Linear.of(b.lowBound()), Linear.of(b.high()));
			}
			return r instanceof AccessRange.Whole ? WHOLE : null;
		}

		/** The exclusive upper bound for a launch, relative to the pointer. */
		long high(LaunchContext launch) {
			return high.evaluate(launch);
		}

		/** The first byte for a launch, relative to the pointer. */
		long low(LaunchContext launch) {
			return low.evaluate(launch);
		}
	}

	/** {@code constant + sum(coefficient * parameter)}, parameters read from the launch's buffer. */
	record Linear(long constant, int[] termOffset, int[] termSize, boolean[] termSigned, long[] termCoefficient) {

		static Linear of(LinearBound bound) {
			int n = bound.terms().size();
			int[] off = new int[n];
			int[] size = new int[n];
			boolean[] signed = new boolean[n];
			long[] coefficient = new long[n];
			for (int i = 0; i < n; i++) {
				LinearBound.Term t = bound.terms().get(i);
				off[i] = (int) t.paramOffset();
				size[i] = t.size();
				signed[i] = t.signed();
				coefficient[i] = t.coefficient();
			}
			return new Linear(bound.constant(), off, size, signed, coefficient);
		}

		boolean constantOnly() {
			return termOffset.length == 0;
		}

		long evaluate(LaunchContext launch) {
			long value = constant;
			for (int i = 0; i < termOffset.length; i++) {
				long raw = launch.paramLong(termOffset[i]);
				long v = switch (termSize[i]) {
					case 1 -> termSigned[i] ? (byte) raw : raw & 0xff;
					case 2 -> termSigned[i] ? (short) raw : raw & 0xffff;
					case 4 -> termSigned[i] ? (int) raw : raw & 0xffff_ffffL;
					default -> raw;
				};
				value += termCoefficient[i] * v;
			}
			return value;
		}

		/**
		 * @return whether a term's value reads differently as signed and as unsigned (its top bit set): PTX loads
		 *         an {@code int} as {@code .u32} and sign-extends it later, so such a value is not trusted
		 */
		boolean ambiguous(LaunchContext launch) {
			for (int i = 0; i < termOffset.length; i++) {
				long raw = launch.paramLong(termOffset[i]);
				boolean top = switch (termSize[i]) {
					case 1 -> (raw & 0x80) != 0;
					case 2 -> (raw & 0x8000) != 0;
					case 4 -> (raw & 0x8000_0000L) != 0;
					default -> raw < 0;
				};
				if (top) {
					return true;
				}
			}
			return false;
		}
	}

	private final PtxSource source;
	private final PerFunction<Plan> plans;
	private final List<String> notes = new ArrayList<>();
	private int analysed;

	/** @param trace the trace it will speculate */
	public PtxFlowEngine(Trace trace) {
		source = new PtxSource(trace, notes);
		plans = new PerFunction<>(id -> plan(trace.functionById(id)));
	}

	@Override
	public Memory memory() {
		// its plans come from the module's PTX, not from launches; but it analyses a function at its first launch and
		// its notes count what it analysed, which a part should know of the launches before it too
		return Memory.FIRST_LAUNCH_OF_FUNCTION;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public List<String> notes() {
		List<String> all = new ArrayList<>(notes);
		all.add(analysed + " functions analysed from PTX");
		return all;
	}

	/**
	 * @param functionId a function of the trace
	 * @return its analysis, or null without PTX
	 */
	public @Nullable KernelAccessSummary summary(int functionId) {
		return plans.get(functionId).summary;
	}

	private Plan plan(@Nullable FunctionInfo function) {
		if (function == null) {
			return Plan.NO_PTX;
		}
		PtxFunction kernel = source.kernel(function.moduleId(), function.mangledName());
		if (kernel == null) {
			return Plan.NO_PTX;
		}
		try {
			KernelAccessSummary summary = PtxFlowAnalyzer.analyze(kernel);
			analysed++;
			return new Plan(summary);
		} catch (RuntimeException e) {
			notes.add(function.mangledName() + ": ptx-flow analysis failed (" + e + "); not covered");
			return Plan.NO_PTX;
		}
	}

	@Override
	public boolean speculate(LaunchContext launch, AccessSink sink) {
		Plan plan = plans.get(launch.functionId());
		if (plan == Plan.NO_PTX) {
			return false;
		}
		for (int w = 0; w < plan.offset.length; w++) {
			long pointer = launch.paramLong(plan.offset[w]);
			if (pointer == 0) {
				continue;
			}
			long id = launch.findAllocation(pointer);
			if (id < 0) {
				continue;
			}
			long base = launch.allocationBase(id);
			long end = base + launch.allocationSize(id);
			if (plan.unknown[w]) {
				sink.access(id, base, base, end, READ_WRITE | WHOLE_ALLOCATION, plan.param[w], plan.offset[w]);
				continue;
			}
			emit(launch, sink, plan.read[w], READ, id, base, end, pointer, plan.param[w], plan.offset[w]);
			emit(launch, sink, plan.write[w], WRITE, id, base, end, pointer, plan.param[w], plan.offset[w]);
		}
		return true;
	}

	private static void emit(LaunchContext launch, AccessSink sink, @Nullable Range range, int mode, long id,
			long base, long end, long pointer, int param, int offset) {
		if (range == null) {
			return;
		}
		if (range.whole()) {
			sink.access(id, base, base, end, mode | WHOLE_ALLOCATION, param, offset);
			return;
		}
		if (!range.low().constantOnly() && range.low().ambiguous(launch)) { // i15-prec: a slice's offset
			sink.access(id, base, base, end, mode | WHOLE_ALLOCATION, param, offset);
			return;
		}
		long from = Math.max(base, pointer + range.low(launch));
		long to = Math.min(end, pointer + range.high(launch));
		if (to > from) {
			sink.access(id, base, from, to, mode, param, offset);
		}
	}
}
