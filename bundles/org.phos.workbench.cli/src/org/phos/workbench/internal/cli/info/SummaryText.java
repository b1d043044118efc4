package org.phos.workbench.internal.cli.info;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.validate.PtxCoverage;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.phos.workbench.internal.cli.util.Human;
import org.phos.workbench.analysis.core.format.KernelNames;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceAnomaly;
import org.phos.workbench.trace.core.TraceWarning;
import org.phos.workbench.analysis.core.summary.TraceSummary;
import org.phos.workbench.analysis.core.summary.TraceSummary.AllocationEntry;
import org.phos.workbench.analysis.core.summary.TraceSummary.AllocationStats;
import org.phos.workbench.analysis.core.summary.TraceSummary.CopyStats;
import org.phos.workbench.analysis.core.summary.TraceSummary.KernelStats;
import org.phos.workbench.analysis.core.summary.TraceSummary.KindStats;
import org.phos.workbench.analysis.core.summary.TraceSummary.StreamStats;
import org.phos.workbench.analysis.core.summary.TraceSummary.TimeSpan;

/**
 * The text of {@code workbench info}: a header block, then aligned tables (events, kernels by launches and by GPU
 * time, allocations, copies, streams) and the warnings (damaged file) and anomalies (strange contents), in at most
 * about 100 columns. Trace values are unsigned 64-bit and printed as such.
 */
public final class SummaryText {

	private static final int NAME_WIDTH = 64;

	private SummaryText() {
	}

	public static void print(String file, TraceSummary s, List<TraceWarning> warnings, List<TraceAnomaly> anomalies,
			int top, PrintStream out) {
		print(file, s, null, warnings, anomalies, top, out);
	}

	/** As above, with the line on which launches have their kernel's PTX (i15-val), when {@code ptx} is given. */
	public static void print(String file, TraceSummary s, PtxCoverage.@Nullable Summary ptx,
			List<TraceWarning> warnings, List<TraceAnomaly> anomalies, int top, PrintStream out) {
		TraceHeader h = s.header();
		out.println(file);
		field(out, "recorder", h.recorder() + " " + h.recorderVersion()
				+ (h.host().isEmpty() ? "" : " on " + h.host()) + ", pid " + Integer.toUnsignedString(h.pid()));
		field(out, "command", h.argv().isEmpty() ? "(not recorded)" : Human.printable(String.join(" ", h.argv())));
		if (!h.workingDirectory().isEmpty()) {
			field(out, "directory", Human.printable(h.workingDirectory()));
		}
		String device = h.deviceName().isEmpty() ? "(unknown device)" : h.deviceName();
		device += ", compute capability " + h.ccMajor() + "." + h.ccMinor();
		if (h.deviceMemory() != 0) {
			device += ", " + Human.bytes(h.deviceMemory());
		}
		field(out, "device", device);
		field(out, "CUDA", "driver " + Human.cudaVersion(h.driverVersion()) + ", runtime "
				+ Human.cudaVersion(h.runtimeVersion()) + ", GPU timing " + (h.gpuTiming() ? "on" : "off")
				+ ", payloads up to " + Human.bytes(h.payloadLimit()));
		field(out, "started", Human.unixTime(h.startUnixNs()) + " (" + h.clockDomain() + ")");
		TraceEnd end = s.end();
		field(out, "closed", end == null ? "NO: the trace was not closed cleanly (the recorder stopped early?)"
				: "cleanly, " + Human.count(end.eventCount()) + " events written, " + Human.count(end.droppedEvents())
						+ " dropped");
		field(out, "contents", Human.count(s.eventCount()) + " events, " + plural(s.modules(), "module") + ", "
				+ plural(s.functions(), "function") + ", " + Human.bytes(s.parameterBytes()) + " of launch parameters, "
				+ Human.bytes(s.payloadBytes()) + " of copy payloads");
		// i15-alloc: begin
		int blocks = s.counts().getOrDefault(EventKind.ALLOCATOR_BLOCK, 0);
		if (blocks > 0 || !s.header().allocatorEvents().isEmpty()) {
			String from = s.header().allocatorEvents().isEmpty() ? "a caching allocator"
					: s.header().allocatorEvents() + "'s caching allocator";
			field(out, "allocator", blocks > 0 ? Human.count(blocks) + " block events from " + from
					: "block events of " + from + " were asked for, none recorded (the recorder's stderr says why)");
		}
		// i15-alloc: end
		// i16-rec: begin
		TraceSummary.ExtraStats x = s.extras();
		if (x.any()) {
			field(out, "Hopper", plural((int) Math.min(Integer.MAX_VALUE, x.arrays()), "CUDA array") + " ("
					+ Human.bytes(x.arrayBytes()) + "), " + plural((int) Math.min(Integer.MAX_VALUE, x.tensorMaps()),
							"tensor map")
					+ ", " + plural((int) Math.min(Integer.MAX_VALUE, x.hostFunctions()), "host function")
					+ " in streams" + (x.unrecorded() == 0 ? ""
							: "; " + Human.count(x.unrecorded()) + " calls changed memory without an event (see Warnings)"));
		}
		// i16-rec: end
		TraceSummary.ObservedStats observed = s.observed();
		field(out, "observed", observed.records() == 0 ? "no observed accesses (no ground truth for validate)"
				: Human.count(observed.records()) + " access records for " + Human.count(observed.launches()) + " of "
						+ Human.count(s.counts().getOrDefault(EventKind.LAUNCH, 0)) + " launches, by "
						+ String.join(", ", observed.tools()));
		if (observed.launches() > 0 || observed.invalidWarning() != null) {
			field(out, "truth", observed.truth() + (observed.invalidWarning() == null ? ""
					: "; " + observed.invalidWarning()));
		}
		if (ptx != null) { // i15-val
			field(out, "PTX", ptx.line());
		}
		TimeSpan span = s.span();
		field(out, "host time", Human.unsignedDuration(span.hostLastNs() - span.hostFirstNs()) + " ("
				+ Human.unsignedDuration(span.hostFirstNs()) + " .. " + Human.unsignedDuration(span.hostLastNs())
				+ " after start)");
		field(out, "GPU time", span.timedOps() == 0
				? "not measured (" + Human.count(span.gpuOps()) + " GPU operations without GPU times)"
				: Human.unsignedDuration(span.gpuLastNs() - span.gpuFirstNs()) + " (" + Human.unsignedDuration(span.gpuFirstNs())
						+ " .. " + Human.unsignedDuration(span.gpuLastNs()) + "), " + Human.count(span.timedOps()) + " of "
						+ Human.count(span.gpuOps()) + " GPU operations timed"
						+ (s.header().timingSampling().sampled() ? "; " + s.header().timingSampling().describe()
								+ ": kernel GPU times below are estimated per launch shape (function, grid, block) "
								+ "from the timed launches" : ""));

		out.println();
		out.println("Events");
		for (Map.Entry<EventKind, Integer> e : s.counts().entrySet()) {
			out.printf(Locale.ROOT, "  %-14s %12s%n", e.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' '),
					Human.count(e.getValue()));
		}
		out.printf(Locale.ROOT, "  %-14s %12s%n", "total", Human.count(s.eventCount()));

