package org.phos.workbench.speculation.core.validate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.phos.workbench.speculation.core.instrument.InputTaint;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservedIndex;
import org.phos.workbench.trace.core.Trace;

/**
 * Which observed launches' truth can be stood behind, computed from the trace and its observed records (so traces
 * instrumented before records carried {@link ObservedAccess#INPUTS_UNKNOWN} get it too). A launch's truth is
 * unreliable when
 * <ul>
 * <li>{@link Reason#INPUTS_UNKNOWN}: a record is marked {@link ObservedAccess#INPUTS_UNKNOWN}, or it comes from the
 * GPU replay ({@value InputTaint#REPLAY_TOOL}) and {@link InputTaint} finds that it read bytes the replay did not have
 * (copies beyond the recorder's payload limit, replayed as zeros; memory written by launches the replay could not
 * run). Truth from the sanitizer tool, observed in the real process on the real data, is reliable in this respect;
 * so is that of any other tool name, which is taken as observed in the real process;</li>
 * <li>{@link Reason#GRAPH_NODE_AMBIGUOUS}: records of the sanitizer tool for a kernel node of a graph launch with
 * several kernel nodes (the tool has one callback-data slot per graph launch and cannot tell the nodes apart; it
 * writes none for them, older side files may hold them).</li>
 * </ul>
 * Unreliable launches are left out of accuracy figures and counted.
 */
public final class TruthReliability {

	/** Why a launch's truth is unreliable. */
	public enum Reason {
		/** It read bytes the observer did not have. */
		INPUTS_UNKNOWN,
		/** Sanitizer records of a kernel node of a multi-node graph launch. */
		GRAPH_NODE_AMBIGUOUS
	}

	private final Map<Integer, Reason> unreliable;
	/** The keys of {@link #unreliable}, asked once per observed launch by the validator without boxing. */
	private final java.util.BitSet unreliableEvents = new java.util.BitSet();
	private final int observed;

	private TruthReliability(Map<Integer, Reason> unreliable, int observed) {
		this.unreliable = Collections.unmodifiableMap(unreliable);
		this.observed = observed;
		for (int event : unreliable.keySet()) {
			if (event >= 0) {
				unreliableEvents.set(event);
			}
		}
	}

	/**
	 * @param trace the trace
	 * @param index its observed records (of the tool being judged, or all)
	 * @return the launches of {@code index} whose truth is unreliable
	 */
	public static TruthReliability of(Trace trace, ObservedIndex index) {
		Map<Integer, Reason> out = new TreeMap<>();
		Map<Integer, List<ObservedAccess>> replay = new HashMap<>();
		List<ObservedAccess> records = index.records(); // by launch, as index.records(launch) for each launch
		for (int r = 0, n = records.size(); r < n; r++) {
			ObservedAccess a = records.get(r);
			int launch = (int) a.launchEvent();
			if (a.inputsUnknown()) {
				out.put(launch, Reason.INPUTS_UNKNOWN);
			}
			String tool = a.tool();
			if (InputTaint.REPLAY_TOOL.equals(tool)) {
				replay.computeIfAbsent(launch, k -> new ArrayList<>()).add(a);
			} else if (tool.equals("sanitizer") && multiNodeGraphNode(trace, launch)) {
				out.putIfAbsent(launch, Reason.GRAPH_NODE_AMBIGUOUS);
			}
		}
		if (!replay.isEmpty()) {
			for (int launch : InputTaint.unreliableLaunches(trace, replay)) {
				out.put(launch, Reason.INPUTS_UNKNOWN);
			}
		}
		return new TruthReliability(out, index.launchCount());
	}

	private static boolean multiNodeGraphNode(Trace trace, int launch) {
		if (trace.launchKind(launch) != LaunchKind.GRAPH_NODE) {
			return false;
		}
		long g = trace.graphLaunchEvent(launch);
		return g >= 0 && g < trace.eventCount() && trace.kind((int) g) == EventKind.GRAPH_LAUNCH
				&& trace.graphKernelNodes((int) g) > 1;
	}

	/** @return whether launch event {@code event}'s truth (if any) can be used */
	public boolean reliable(int event) {
		return event < 0 ? !unreliable.containsKey(event) : !unreliableEvents.get(event);
	}

	/** @return the unreliable launch events with their reason, ascending */
	public Map<Integer, Reason> unreliable() {
		return unreliable;
	}

	/** @return observed launches whose truth is unreliable */
	public int unreliableCount() {
		return unreliable.size();
	}

	/** @return observed launches whose truth is unreliable for {@code reason} */
	public int count(Reason reason) {
		return (int) unreliable.values().stream().filter(r -> r == reason).count();
	}

	/** @return observed launches whose truth is reliable */
	public int reliableCount() {
		return observed - unreliable.size();
	}

	/**
	 * @return one line for a reader: how many observed launches are reliable, and why the others are not (no
	 *         trailing newline)
	 */
	public String summary() {
		if (unreliable.isEmpty()) {
			return "all " + observed + " observed launches reliable";
		}
		StringBuilder s = new StringBuilder();
		s.append(reliableCount()).append(" of ").append(observed).append(" observed launches reliable; ")
				.append(unreliable.size()).append(" excluded (");
		int inputs = count(Reason.INPUTS_UNKNOWN);
		int graph = count(Reason.GRAPH_NODE_AMBIGUOUS);
		if (inputs > 0) {
			s.append(inputs).append(" read bytes the GPU replay did not have: copies over the recorder's payload "
					+ "limit (re-record with PHOS_PAYLOAD_LIMIT above the largest copy) or data of launches it could not "
					+ "run");
		}
		if (graph > 0) {
			s.append(inputs > 0 ? "; " : "").append(graph)
					.append(" sanitizer records of kernel nodes of multi-node graph launches, which it cannot tell apart");
		}
		return s.append(')').toString();
	}
}
