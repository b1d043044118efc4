package org.phos.workbench.cr.core;

/** The group a timeline lane belongs to (one Chrome-trace process per group). */
public enum LaneKind {
    /** The application's host thread (C/R stalls appear here) and its streams. */
    APPLICATION,
    /** A copy engine, shared by the application's copies and C/R copies. */
    COPY_ENGINE,
    /** A checkpoint/restore activity: CoW D2D, commit D2H, restore H2D. */
    CHECKPOINT_RESTORE
}
