package org.phos.workbench.live.agent;

/**
 * The JCuda driver entry points the agent instruments, by what the workbench learns from them. Each public static
 * {@code int} method of {@code jcuda.driver.JCudaDriver} whose name and descriptor match one of these is wrapped;
 * everything else in the class is left as it is.
 */
public enum DriverCall {
    /** {@code cuLaunchKernel}, {@code cuLaunchCooperativeKernel}: the Java call site of a kernel launch. */
    LAUNCH('L'),
    /** {@code cuModuleLoad*}: the name the program gives a module (file name) and its image's hash. */
    MODULE_LOAD('M'),
    /** {@code cuModuleGetFunction}: which kernel name a {@code CUfunction} object stands for. */
    GET_FUNCTION('G'),
    /** {@code cuMemAlloc*}. */
    ALLOC('A'),
    /** {@code cuMemFree*}. */
    FREE('F'),
    /** {@code cuMemcpy*}. */
    COPY('C');

    /** The letter that starts this call's line in the side file (docs/trace-format.md "Java call sites"). */
    public final char letter;

    DriverCall(char letter) {
        this.letter = letter;
    }

    /** The internal name of the class the agent instruments. */
    public static final String DRIVER_CLASS = "jcuda/driver/JCudaDriver";

    /**
     * Which call a method of {@code JCudaDriver} is, or null when the agent leaves it alone. Only public static
     * methods returning {@code int} (a CUresult) qualify; the descriptors are JCuda 12.0.0's.
     */
    public static DriverCall of(String name, String descriptor) {
        if (!descriptor.endsWith(")I")) {
            return null;
        }
        if (name.equals("cuLaunchKernel") || name.equals("cuLaunchCooperativeKernel")) {
            return descriptor.startsWith("(Ljcuda/driver/CUfunction;") ? LAUNCH : null;
        }
        if (name.equals("cuModuleLoad") || name.equals("cuModuleLoadData") || name.equals("cuModuleLoadDataEx")
                || name.equals("cuModuleLoadFatBinary")) {
            return descriptor.startsWith("(Ljcuda/driver/CUmodule;") ? MODULE_LOAD : null;
        }
        if (name.equals("cuModuleGetFunction")) {
            return descriptor.equals("(Ljcuda/driver/CUfunction;Ljcuda/driver/CUmodule;Ljava/lang/String;)I")
                    ? GET_FUNCTION : null;
        }
        if (name.startsWith("cuMemAlloc")) {
            return ALLOC;
        }
        if (name.startsWith("cuMemFree")) {
            return FREE;
        }
        if (name.startsWith("cuMemcpy")) {
            return COPY;
        }
        return null;
    }

    /** How many leading (object) arguments the hook receives for this call. */
    int argumentsPassed() {
        return switch (this) {
            case LAUNCH -> 1;
            case MODULE_LOAD -> 2;
            case GET_FUNCTION -> 3;
            default -> 0;
        };
    }
}
