package org.phos.workbench.internal.ui.timeline.cr;

import java.util.Arrays;
import java.util.List;

import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.Marker;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineInterval;

/**
 * What a C/R timeline item is, for its colour (a definition {@code org.phos.workbench.ui.timeline.KEY} in the theme
 * registry): the application's work in the trace timeline's colours (kernels, copies by direction, sets), the C/R
 * activities each in its own (CoW, commit, restore, recopy, CPU state), stalls red, a copy that waited for an engine
 * busy with C/R traffic amber, and the checkpoint markers.
 */
public enum CrCategory {
    KERNEL("kernel"), H2D("h2d"), D2H("d2h"), D2D("d2d"), COPY("copyOther"), SET("memset"), COW("crCow"),
    COMMIT("crCommit"), RESTORE("crRestore"), RECOPY("crRecopy"), CPU_STATE("crCpuState"), OTHER("sync"),
    STALL("crStall"), ENGINE_WAIT("crEngineWait"), MARK_REQUESTED("crMarkRequested"), MARK_INSTANT("crMarkInstant"),
    MARK_COMPLETE("crMarkComplete");

    /** The colour keys in ordinal order (a {@code TimelinePalette}'s categories). */
    public static final List<String> KEYS = Arrays.stream(values()).map(CrCategory::colorKey).toList();

    private final String key;

    CrCategory(String key) {
        this.key = key;
    }

    public String colorKey() {
        return key;
    }

    public static CrCategory of(TimelineInterval i) {
        return switch (i.category()) {
            case TimelineInterval.KERNEL -> KERNEL;
            case TimelineInterval.COPY -> switch (i.lane()) {
                case Lane.ENGINE_H2D -> H2D;
                case Lane.ENGINE_D2H -> D2H;
                case Lane.ENGINE_D2D -> D2D;
                default -> COPY;
            };
            case TimelineInterval.SET -> SET;
            case TimelineInterval.COW -> COW;
            case TimelineInterval.COMMIT -> COMMIT;
            case TimelineInterval.RESTORE -> RESTORE;
            case TimelineInterval.RECOPY -> RECOPY;
            case TimelineInterval.CPU_STATE -> CPU_STATE;
            default -> OTHER;
        };
    }

    public static CrCategory of(StallInterval s) {
        return s.isHostStall() ? STALL : ENGINE_WAIT;
    }

    /** Requested (or a restore started), image complete, or an instant in between (drained, stop for recopy). */
    public static CrCategory of(Marker m) {
        String l = m.label();
        if (l.contains("requested") || l.contains("started")) {
            return MARK_REQUESTED;
        }
        return l.contains("complete") ? MARK_COMPLETE : MARK_INSTANT;
    }
}