		List<KernelStats> kernels = s.kernels();
		if (!kernels.isEmpty()) {
			long allLaunches = kernels.stream().mapToLong(KernelStats::launches).sum();
			out.println();
			out.println("Kernels by launches (" + shown(top, kernels.size()) + ")");
			out.printf(Locale.ROOT, "  %12s %7s %11s %5s  %s%n", "launches", "share", "GPU time", "fn", "kernel");
			for (KernelStats k : kernels.subList(0, Math.min(top, kernels.size()))) {
				out.printf(Locale.ROOT, "  %12s %7s %11s %5s  %s%n", Human.count(k.launches()),
						Human.percent((double) k.launches() / allLaunches), gpuTime(k), k.functionId(),
						KernelNames.shorten(k.name(), NAME_WIDTH));
			}
			long total = s.kernelGpuNs();
			out.println();
			if (total == 0) {
				out.println("Kernels by GPU time: no launch has GPU times (record with GPU timing on)");
			} else {
				out.println("Kernels by GPU time (" + shown(top, kernels.size()) + ", " + Human.unsignedDuration(total)
						+ " in all)");
				out.printf(Locale.ROOT, "  %11s %7s %12s %10s %5s  %s%n", "GPU time", "share", "launches", "average",
						"fn", "kernel");
				for (KernelStats k : s.kernelsByGpuTime().subList(0, Math.min(top, kernels.size()))) {
					out.printf(Locale.ROOT, "  %11s %7s %12s %10s %5s  %s%n", gpuTime(k),
							Human.percent(Human.unsigned(k.gpuNs()) / Human.unsigned(total)), Human.count(k.launches()),
							k.timedLaunches() == 0 ? "-"
									: Human.unsignedDuration(Long.divideUnsigned(k.gpuNs(),
											s.header().timingSampling().sampled() ? k.launches() : k.timedLaunches())),
							k.functionId(), KernelNames.shorten(k.name(), NAME_WIDTH));
				}
			}
		}

