package org.phos.workbench.live;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.speculation.core.ptx.PtxFunction;
import org.phos.workbench.speculation.core.ptx.PtxModule;
import org.phos.workbench.speculation.core.ptx.PtxParseException;
import org.phos.workbench.speculation.core.ptx.PtxParser;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * Decides, launch by launch, whether a live replay runs the recorded code or a surrogate (no GPU needed: the
 * decision rests on the trace's module images and the device's compute capability). A launch runs its own code when
 * its module's image holds PTX the device can compile ({@link GpuReplay#ptxText}) that parses and declares the
 * function; otherwise it is a surrogate that takes the recorded GPU duration and writes the launch's observed
 * write ranges, or, without observed accesses, the speculated ones ({@link Operation#writes()}).
 */
public final class LaunchPlanner {

	private record ModuleText(@Nullable PtxModule module, String reason) {
	}

	private final Trace trace;
	private final int deviceSm;
	private final Map<Integer, ModuleText> modules = new HashMap<>();

	/** @param deviceSm the device's compute capability, 10 * major + minor */
	public LaunchPlanner(Trace trace, int deviceSm) {
		this.trace = trace;
		this.deviceSm = deviceSm;
	}

	/** The PTX text of a module that runs on the device, or null. */
	public @Nullable String ptx(int moduleId) {
		ModuleInfo info = trace.moduleById(moduleId);
		return info == null ? null : GpuReplay.ptxText(info, deviceSm);
	}

	private ModuleText module(int moduleId) {
		return modules.computeIfAbsent(moduleId, id -> {
			ModuleInfo info = trace.moduleById(id);
			if (info == null) {
				return new ModuleText(null, "module " + id + " is not in the trace");
			}
			if (info.image().length == 0) {
				return new ModuleText(null, "module " + id + " (" + info.kind() + "): image not recorded");
			}
			String text = GpuReplay.ptxText(info, deviceSm);
			if (text == null) {
				return new ModuleText(null, "module " + id + " (" + info.kind() + "): no PTX for sm_" + deviceSm);
			}
			try {
				return new ModuleText(PtxParser.parse("module " + id, text), "");
			} catch (PtxParseException e) {
				return new ModuleText(null, "module " + id + ": PTX does not parse (" + e.getMessage() + ")");
			}
		});
	}

	/**
	 * @param op a launch of the workload made from this trace ({@link Operation#index()} is its event)
	 * @return how to run it
	 */
	public LaunchPlan plan(Operation op) {
		if (op.kind() != OperationKind.LAUNCH) {
			throw new IllegalArgumentException("operation " + op.index() + " is a " + op.kind() + ", not a launch");
		}
		int e = (int) op.index();
		long duration = Math.max(0, op.gpuDurationNs());
		boolean observed = op.observedWrites() != null;
		List<org.phos.workbench.cr.core.BufferRange> writes = observed ? op.observedWrites() : op.writes();
		String source = observed ? "observed" : "speculated";
		FunctionInfo f = trace.functionById(trace.functionId(e));
		if (f == null) {
			return new LaunchPlan(e, -1, null, duration, writes, source, "function " + trace.functionId(e)
					+ " is not in the trace");
		}
		ModuleText m = module(f.moduleId());
		PtxModule ptx = m.module();
		if (ptx == null) {
			return new LaunchPlan(e, f.moduleId(), null, duration, writes, source, m.reason());
		}
		PtxFunction fn = ptx.function(f.mangledName()).orElse(null);
		if (fn == null) {
			return new LaunchPlan(e, f.moduleId(), null, duration, writes, source, f.mangledName()
					+ " is not in the PTX of module " + f.moduleId());
		}
		return new LaunchPlan(e, f.moduleId(), fn, duration, List.of(), "", "");
	}
}
