package org.phos.workbench.trace.core.javasites;

/**
 * One JCuda driver call as the agent saw it: one line of a {@code .java-sites} file.
 *
 * @param kind      {@code L} launch, {@code M} module load, {@code G} function lookup, {@code A} allocation,
 *                  {@code F} free, {@code C} copy
 * @param startNs   {@code System.nanoTime()} (CLOCK_MONOTONIC) when the call began
 * @param endNs     ... and when it returned or threw
 * @param result    the CUresult as a number ({@code "0"} is success), or {@code "threw CLASS"}
 * @param thread    the Java thread's name
 * @param className the call site: the first frame outside JCuda
 * @param method    its method
 * @param line      its source line, -1 when unknown
 * @param file      its source file name, empty when unknown
 * @param name      launch and lookup: the kernel name; module load: the file name given ({@code cuModuleLoad}), else
 *                  empty
 * @param detail    launch and lookup: the module's name; module load: the image's FNV-1a-64 hash in hex, empty when
 *                  not read
 * @param extra     module load: the image's size in bytes, else empty
 */
public record JavaCall(char kind, long startNs, long endNs, String result, String thread, String className,
        String method, int line, String file, String name, String detail, String extra) {

    /** Whether the call returned CUDA_SUCCESS. */
    public boolean succeeded() {
        return "0".equals(result);
    }

    /** {@code com.example.Main.run(Main.java:42)}, as a Java stack trace prints a frame. */
    public String site() {
        String where = file.isEmpty() ? "Unknown Source" : line >= 0 ? file + ":" + line : file;
        return className + "." + method + "(" + where + ")";
    }
}
