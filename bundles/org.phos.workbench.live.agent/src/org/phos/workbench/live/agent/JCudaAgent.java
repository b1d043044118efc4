package org.phos.workbench.live.agent;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;

/**
 * The Java agent: {@code java -javaagent:phos-jcuda-agent.jar[=out=FILE] ...} at start, or
 * {@code java -jar phos-jcuda-agent.jar attach PID [out=FILE]} into a running JVM ({@link AttachMain}). It installs
 * {@link DriverTransformer} for {@code jcuda.driver.JCudaDriver} and writes the Java call sites to a side file next to
 * the trace the native recorder writes: {@code out=FILE} if given, else {@code $PHOS_TRACE_OUT} with {@code %p}
 * replaced by the pid, plus {@code .java-sites}, else {@code phos-PID.phos.java-sites} (the recorder's default name).
 *
 * <p>It refuses cleanly, with one line on stderr starting {@code phos-agent:} and the program running unchanged, when
 * JCuda is not on the class path, when its version is not one the agent knows, or when the JVM cannot retransform.
 */
public final class JCudaAgent {

    private JCudaAgent() {
    }

    /** Loaded with {@code -javaagent:} before {@code main}. */
    public static void premain(String args, Instrumentation inst) {
        start(args, inst, false);
    }

    /** Loaded into a running JVM through the Attach API. */
    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst, true);
    }

    static void say(String line) {
        System.err.println("phos-agent: " + line);
    }

    private static synchronized void start(String args, Instrumentation inst, boolean attached) {
        try {
            Class<?> loaded = null;
            for (Class<?> c : inst.getAllLoadedClasses()) {
                if (c.getName().equals("jcuda.driver.JCudaDriver")) {
                    loaded = c;
                    break;
                }
            }
            if (loaded == null && ClassLoader.getSystemResource(DriverCall.DRIVER_CLASS + ".class") == null) {
                say("JCuda (jcuda.driver.JCudaDriver) is not on the class path; nothing instrumented");
                return;
            }
            String version = loaded != null
                    ? JCudaVersion.of(loaded.getProtectionDomain(), loaded.getClassLoader())
                    : JCudaVersion.of(null, ClassLoader.getSystemClassLoader());
            if (!JCudaVersion.SUPPORTED.contains(version)) {
                say("JCuda " + version + " is not a version this agent knows " + JCudaVersion.SUPPORTED
                        + "; nothing instrumented");
                return;
            }
            if (loaded != null && !inst.isRetransformClassesSupported()) {
                say("this JVM cannot retransform classes; nothing instrumented");
                return;
            }
            Path out = sideFile(args);
            JavaSiteHook.open(out, version);
            Runtime.getRuntime().addShutdownHook(new Thread(JavaSiteHook::close, "phos-agent flush"));
            JavaSiteHook.startFlusher(); // i14-jsites: a live trace follows the file
            DriverTransformer transformer = new DriverTransformer(JCudaAgent::say);
            inst.addTransformer(transformer, true);
            if (loaded != null) {
                inst.retransformClasses(loaded);
            }
            if (loaded != null && !transformer.instrumented()) {
                return; // the transformer said why
            }
            say("recording Java call sites of JCuda " + version + " to " + out
                    + (attached ? " (attached)" : ""));
        } catch (IOException | RuntimeException | LinkageError | java.lang.instrument.UnmodifiableClassException e) {
            say("could not start (" + e + "); the program runs without it");
        }
    }

    /** Where the side file goes: {@code out=FILE} in the agent arguments, else next to the recorder's trace. */
    static Path sideFile(String args) {
        if (args != null) {
            for (String a : args.split(",")) {
                if (a.startsWith("out=") && a.length() > 4) {
                    return Path.of(a.substring(4));
                }
            }
        }
        String pattern = System.getenv("PHOS_TRACE_OUT");
        if (pattern == null || pattern.isEmpty()) {
            pattern = "phos-%p.phos";
        }
        return Path.of(pattern.replace("%p", Long.toString(ProcessHandle.current().pid())) + ".java-sites");
    }
}
