package org.phos.workbench.cr.core;

/**
 * One horizontal track of the timeline. Intervals on one lane never overlap (each lane is a serial resource or
 * activity), so charts can draw a lane as one row and Chrome-trace viewers get properly nested tracks.
 *
 * @param id small number, unique within a run; also the Chrome-trace thread id
 * @param name what the lane shows ("stream 7", "engine D2H", "C/R commit D2H")
 * @param kind its group
 */
public record Lane(int id, String name, LaneKind kind) {
    public static final int HOST = 1;
    public static final int ENGINE_H2D = 2;
    public static final int ENGINE_D2H = 3;
    public static final int ENGINE_D2D = 4;
    public static final int CR_COW_D2D = 5;
    public static final int CR_COMMIT_D2H = 6;
    public static final int CR_RESTORE_H2D = 7;
    public static final int CR_CONTROL = 8;
    /** Lane id of application stream {@code s} is {@code FIRST_STREAM + s}. */
    public static final int FIRST_STREAM = 100;

    public static Lane forStream(int stream) {
        return new Lane(FIRST_STREAM + stream, "stream " + stream, LaneKind.APPLICATION);
    }
}
