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
 * @param directions the figures by direction (i15-val: read and write precision and recall, direction accuracy)
 */
public record Accuracy(long launches, long unsafeLaunches, Map<AccessVerdict, Long> verdicts, long writePairs,
		long writePairsRecalled, long readPairs, long readPairsRecalled, long writtenBytes, long writtenBytesRecalled,
		long speculatedBytes, long usefulBytes, long excludedLaunches, Directions directions) {

	/**
	 * What byte precision cannot tell: whether the bytes an engine speculated were speculated with the right
	 * direction. Every figure is a sum over the judged (launch, allocation) pairs, so that an engine that gets
	 * directions right ({@code ptx-flow}) is credited and one that calls everything read-write is not.
	 * <ul>
	 * <li><b>read precision</b> = bytes speculated read that were observed read / bytes speculated read;</li>
	 * <li><b>write precision</b> = bytes speculated written that were observed written / bytes speculated written;</li>
	 * <li><b>read byte recall</b> = bytes observed read that were speculated read / bytes observed read;</li>
	 * <li><b>write byte recall</b> = bytes observed written that were speculated written / bytes observed written
	 * ({@link Accuracy#writeRecall()} counts pairs instead: a pair missing one byte is not recalled);</li>
	 * <li><b>direction accuracy</b> = pairs both speculated and observed (any bytes) whose speculated direction class
	 * (read only, write only, read-write) equals the observed one / such pairs. A read-write speculation of a
	 * write-only buffer is safe but counts as wrong here.</li>
	 * </ul>
	 *
	 * @param speculatedReadBytes bytes speculated read, summed over pairs
	 * @param readBytes bytes observed read
	 * @param readBytesMatched bytes both speculated and observed read
	 * @param speculatedWrittenBytes bytes speculated written
	 * @param writtenBytes bytes observed written
	 * @param writtenBytesMatched bytes both speculated and observed written
	 * @param directionPairs pairs both speculated and observed
	 * @param directionPairsCorrect of those, with the same direction class on both sides
	 */
	public record Directions(long speculatedReadBytes, long readBytes, long readBytesMatched,
			long speculatedWrittenBytes, long writtenBytes, long writtenBytesMatched, long directionPairs,
			long directionPairsCorrect) {

		/** No pair judged. */
		public static final Directions NONE = new Directions(0, 0, 0, 0, 0, 0, 0, 0);

		/** @return bytes both speculated and observed read / bytes speculated read, 1 when none was speculated read */
		public double readPrecision() {
			return speculatedReadBytes == 0 ? 1 : (double) readBytesMatched / speculatedReadBytes;
		}

		/** @return bytes both speculated and observed written / bytes speculated written, 1 when none */
		public double writePrecision() {
			return speculatedWrittenBytes == 0 ? 1 : (double) writtenBytesMatched / speculatedWrittenBytes;
		}

		/** @return bytes both speculated and observed read / bytes observed read, 1 when none was read */
		public double readRecall() {
			return readBytes == 0 ? 1 : (double) readBytesMatched / readBytes;
		}

		/** @return bytes both speculated and observed written / bytes observed written, 1 when none was written */
		public double writeRecall() {
			return writtenBytes == 0 ? 1 : (double) writtenBytesMatched / writtenBytes;
		}

		/** @return pairs with the right direction class / pairs both speculated and observed, 1 when none */
		public double directionAccuracy() {
			return directionPairs == 0 ? 1 : (double) directionPairsCorrect / directionPairs;
		}
	}

	/** The figures without direction counts (as before i15-val). */
	public Accuracy(long launches, long unsafeLaunches, Map<AccessVerdict, Long> verdicts, long writePairs,
			long writePairsRecalled, long readPairs, long readPairsRecalled, long writtenBytes,
			long writtenBytesRecalled, long speculatedBytes, long usefulBytes, long excludedLaunches) {
		this(launches, unsafeLaunches, verdicts, writePairs, writePairsRecalled, readPairs, readPairsRecalled,
				writtenBytes, writtenBytesRecalled, speculatedBytes, usefulBytes, excludedLaunches,
				new Directions(0, 0, 0, 0, writtenBytes, writtenBytesRecalled, 0, 0));
	}

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
		long speculatedReadBytes;
		long readBytes;
		long readBytesMatched;
		long speculatedWrittenBytes;
		long directionPairs;
		long directionPairsCorrect;

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
			speculatedReadBytes += o.speculatedReadBytes;
			readBytes += o.readBytes;
			readBytesMatched += o.readBytesMatched;
			speculatedWrittenBytes += o.speculatedWrittenBytes;
			directionPairs += o.directionPairs;
			directionPairsCorrect += o.directionPairsCorrect;
		}

		Accuracy toAccuracy() {
			Map<AccessVerdict, Long> map = new EnumMap<>(AccessVerdict.class);
			for (AccessVerdict v : AccessVerdict.values()) {
				map.put(v, verdicts[v.ordinal()]);
			}
			return new Accuracy(launches, unsafeLaunches, map, writePairs, writePairsRecalled, readPairs,
					readPairsRecalled, writtenBytes, writtenBytesRecalled, speculatedBytes, usefulBytes, excluded,
					new Directions(speculatedReadBytes, readBytes, readBytesMatched, speculatedWrittenBytes,
							writtenBytes, writtenBytesRecalled, directionPairs, directionPairsCorrect));
		}
	}
}
