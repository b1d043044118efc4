package org.phos.workbench.internal.trace.core.model;

/**
 * Page geometry shared by the columns. Columns grow a page at a time (no 2x growth slack, no copy of what is
 * already stored); a page that has only received zeros is never allocated, so optional fields (GPU times when
 * timing was off) cost nothing. After {@code trim()} the last page is cut to its used length.
 */
final class Pages {
    static final int SHIFT = 14;
    static final int SIZE = 1 << SHIFT;
    static final int MASK = SIZE - 1;
    /** Approximate heap overhead of one array object (header + length, compressed oops). */
    static final int ARRAY_HEADER = 16;

    private Pages() {
    }

    static int pageCount(int size) {
        return (size + MASK) >>> SHIFT;
    }
}
