package org.phos.workbench.live;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.phos.workbench.cr.core.io.OutputFile;
import org.phos.workbench.cr.core.io.OutputFiles;
import org.phos.workbench.internal.live.JCudaExecutor;
import org.phos.workbench.internal.live.SelfTestTrace;
import org.phos.workbench.speculation.core.instrument.AccessTableLayout;
import org.phos.workbench.speculation.core.instrument.ObservedTraceWriter;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWarning;

/**
 * Ground truth on the GPU machine: replays a trace's PTX launches twice (plain, then instrumented, each in a fresh
 * context), prints the observed accesses and the instrumentation's slowdown per kernel, and writes a copy of the trace
 * with the observed accesses ({@value GpuReplay#TOOL}).
 *
 * <pre>
 * InstrumentMain TRACE.phos OUT.phos [--max-ranges N]
 * InstrumentMain --selftest PTX_FILE OUT.phos     (sample kernels with known truth; exit 1 on a mismatch)
 * </pre>
 *
 * OUT.phos is written under a temporary name and renamed into place when complete; one that is the input, a symbolic
 * link, a folder, a device or a FIFO is refused before the replay (exit 2).
 * <p>
 * Exit codes: 0 done, 1 self-test mismatch, 2 bad arguments or input, 3 GPU failure, 4 written, but the truth of some
 * launches is unreliable: they read bytes the replay did not have (host-to-device copies over the recorder's payload
 * limit, replayed as zeros, or memory written by launches it could not replay); their records are marked
 * {@code INPUTS_UNKNOWN} and {@code validate} leaves them out. Record with {@code PHOS_PAYLOAD_LIMIT} above the largest
 * copy when the trace is meant for instrumentation.
 */
public final class InstrumentMain {

	private InstrumentMain() {
	}

	/** @param args see the class comment */
	public static void main(String[] args) {
		System.exit(run(args, System.out, System.err));
	}

	/** Opens a fresh GPU context for one replay. */
	@FunctionalInterface
	interface Gpu {
		ReplayExecutor open() throws ReplayException;
	}

	/** @return the exit code */
	static int run(String[] args, PrintStream out, PrintStream err) {
		return run(args, out, err, JCudaExecutor::new);
	}

