package org.phos.workbench.internal.cli.info;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.validate.PtxCoverage;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.phos.workbench.analysis.core.summary.TraceSummary;
import org.phos.workbench.analysis.core.summary.TraceSummary.AllocationEntry;
import org.phos.workbench.analysis.core.summary.TraceSummary.AllocationStats;
import org.phos.workbench.analysis.core.summary.TraceSummary.CopyStats;
import org.phos.workbench.analysis.core.summary.TraceSummary.KernelStats;
import org.phos.workbench.analysis.core.summary.TraceSummary.KindStats;
import org.phos.workbench.analysis.core.summary.TraceSummary.StreamStats;
import org.phos.workbench.analysis.core.summary.TraceSummary.TimeSpan;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceAnomaly;
import org.phos.workbench.trace.core.TraceWarning;

/**
 * The {@code --json} form of {@code workbench info}: one object per trace with the same content as the text, in
 * raw units (bytes, ns since the trace start, addresses as hex strings); unsigned 64-bit trace values are written
 * as unsigned decimal numbers.
 */
public final class SummaryJson {

	private SummaryJson() {
	}

	public static void write(String file, TraceSummary s, List<TraceWarning> warnings, List<TraceAnomaly> anomalies,
			int top, JsonWriter json) {
		write(file, s, null, warnings, anomalies, top, json);
	}

