package org.phos.workbench.speculation.core.validate;

import java.util.EnumMap;
import java.util.Map;

/**
 * Aggregate accuracy of one engine over a set of launches (one kernel, or a whole trace). Recalls count
 * (launch, allocation) pairs: a pair with observed writes is recalled when every written byte was speculated as
 * written. Byte precision is the share of speculated bytes that the launch really touched.
 *
 * @param launches launches compared (those with observed accesses)
 * @param unsafeLaunches launches with at least one unsafe verdict (missed write, wrong direction)
 * @param verdicts number of (launch, allocation) pairs per verdict
 * @param writePairs pairs with observed writes
 * @param writePairsRecalled of those, fully speculated as written
 * @param readPairs pairs with observed reads
 * @param readPairsRecalled of those, fully speculated as read
 * @param writtenBytes observed written bytes
 * @param writtenBytesRecalled of those, speculated as written
 * @param speculatedBytes bytes speculated (read or written), summed over pairs
 * @param usefulBytes of those, observed touched
 * @param excludedLaunches observed launches left out because their truth is unreliable ({@link TruthReliability})
 */
public record Accuracy(long launches, long unsafeLaunches, Map<AccessVerdict, Long> verdicts, long writePairs,
		long writePairsRecalled, long readPairs, long readPairsRecalled, long writtenBytes, long writtenBytesRecalled,
		long speculatedBytes, long usefulBytes, long excludedLaunches) {

	/** Copies the map. */
	public Accuracy {
		verdicts = Map.copyOf(verdicts);
	}

	/** @return the number of pairs with this verdict */
	public long count(AccessVerdict verdict) {
		return verdicts.getOrDefault(verdict, 0L);
	}

	/** @return recalled write pairs / write pairs, 1 when nothing was written */
	public double writeRecall() {
		return writePairs == 0 ? 1 : (double) writePairsRecalled / writePairs;
	}

	/** @return recalled read pairs / read pairs, 1 when nothing was read */
	public double readRecall() {
		return readPairs == 0 ? 1 : (double) readPairsRecalled / readPairs;
	}

	/** @return useful bytes / speculated bytes, 1 when nothing was speculated */
	public double bytePrecision() {
		return speculatedBytes == 0 ? 1 : (double) usefulBytes / speculatedBytes;
	}

	/** Sums verdicts as they come. */
	static final class Tally {
		long launches;
		long unsafeLaunches;
		final long[] verdicts = new long[AccessVerdict.values().length];
		long writePairs;
		long writePairsRecalled;
		long readPairs;
		long readPairsRecalled;
		long writtenBytes;
		long writtenBytesRecalled;
		long speculatedBytes;
		long usefulBytes;
		long excluded;

		/** Adds another tally's counts to this one (parts of one walk). */
		void add(Tally o) {
			launches += o.launches;
			unsafeLaunches += o.unsafeLaunches;
			for (int v = 0; v < verdicts.length; v++) {
				verdicts[v] += o.verdicts[v];
			}
			writePairs += o.writePairs;
			writePairsRecalled += o.writePairsRecalled;
			readPairs += o.readPairs;
			readPairsRecalled += o.readPairsRecalled;
			writtenBytes += o.writtenBytes;
			writtenBytesRecalled += o.writtenBytesRecalled;
			speculatedBytes += o.speculatedBytes;
			usefulBytes += o.usefulBytes;
			excluded += o.excluded;
		}

		Accuracy toAccuracy() {
			Map<AccessVerdict, Long> map = new EnumMap<>(AccessVerdict.class);
			for (AccessVerdict v : AccessVerdict.values()) {
				map.put(v, verdicts[v.ordinal()]);
			}
			return new Accuracy(launches, unsafeLaunches, map, writePairs, writePairsRecalled, readPairs,
					readPairsRecalled, writtenBytes, writtenBytesRecalled, speculatedBytes, usefulBytes, excluded);
		}
	}
}