		AllocationStats a = s.allocations();
		out.println();
		if (a.allocs() == 0 && a.frees() == 0) {
			out.println("Allocations: none");
		} else {
			out.println("Allocations: " + Human.count(a.allocs()) + " allocations, " + Human.count(a.frees())
					+ " frees; peak live " + Human.bytes(a.peakLiveBytes()) + " at event " + a.peakEvent()
					+ "; live at end " + Human.bytes(a.liveBytesAtEnd()) + " in " + Human.count(a.liveCountAtEnd())
					+ " allocations");
			out.printf(Locale.ROOT, "  %-12s %12s %12s%n", "kind", "count", "bytes");
			for (Map.Entry<AllocKind, KindStats> e : a.byKind().entrySet()) {
				out.printf(Locale.ROOT, "  %-12s %12s %12s%n", e.getKey().name().toLowerCase(Locale.ROOT),
						Human.count(e.getValue().count()), Human.bytes(e.getValue().bytes()));
			}
			if (!a.largest().isEmpty()) {
				out.println("  largest:");
				out.printf(Locale.ROOT, "  %12s  %-18s %-12s %10s  %s%n", "size", "address", "kind", "event", "");
				for (AllocationEntry e : a.largest()) {
					out.printf(Locale.ROOT, "  %12s  %-18s %-12s %10s  %s%n", Human.bytes(e.size()),
							Human.hex(e.address()), e.kind().name().toLowerCase(Locale.ROOT), e.event(),
							e.liveAtEnd() ? "live at end" : "freed");
				}
			}
		}

		if (!s.copies().isEmpty()) {
			out.println();
			out.println("Copies");
			out.printf(Locale.ROOT, "  %-10s %12s %12s %14s%n", "direction", "count", "bytes", "with payload");
			for (Map.Entry<CopyKind, CopyStats> e : s.copies().entrySet()) {
				out.printf(Locale.ROOT, "  %-10s %12s %12s %14s%n", e.getKey().name(), Human.count(e.getValue().count()),
						Human.bytes(e.getValue().bytes()), Human.count(e.getValue().withPayload()));
			}
		}

		if (!s.streams().isEmpty()) {
			out.println();
			out.println("Streams (" + s.streams().size() + ")");
			out.printf(Locale.ROOT, "  %-30s %10s %9s %9s %9s %9s %11s%n", "stream", "launches", "copies", "memsets",
					"syncs", "other", "GPU busy");
			for (StreamStats st : s.streams()) {
				out.printf(Locale.ROOT, "  %-30s %10s %9s %9s %9s %9s %11s%n", streamName(st.stream()),
						Human.count(st.launches()), Human.count(st.copies()), Human.count(st.memsets()),
						Human.count(st.syncs()), Human.count(st.other()),
						st.gpuBusyNs() == 0 ? "-" : Human.unsignedDuration(st.gpuBusyNs()));
			}
		}

		if (!warnings.isEmpty() || !s.notes().isEmpty()) {
			out.println();
			out.println("Warnings");
			for (TraceWarning w : warnings) {
				out.println("  at byte offset " + w.offset() + ": " + w.message());
			}
			for (String note : s.notes()) {
				out.println("  " + note);
			}
		}

		if (!anomalies.isEmpty()) {
			out.println();
			out.println("Anomalies (a well-formed trace that says strange things: analyses may rest on wrong data)");
			for (TraceAnomaly anomaly : anomalies) {
				out.println("  " + anomaly.message());
			}
		}
	}

	static String streamName(long stream) {
		if (stream == 0) {
			return "0 (legacy default)";
		}
		if (stream == 2) {
			return "2 (per-thread default)";
		}
		return Human.hex(stream);
	}

	private static String plural(long n, String noun) {
		return Human.count(n) + " " + noun + (n == 1 ? "" : "s");
	}

	private static String gpuTime(KernelStats k) {
		return k.timedLaunches() == 0 ? "-" : Human.unsignedDuration(k.gpuNs());
	}

	private static String shown(int top, int all) {
		return all <= top ? "all " + all : "top " + top + " of " + all;
	}

	private static void field(PrintStream out, String name, String value) {
		out.printf(Locale.ROOT, "  %-10s %s%n", name, value);
	}
}
