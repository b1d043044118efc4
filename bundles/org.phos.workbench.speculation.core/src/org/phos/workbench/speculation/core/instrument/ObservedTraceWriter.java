package org.phos.workbench.speculation.core.instrument;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * Writes a copy of a trace with observed accesses added: modules, functions and events as they are, the trace's
 * observed accesses from other tools, then the new ones (as ObservedBatch chunks after the events). Observations the
 * trace already holds from the tools of the new records are replaced, so running an instrumentation twice does not
 * duplicate its truth. Events of a kind this reader does not know are written as no-op {@code SYNC UNKNOWN} events,
 * which keeps every event index (launches are referred to by index).
 */
public final class ObservedTraceWriter {

	private ObservedTraceWriter() {
	}

	/** Events compressed as the recorder writes them: a trace whose copies carry full payloads stays small. */
	private static final TraceWriter.Options COMPRESSED = new TraceWriter.Options(true, true, 3, 1 << 20);

	/**
	 * @param trace the recorded trace
	 * @param observed the new observations
	 * @param out the file to write, created or truncated and written in place: callers write it under a temporary
	 *            name and rename it when complete ({@code org.phos.workbench.cr.core.io.OutputFile}, as
	 *            {@code merge-observed} and the PTX instrumentation do), and never give the trace's own file
	 * @throws IOException when writing fails
	 */
	public static void write(Trace trace, Collection<ObservedAccess> observed, Path out) throws IOException {
		write(trace, observed, List.of(), out);
	}

	/**
	 * As {@link #write(Trace, Collection, Path)}, also with the coverage of the new observations (which launches the
	 * observer observed, i15-cost); the trace's own coverage of the tools of the new records is replaced too.
	 */
	public static void write(Trace trace, Collection<ObservedAccess> observed, Collection<ObservationCoverage> coverage,
			Path out) throws IOException {
		Set<String> tools = new HashSet<>();
		for (ObservationCoverage c : coverage) {
			tools.add(c.tool());
		}
		for (ObservedAccess a : observed) {
			tools.add(a.tool());
		}
		try (TraceWriter w = TraceWriter.create(out, trace.header(), COMPRESSED)) {
			for (ModuleInfo m : trace.modules()) {
				w.module(m);
			}
			for (FunctionInfo f : trace.functions()) {
				w.function(f);
			}
			for (int i = 0; i < trace.eventCount(); i++) {
				TraceEvent e = trace.event(i);
				// an event this reader did not know cannot be written back; a no-op SYNC keeps the event indices
				w.write(e instanceof TraceEvent.Unknown u ? new TraceEvent.Sync(u.hostNs(), u.thread(),
						SyncKind.UNKNOWN, 0, 0, 0) : e);
			}
			for (ObservedAccess a : trace.observedAccesses()) {
				if (!tools.contains(a.tool())) {
					w.observed(a);
				}
			}
			for (ObservedAccess a : observed) {
				w.observed(a);
			}
			for (ObservationCoverage c : trace.observationCoverage()) {
				if (!tools.contains(c.tool())) {
					w.coverage(c);
				}
			}
			for (ObservationCoverage c : coverage) {
				w.coverage(c);
			}
			TraceEnd end = trace.end();
			if (end != null) {
				w.droppedEvents(end.droppedEvents());
			}
		}
	}
}
