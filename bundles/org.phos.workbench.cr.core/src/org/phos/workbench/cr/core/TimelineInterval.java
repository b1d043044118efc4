package org.phos.workbench.cr.core;

/**
 * Work occupying a lane over {@code [startNs, endNs)}.
 *
 * @param lane lane id
 * @param startNs start in ns on the simulated clock
 * @param endNs end in ns
 * @param label what ran ("kernel name", "commit buf 12", ...)
 * @param category kind of work: "kernel", "copy", "set", "cow", "commit", "restore", "recopy", ...
 * @param buffer buffer id involved, or -1
 * @param bytes bytes moved, or 0
 * @param opIndex index of the application operation, or -1
 */
public record TimelineInterval(int lane, long startNs, long endNs, String label, String category, int buffer,
        long bytes, long opIndex) {
    public static final String KERNEL = "kernel";
    public static final String COPY = "copy";
    public static final String SET = "set";
    public static final String COW = "cow";
    public static final String COMMIT = "commit";
    public static final String RESTORE = "restore";
    public static final String RECOPY = "recopy";
    public static final String CPU_STATE = "cpu-state";

    /** Whether this is the application's own work (kernel, copy, set) rather than C/R work. */
    public boolean isApplication() {
        return opIndex >= 0 && (category.equals(KERNEL) || category.equals(COPY) || category.equals(SET));
    }

    public long durationNs() {
        return endNs - startNs;
    }
}
