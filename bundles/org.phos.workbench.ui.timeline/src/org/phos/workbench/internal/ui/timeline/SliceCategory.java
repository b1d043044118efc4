package org.phos.workbench.internal.ui.timeline;

import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.Trace;

/** What kind of work a slice is; each has one colour in the theme registry ({@link #colorKey()}). */
public enum SliceCategory {
    KERNEL("kernel"), GRAPH_NODE("graphNode"), GRAPH_LAUNCH("graphLaunch"), H2D("h2d"), D2H("d2h"), D2D("d2d"),
    COPY_OTHER("copyOther"), MEMSET("memset"), SYNC("sync"), MEMORY("memory");

    private final String key;

    SliceCategory(String key) {
        this.key = key;
    }

    /** The suffix of this category's colour definition after {@code org.phos.workbench.ui.timeline.}. */
    public String colorKey() {
        return key;
    }

    /** The category of event {@code i}. */
    public static SliceCategory of(Trace t, int i) {
        return switch (t.kind(i)) {
            case LAUNCH -> t.launchKind(i) == LaunchKind.GRAPH_NODE ? GRAPH_NODE : KERNEL;
            case GRAPH_LAUNCH -> GRAPH_LAUNCH;
            case MEMCPY -> copy(t.copyKind(i));
            case MEMSET -> MEMSET;
            case SYNC -> SYNC;
            default -> MEMORY;
        };
    }

    private static SliceCategory copy(CopyKind k) {
        return switch (k) {
            case H2D -> H2D;
            case D2H -> D2H;
            case D2D -> D2D;
            default -> COPY_OTHER;
        };
    }
}
