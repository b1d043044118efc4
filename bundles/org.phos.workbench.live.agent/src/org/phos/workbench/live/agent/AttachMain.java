package org.phos.workbench.live.agent;

import java.lang.reflect.Method;
import java.nio.file.Path;

/**
 * {@code java -jar phos-jcuda-agent.jar attach PID [out=FILE]}: loads this jar as an agent into the running JVM
 * {@code PID} (same user) through the Attach API ({@code com.sun.tools.attach.VirtualMachine}, module
 * {@code jdk.attach}; called reflectively so that this class compiles against the Java SE profile alone). The agent's
 * one-line report appears on the target's stderr.
 */
public final class AttachMain {

    private AttachMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Exit status: 0 attached, 2 bad arguments, 1 the attach failed (one line on stderr). */
    public static int run(String[] args) {
        if (args.length < 2 || args.length > 3 || !args[0].equals("attach") || !args[1].matches("\\d+")) {
            System.err.println("usage: java -jar phos-jcuda-agent.jar attach PID [out=FILE]");
            return 2;
        }
        try {
            Path jar = Path.of(AttachMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Class<?> vmClass = Class.forName("com.sun.tools.attach.VirtualMachine");
            Object vm = vmClass.getMethod("attach", String.class).invoke(null, args[1]);
            try {
                Method load = vmClass.getMethod("loadAgent", String.class, String.class);
                load.invoke(vm, jar.toString(), args.length == 3 ? args[2] : "");
            } finally {
                vmClass.getMethod("detach").invoke(vm);
            }
            System.out.println("phos-agent: loaded into process " + args[1]);
            return 0;
        } catch (ClassNotFoundException e) {
            System.err.println("phos-agent: this Java has no Attach API (module jdk.attach); use a JDK, not a JRE");
            return 1;
        } catch (java.lang.reflect.InvocationTargetException e) {
            System.err.println("phos-agent: could not attach to process " + args[1] + ": " + e.getCause());
            return 1;
        } catch (ReflectiveOperationException | java.net.URISyntaxException | RuntimeException e) {
            System.err.println("phos-agent: could not attach to process " + args[1] + ": " + e);
            return 1;
        }
    }
}
