package org.phos.workbench.trace.core.attach;

import java.util.Arrays;

/**
 * The launch numbers of one {@link LiveWindow.Snapshot}: a snapshot's trace numbers the launches it holds densely
 * from 0, but a person (and {@code speculate --launch N} on the saved stream) counts launches from the start of the
 * stream, so the live views show {@link #number(int)} instead. The snapshot holds whole batches of the stream (those
 * of the window, and older ones that still hold a live allocation), each a run of consecutive numbers: kept as one
 * pair of (first local index, first number) per batch, found by binary search.
 * <p>
 * The numbers count the launches this reader received: when the reader attached late, or fell behind and missed
 * batches, the process's own trace file holds launches that are not counted (the saved stream numbers them the same
 * way as these numbers do).
 */
public final class LaunchNumbers {
    private final long[] localFirst;
    private final long[] numberFirst;
    private final int launches;
    private final long received;

    LaunchNumbers(long[] localFirst, long[] numberFirst, int launches, long received) {
        this.localFirst = localFirst;
        this.numberFirst = numberFirst;
        this.launches = launches;
        this.received = received;
    }

    /** Numbers {@code 0 .. launches-1} as themselves (a trace that is not a live window). */
    public static LaunchNumbers dense(int launches) {
        return new LaunchNumbers(new long[] { 0 }, new long[] { 0 }, launches, launches);
    }

    /** @return the launches of the snapshot */
    public int launches() {
        return launches;
    }

    /** @return launches received from the stream up to the snapshot (the next launch's number) */
    public long received() {
        return received;
    }

    /**
     * @param local a launch index of the snapshot's trace
     * @return its number in the received stream
     */
    public long number(int local) {
        if (local < 0 || local >= launches) {
            throw new IndexOutOfBoundsException("launch " + local + " of a snapshot holding " + launches);
        }
        int i = Arrays.binarySearch(localFirst, local);
        if (i < 0) {
            i = -i - 2;
        }
        return numberFirst[i] + (local - localFirst[i]);
    }

    /**
     * @param number a launch number of the received stream
     * @return the snapshot's launch index of it, or -1 when the snapshot does not hold it
     */
    public int local(long number) {
        int i = Arrays.binarySearch(numberFirst, number);
        if (i < 0) {
            i = -i - 2;
        }
        if (i < 0) {
            return -1;
        }
        long end = i + 1 < localFirst.length ? localFirst[i + 1] : launches;
        long l = localFirst[i] + (number - numberFirst[i]);
        return l < end ? (int) l : -1;
    }

    /** @return the first local launch whose number is at least {@code number} ({@link #launches()} if none) */
    public int firstAtLeast(long number) {
        int lo = 0;
        int hi = launches;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (number(mid) < number) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    public String toString() {
        return launches == 0 ? "no launches"
                : "launches " + number(0) + " .. " + number(launches - 1) + " (" + launches + " held)";
    }
}
