package org.phos.workbench.live;

import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.SimulationMetrics;

/**
 * What one live run did.
 *
 * @param metrics the run's figures, in the simulator's terms (stalls, checkpoint summary, bytes per lane), so every
 *        view and writer of simulated runs takes live ones alike
 * @param image the checkpoint image (null for {@link LiveCrEngine.Mode#NONE} or when the instant was never reached)
 * @param reference the stop-the-world reference image taken at the drain instant, when asked for
 * @param realLaunches launches that ran their recorded code
 * @param surrogateLaunches launches that ran as surrogates ({@link SurrogateKernels})
 * @param validationFallbacks buffers copied stop-and-copy because a launch's observed writes fell outside the
 *        speculated sets
 * @param unvalidatedLaunches launches after the instant that ran real code without observed accesses (their writes
 *        could not be checked against the sets)
 * @param copyBytes bytes the checkpoint copied to the host (commit and fallbacks)
 * @param copyBusyNs GPU time from the first to the last checkpoint copy to the host
 * @param notes what the run could not take as recorded, one line each (bounded)
 * @param snapshotAddresses the device address of each buffer of the image (buffer id to address)
 * @param placements every allocation the replay made (freed ones too), for comparing images and read-backs of
 *        two replays up to the relocation of pointer words ({@link LiveImage#firstDifference(LiveImage,
 *        LiveImage.Relocation)})
 * @param readBacks the device-to-host copies of the trace after the instant, as this replay read them back
 *        (reference runs only, at most 256 MiB): the restore check compares a restored run's with an uninterrupted
 *        run's
 * @param rounds soft recopy and repeated checkpoints: every checkpoint's image (and reference), with the launches
 *        issued when it was taken (the instant a second replay stops at to compare) and the operation it was taken
 *        before (-1: the end of the trace); empty for the other policies
 */
public record LiveRunResult(SimulationMetrics metrics, @Nullable LiveImage image, @Nullable LiveImage reference,
		int realLaunches, int surrogateLaunches, int validationFallbacks, int unvalidatedLaunches, long copyBytes,
		long copyBusyNs, List<String> notes, Map<Integer, Long> snapshotAddresses, List<Placement> placements,
		List<ReadBack> readBacks, List<Round> rounds) {

	/** One checkpoint of a run with several (or of a recopy: the image of the stop). */
	public record Round(int number, LiveImage image, @Nullable LiveImage reference, long launches, long opIndex) {
	}

	/** The bytes a device-to-host copy of the trace read: operation, buffer, offset in it. */
	public record ReadBack(long op, int buffer, long offset, byte[] bytes) {
	}

	/** Where a replay put a buffer: {@code [address, address + size)}. */
	public record Placement(int buffer, long address, long size) {
	}

	public LiveRunResult {
		notes = List.copyOf(notes);
		snapshotAddresses = Map.copyOf(snapshotAddresses);
		placements = List.copyOf(placements);
		readBacks = List.copyOf(readBacks);
		rounds = List.copyOf(rounds);
	}

	/** @return checkpoint copy bandwidth in GB/s (10^9 bytes), NaN when nothing was copied */
	public double copyGBps() {
		return copyBusyNs <= 0 ? Double.NaN : copyBytes / (double) copyBusyNs;
	}

	/** Frees the images' pinned memory. */
	public void close() {
		if (image != null) {
			image.close();
		}
		if (reference != null) {
			reference.close();
		}
		for (Round r : rounds) {
			r.image().close();
			if (r.reference() != null) {
				r.reference().close();
			}
		}
	}
}
