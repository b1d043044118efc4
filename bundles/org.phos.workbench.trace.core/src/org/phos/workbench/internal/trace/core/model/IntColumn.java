package org.phos.workbench.internal.trace.core.model;

import java.util.Arrays;

/** An append-only paged column of {@code int}; see {@link Pages}. Not thread-safe while growing. */
public final class IntColumn implements Column {
    private int[][] pages = new int[4][];
    private int size;

    public void add(int v) {
        int p = size >>> Pages.SHIFT;
        if (p >= pages.length) {
            pages = Arrays.copyOf(pages, pages.length * 2);
        }
        int[] page = pages[p];
        if (page == null) {
            if (v == 0) {
                size++;
                return;
            }
            page = pages[p] = new int[Pages.SIZE];
        }
        page[size & Pages.MASK] = v;
        size++;
    }

    public int get(int i) {
        int[] page = pages[i >>> Pages.SHIFT];
        return page == null ? 0 : page[i & Pages.MASK];
    }

    /** Overwrites element {@code i < size()}. */
    public void set(int i, int v) {
        int[] page = pages[i >>> Pages.SHIFT];
        if (page == null) {
            if (v == 0) {
                return;
            }
            page = pages[i >>> Pages.SHIFT] = new int[Pages.SIZE];
        }
        page[i & Pages.MASK] = v;
    }

    public int size() {
        return size;
    }

    /** Drops elements from {@code n} on (undoes appends of a chunk that turned out damaged). */
    @Override
    public void truncate(int n) {
        for (int p = Pages.pageCount(n); p < pages.length; p++) {
            pages[p] = null;
        }
        size = n;
    }

    /** Cuts the last page and the page directory to what is used; call once, when no more elements come. */
    @Override
    public void trim() {
        int n = Pages.pageCount(size);
        pages = Arrays.copyOf(pages, Math.max(n, 1));
        int used = size & Pages.MASK;
        if (used != 0 && pages[n - 1] != null) {
            pages[n - 1] = Arrays.copyOf(pages[n - 1], used);
        }
    }

    /** Heap held by this column, in bytes. */
    @Override
    public long footprintBytes() {
        long bytes = Pages.ARRAY_HEADER + 4L * pages.length;
        for (int[] page : pages) {
            if (page != null) {
                bytes += Pages.ARRAY_HEADER + (long) 4 * page.length;
            }
        }
        return bytes;
    }
}
