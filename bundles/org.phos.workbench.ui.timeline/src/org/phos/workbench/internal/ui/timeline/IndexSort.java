package org.phos.workbench.internal.ui.timeline;

/**
 * Sorts parallel primitive arrays by start time without boxing (a 10M-event lane would not survive a
 * {@code Integer[]} sort). Lanes are nearly sorted already (host order), so the sorted check usually ends it.
 */
final class IndexSort {
    private IndexSort() {
    }

    static void byStart(long[] starts, long[] ends, int[] events) {
        int n = starts.length;
        boolean sorted = true;
        for (int k = 1; k < n && sorted; k++) {
            sorted = starts[k - 1] <= starts[k];
        }
        if (sorted) {
            return;
        }
        long[] s2 = new long[n];
        long[] e2 = new long[n];
        int[] v2 = new int[n];
        // bottom-up merge sort, stable (equal starts keep event order)
        long[] sa = starts, ea = ends, sb = s2, eb = e2;
        int[] va = events, vb = v2;
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo, j = mid, k = lo;
                while (i < mid || j < hi) {
                    int from = (j >= hi || (i < mid && sa[i] <= sa[j])) ? i++ : j++;
                    sb[k] = sa[from];
                    eb[k] = ea[from];
                    vb[k] = va[from];
                    k++;
                }
            }
            long[] ts = sa; sa = sb; sb = ts;
            long[] te = ea; ea = eb; eb = te;
            int[] tv = va; va = vb; vb = tv;
        }
        if (sa != starts) {
            System.arraycopy(sa, 0, starts, 0, n);
            System.arraycopy(ea, 0, ends, 0, n);
            System.arraycopy(va, 0, events, 0, n);
        }
    }
}
