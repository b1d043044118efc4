package org.phos.workbench.live;

import java.util.List;

import org.phos.workbench.trace.core.ObservedAccess;

/**
 * What a replay did.
 *
 * @param device the GPU's name
 * @param observed observed accesses per replayed launch (empty unless instrumented), recorded addresses
 * @param timings one per replayed launch
 * @param replayedLaunches launches of PTX modules that ran
 * @param skippedLaunches launches not replayed (module not PTX, function unknown), see {@code notes}
 * @param zeroFilledCopies host-to-device copies without a captured payload, replayed as zeros
 * @param relocatedWords pointer words relocated in parameters and payloads
 * @param notes what the replay could not take as recorded, one line each (bounded)
 * @param unreliableLaunches observed launches that read bytes the replay did not have (their records are marked
 *        {@link ObservedAccess#INPUTS_UNKNOWN}: not ground truth)
 */
public record GpuReplayResult(String device, List<ObservedAccess> observed, List<LaunchTiming> timings,
		int replayedLaunches, int skippedLaunches, int zeroFilledCopies, long relocatedWords, List<String> notes,
		int unreliableLaunches) {

	/** Copies the lists. */
	public GpuReplayResult {
		observed = List.copyOf(observed);
		timings = List.copyOf(timings);
		notes = List.copyOf(notes);
	}
}
