import java.nio.file.Files;
import java.nio.file.Path;

import jcuda.driver.JCudaDriver;

/**
 * Runs {@link JCudaJacobi} after a workbench has attached (i14-jsites GPU check, releng/gpu/jcuda-attach-sites.sh):
 * {@code cuInit} starts the phos recorder and its attach socket, then it waits (up to 60 s) for the file GATE, which the
 * script creates once {@code workbench attach PID} has connected, and runs JCudaJacobi ROUNDS times, so every launch
 * is issued while attached. Run: java -cp jcuda-12.0.0.jar:jcuda-natives-12.0.0-linux-x86_64.jar:. AttachGate GATE
 * ROUNDS jacobi.ptx
 */
public class AttachGate {
    public static void main(String[] args) throws Exception {
        JCudaDriver.setExceptionsEnabled(true);
        JCudaDriver.cuInit(0);
        System.out.println("ready " + ProcessHandle.current().pid());
        long end = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(Path.of(args[0])) && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        for (int r = 0; r < Integer.parseInt(args[1]); r++) {
            JCudaJacobi.main(new String[] { args[2] });
            Thread.sleep(300);
        }
    }
}
