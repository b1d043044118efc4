package org.phos.workbench.live.agent.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * What the agent tests run: the stand-in JCuda classes of this bundle packed as a {@code jcuda-VERSION.jar} with
 * JCuda's pom.properties, the test program as a jar, the agent jar the build made
 * ({@code bundles/org.phos.workbench.live.agent/target/phos-jcuda-agent.jar}) and child JVMs of the running Java.
 */
final class AgentFixture {

    static final String PROGRAM = "org.phos.workbench.live.agent.tests.program.FakeJCudaProgram";
    static final String NO_JCUDA_PROGRAM = "org.phos.workbench.live.agent.tests.program.NoJCudaProgram";
    static final List<String> FAKE_JCUDA = List.of("jcuda/Pointer", "jcuda/CudaException", "jcuda/driver/CUfunction",
            "jcuda/driver/CUmodule", "jcuda/driver/CUstream", "jcuda/driver/CUdeviceptr", "jcuda/driver/JCudaDriver");

    private AgentFixture() {
    }

    static byte[] classBytes(String internalName) throws IOException {
        try (InputStream in = AgentFixture.class.getClassLoader().getResourceAsStream(internalName + ".class")) {
            if (in == null) {
                throw new IOException("class " + internalName + " not found in the test bundle");
            }
            return in.readAllBytes();
        }
    }

    /** A jar of the stand-in JCuda that says it is JCuda {@code version}. */
    static Path fakeJCudaJar(Path dir, String version) throws IOException {
        Path jar = dir.resolve("jcuda-" + version + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (String c : FAKE_JCUDA) {
                out.putNextEntry(new JarEntry(c + ".class"));
                out.write(classBytes(c));
            }
            out.putNextEntry(new JarEntry("META-INF/maven/org.jcuda/jcuda/pom.properties"));
            out.write(("version=" + version + "\ngroupId=org.jcuda\nartifactId=jcuda\n").getBytes(StandardCharsets.UTF_8));
        }
        return jar;
    }

    static Path programJar(Path dir) throws IOException {
        Path jar = dir.resolve("program.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (String c : List.of(PROGRAM, NO_JCUDA_PROGRAM)) {
                String n = c.replace('.', '/');
                out.putNextEntry(new JarEntry(n + ".class"));
                out.write(classBytes(n));
            }
        }
        return jar;
    }

    static Path ptx(Path dir) throws IOException {
        return Files.writeString(dir.resolve("jacobi.ptx"),
                "// test module\n.version 8.0\n.target sm_80\n.entry jacobi_step() { ret; }\n");
    }

    static Path agentJar() {
        String repo = System.getProperty("phos.repo", ".");
        Path jar = Path.of(repo, "bundles", "org.phos.workbench.live.agent", "target", "phos-jcuda-agent.jar");
        assertTrue(Files.isRegularFile(jar), jar + " is missing: build bundles/org.phos.workbench.live.agent (package)");
        return jar;
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A finished child JVM. */
    record Run(int exit, String out, String err) {
        List<String> agentLines() {
            return err.lines().filter(l -> l.startsWith("phos-agent:")).toList();
        }
    }

    static Process start(Path dir, List<String> command) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.addAll(command);
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile()).start();
    }

    static Run finish(Path dir, Process p) throws IOException, InterruptedException {
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("child JVM did not finish in 60 s: " + Files.readString(dir.resolve("err.txt")));
        }
        return new Run(p.exitValue(), Files.readString(dir.resolve("out.txt")), Files.readString(dir.resolve("err.txt")));
    }

    static Run run(Path dir, List<String> command) throws IOException, InterruptedException {
        Process p = start(dir, command);
        try (OutputStream in = p.getOutputStream()) {
            // nothing to say: the program does not read stdin unless asked to wait
        }
        return finish(dir, p);
    }
}