	/** @return the exit code, replaying on executors from {@code gpu} */
	static int run(String[] args, PrintStream out, PrintStream err, Gpu gpu) {
		boolean selftest = args.length > 0 && args[0].equals("--selftest");
		String[] rest = selftest ? java.util.Arrays.copyOfRange(args, 1, args.length) : args;
		if (rest.length != 2 && !(rest.length == 4 && rest[2].equals("--max-ranges"))) {
			err.println("usage: InstrumentMain TRACE.phos OUT.phos [--max-ranges N]\n"
					+ "       InstrumentMain --selftest PTX_FILE OUT.phos");
			return 2;
		}
		AccessTableLayout layout = AccessTableLayout.DEFAULT;
		try {
			if (rest.length == 4) {
				layout = new AccessTableLayout(Integer.parseInt(rest[3]));
			}
		} catch (IllegalArgumentException e) {
			err.println("--max-ranges: " + e.getMessage());
			return 2;
		}
		Path target = Path.of(rest[1]);
		String refusal = OutputFiles.refusal(target, List.of(Path.of(rest[0])));
		if (refusal != null) {
			err.println(target + ": " + refusal);
			return 2;
		}
		Path folder = target.toAbsolutePath().getParent();
		if (folder != null) {
			for (Path stale : OutputFiles.removeStaleTemporaries(folder)) {
				err.println("removed " + stale + ", left by a run that was killed before it finished");
			}
		}
		Trace trace;
		try {
			if (selftest) {
				trace = SelfTestTrace.build(Files.readString(Path.of(rest[0])));
			} else {
				TraceLoadResult r = TraceReader.read(Path.of(rest[0]), null);
				for (TraceWarning w : r.warnings()) {
					err.println("warning: " + w);
				}
				trace = r.trace();
			}
		} catch (java.nio.file.NoSuchFileException e) {
			err.println(rest[0] + ": no such file");
			return 2;
		} catch (IOException e) {
			err.println(rest[0] + ": " + e.getMessage());
			return 2;
		}
		GpuReplayResult plain;
		GpuReplayResult instrumented;
		try {
			try (ReplayExecutor e = gpu.open()) {
				plain = GpuReplay.run(trace, e, new GpuReplay.Options(false, layout), null);
			}
			try (ReplayExecutor e = gpu.open()) {
				instrumented = GpuReplay.run(trace, e, new GpuReplay.Options(true, layout), null);
			}
		} catch (ReplayException e) {
			err.println("GPU replay failed: " + e.getMessage());
			return 3;
		}
		report(trace, plain, instrumented, out);
		try {
			// under a temporary name, renamed into place when complete (docs/cli.md, "How outputs are written")
			try (OutputFile file = OutputFile.create(target)) {
				ObservedTraceWriter.write(trace, instrumented.observed(), file.temporary());
				file.commit();
			}
			out.println("wrote " + rest[1] + " with " + instrumented.observed().size() + " observed accesses");
		} catch (IOException e) {
			err.println(rest[1] + ": " + e.getMessage());
			return 2;
		}
		if (selftest) {
			List<ObservedAccess> expected = SelfTestTrace.expected(GpuReplay.TOOL);
			if (!expected.equals(instrumented.observed())) {
				out.println("SELFTEST FAIL\n expected " + expected + "\n observed " + instrumented.observed());
				return 1;
			}
			out.println("SELFTEST PASS: " + expected.size() + " observed accesses match the kernels' known accesses");
		}
		if (instrumented.unreliableLaunches() > 0) {
			err.println("UNRELIABLE: the truth of " + instrumented.unreliableLaunches() + " of "
					+ instrumented.observed().stream().mapToLong(ObservedAccess::launchEvent).distinct().count()
					+ " observed launches is not ground truth: they read bytes the replay did not have ("
					+ instrumented.zeroFilledCopies() + " host-to-device copies without their payload, replayed as zeros; "
					+ instrumented.skippedLaunches() + " launches not replayed); their records are marked INPUTS_UNKNOWN "
					+ "and validate leaves them out. Re-record with PHOS_PAYLOAD_LIMIT above the largest copy (e.g. "
					+ "PHOS_PAYLOAD_LIMIT=1g) or observe with the sanitizer tool in the real process");
			return 4;
		}
		return 0;
	}

	private static void report(Trace trace, GpuReplayResult plain, GpuReplayResult instr, PrintStream out) {
		out.println("device: " + instr.device());
		out.printf(Locale.ROOT, "launches replayed %d, skipped %d; H2D copies zero-filled %d; pointer words relocated %d; "
				+ "observed launches with unreliable truth (read bytes the replay did not have) %d%n",
				instr.replayedLaunches(), instr.skippedLaunches(), instr.zeroFilledCopies(), instr.relocatedWords(),
				instr.unreliableLaunches());
		for (String n : instr.notes()) {
			out.println("note: " + n);
		}
		for (ObservedAccess a : instr.observed()) {
			out.printf(Locale.ROOT, "observed launch %d alloc 0x%x read %s (%d) written %s (%d)%s%n", a.launchEvent(),
					a.allocation(), a.read(), a.readCount(), a.written(), a.writeCount(),
					a.inputsUnknown() ? " INPUTS_UNKNOWN" : "");
		}
		Map<String, double[]> perKernel = new LinkedHashMap<>();
		for (LaunchTiming t : plain.timings()) {
			double[] v = perKernel.computeIfAbsent(t.function(), k -> new double[3]);
			v[0] += t.ms();
			v[2]++;
		}
		for (LaunchTiming t : instr.timings()) {
			perKernel.computeIfAbsent(t.function(), k -> new double[3])[1] += t.ms();
		}
		out.println("kernel,launches,plain_ms,instrumented_ms,slowdown");
		double p = 0;
		double q = 0;
		for (Map.Entry<String, double[]> e : perKernel.entrySet()) {
			double[] v = e.getValue();
			p += v[0];
			q += v[1];
			out.printf(Locale.ROOT, "%s,%d,%.4f,%.4f,%.2f%n", e.getKey(), (int) v[2], v[0], v[1], v[1] / v[0]);
		}
		out.printf(Locale.ROOT, "TOTAL,%d,%.4f,%.4f,%.2f%n", plain.timings().size(), p, q, q / p);
	}
}