	/** As above, with the launches per PTX status (i15-val) as {@code "ptx"}, when {@code ptx} is given. */
	public static void write(String file, TraceSummary s, PtxCoverage.@Nullable Summary ptx,
			List<TraceWarning> warnings, List<TraceAnomaly> anomalies, int top, JsonWriter json) {
		TraceHeader h = s.header();
		json.beginObject();
		json.field("file", file);
		json.name("header").beginObject();
		json.field("formatVersion", h.formatVersion());
		json.field("recorder", h.recorder());
		json.field("recorderVersion", h.recorderVersion());
		json.field("host", h.host());
		json.name("pid").unsignedValue(Integer.toUnsignedLong(h.pid()));
		json.name("argv").beginArray();
		for (String arg : h.argv()) {
			json.value(arg);
		}
		json.endArray();
		json.field("device", h.deviceName());
		json.field("computeCapability", h.ccMajor() + "." + h.ccMinor());
		json.field("driverVersion", h.driverVersion());
		json.field("runtimeVersion", h.runtimeVersion());
		json.field("clockDomain", h.clockDomain());
		json.name("startUnixNs").unsignedValue(h.startUnixNs());
		json.name("deviceMemory").unsignedValue(h.deviceMemory());
		json.name("payloadLimit").unsignedValue(h.payloadLimit());
		json.field("gpuTiming", h.gpuTiming());
		json.field("allocatorEvents", h.allocatorEvents()); // i15-alloc: "" when not asked for
		json.field("workingDirectory", h.workingDirectory()); // "" when not recorded
		json.endObject();
		TraceEnd end = s.end();
		json.field("closedCleanly", end != null);
		if (end != null) {
			json.name("eventsWritten").unsignedValue(end.eventCount());
			json.name("droppedEvents").unsignedValue(end.droppedEvents());
			// i16-rec: begin
			json.name("unrecordedCalls").beginArray();
			for (TraceEnd.UnrecordedCalls u : end.unrecorded()) {
				json.beginObject().field("call", u.call()).name("count").unsignedValue(u.count()).endObject();
			}
			json.endArray();
			// i16-rec: end
		}
		json.field("events", s.eventCount());
		json.name("counts").beginObject();
		for (Map.Entry<EventKind, Integer> e : s.counts().entrySet()) {
			json.field(e.getKey().name().toLowerCase(Locale.ROOT), e.getValue());
		}
		json.endObject();
		// i16-rec: begin
		json.name("extras").beginObject();
		json.name("arrays").unsignedValue(s.extras().arrays());
		json.name("arrayBytes").unsignedValue(s.extras().arrayBytes());
		json.name("tensorMaps").unsignedValue(s.extras().tensorMaps());
		json.name("hostFunctions").unsignedValue(s.extras().hostFunctions());
		json.name("unrecordedCalls").unsignedValue(s.extras().unrecorded());
		json.endObject();
		// i16-rec: end
		json.field("modules", s.modules());
		json.field("functions", s.functions());
		json.field("parameterBytes", s.parameterBytes());
		json.field("payloadBytes", s.payloadBytes());
		if (ptx != null) { // i15-val: begin
			json.name("ptx").beginObject().field("launches", ptx.launches()).field("launchesWithPtx", ptx.withPtx())
					.field("launchesWithoutPtx", ptx.withoutPtx()).field("line", ptx.line())
					.name("launchesByStatus").beginObject();
			for (PtxCoverage.Status st : PtxCoverage.Status.values()) {
				json.field(st.label(), ptx.launchesByStatus().getOrDefault(st, 0L));
			}
			json.endObject().name("kernelsByStatus").beginObject();
			for (PtxCoverage.Status st : PtxCoverage.Status.values()) {
				json.field(st.label(), ptx.kernelsByStatus().getOrDefault(st, 0L));
			}
			json.endObject().endObject();
		} // i15-val: end
		json.name("observed").beginObject();
		json.field("records", s.observed().records());
		json.field("launches", s.observed().launches());
		json.field("reliableLaunches", s.observed().reliableLaunches());
		json.field("truth", s.observed().truth());
		json.name("tools").beginArray();
		for (String tool : s.observed().tools()) {
			json.value(tool);
		}
		json.endArray();
		json.endObject();
		TimeSpan span = s.span();
		json.name("timeSpan").beginObject();
		json.name("hostFirstNs").unsignedValue(span.hostFirstNs());
		json.name("hostLastNs").unsignedValue(span.hostLastNs());
		json.name("gpuFirstNs").unsignedValue(span.gpuFirstNs());
		json.name("gpuLastNs").unsignedValue(span.gpuLastNs());
		json.field("gpuOperations", span.gpuOps());
		json.field("timedGpuOperations", span.timedOps());
		json.endObject();
		json.name("kernelsByLaunches").beginArray();
		for (KernelStats k : s.kernels().subList(0, Math.min(top, s.kernels().size()))) {
			kernel(json, k);
		}
		json.endArray();
		json.name("kernelsByGpuTime").beginArray();
		List<KernelStats> byTime = s.kernelsByGpuTime();
		for (KernelStats k : byTime.subList(0, Math.min(top, byTime.size()))) {
			kernel(json, k);
		}
		json.endArray();
		json.field("kernelCount", s.kernels().size());
		AllocationStats a = s.allocations();
		json.name("allocations").beginObject();
		json.field("allocs", a.allocs());
		json.field("frees", a.frees());
		json.field("freesOfUnknownAddresses", a.unknownFrees());
		json.name("peakLiveBytes").unsignedValue(a.peakLiveBytes());
		json.field("peakEvent", a.peakEvent());
		json.name("liveBytesAtEnd").unsignedValue(a.liveBytesAtEnd());
		json.field("liveCountAtEnd", a.liveCountAtEnd());
		json.name("byKind").beginObject();
		for (Map.Entry<AllocKind, KindStats> e : a.byKind().entrySet()) {
			json.name(e.getKey().name().toLowerCase(Locale.ROOT)).beginObject().field("count", e.getValue().count())
					.name("bytes").unsignedValue(e.getValue().bytes()).endObject();
		}
		json.endObject();
		json.name("largest").beginArray();
		for (AllocationEntry e : a.largest()) {
			json.beginObject().field("event", e.event()).field("address", "0x" + Long.toHexString(e.address()))
					.name("size").unsignedValue(e.size()).field("kind", e.kind().name().toLowerCase(Locale.ROOT))
					.field("liveAtEnd", e.liveAtEnd()).endObject();
		}
		json.endArray();
		json.endObject();
		json.name("copies").beginObject();
		for (Map.Entry<CopyKind, CopyStats> e : s.copies().entrySet()) {
			json.name(e.getKey().name()).beginObject().field("count", e.getValue().count())
					.name("bytes").unsignedValue(e.getValue().bytes()).field("withPayload", e.getValue().withPayload()).endObject();
		}
		json.endObject();
		json.name("streams").beginArray();
		for (StreamStats st : s.streams()) {
			json.beginObject().field("stream", "0x" + Long.toHexString(st.stream())).field("launches", st.launches())
					.field("copies", st.copies()).field("memsets", st.memsets()).field("syncs", st.syncs())
					.field("other", st.other()).name("gpuBusyNs").unsignedValue(st.gpuBusyNs()).endObject();
		}
		json.endArray();
		json.name("warnings").beginArray();
		for (TraceWarning w : warnings) {
			json.beginObject().field("offset", w.offset()).field("message", w.message()).endObject();
		}
		for (String note : s.notes()) {
			json.beginObject().field("message", note).endObject();
		}
		json.endArray();
		json.name("anomalies").beginArray();
		for (TraceAnomaly anomaly : anomalies) {
			json.beginObject().field("kind", anomaly.kind().name()).name("count").unsignedValue(anomaly.count())
					.field("firstEvent", anomaly.firstEvent()).field("first", anomaly.first())
					.field("message", anomaly.message())
					.endObject();
		}
		json.endArray();
		json.endObject();
	}

	private static void kernel(JsonWriter json, KernelStats k) {
		json.beginObject().field("function", k.functionId()).field("name", k.name()).field("launches", k.launches())
				.field("timedLaunches", k.timedLaunches()).name("gpuNs").unsignedValue(k.gpuNs()).endObject();
	}
}
