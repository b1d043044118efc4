package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * i14-jsites: a real JCuda-style JVM under the real recorder and the JCuda agent. The program
 * ({@code sample-traces/programs/jcuda-fakelib/LiveJCudaProgram.java}) and its stand-in {@code jcuda.driver.JCudaDriver},
 * which calls libcuda's real entry points through the FFM API, are compiled with the running JDK's {@code javac};
 * the JVM runs with {@code LD_PRELOAD} = the recorder, native-hooks' fake libcuda, {@code -javaagent:} the agent jar
 * the build made, and a private {@code XDG_RUNTIME_DIR}. Driven on stdin: {@code step N}, {@code burst N}, {@code exit}.
 */
final class LiveJCudaProcess implements AutoCloseable {
    private final Process app;
    private final Writer stdin;
    private final BufferedReader stdout;
    private final long pid;
    private final Path socketDir;
    private final Path trace;
    private final Path source;
    final LinkedBlockingQueue<String> stderr = new LinkedBlockingQueue<>();
    private int connections;

    /** The repository (-Dphos.repo). */
    static Path repo() {
        return Path.of(System.getProperty("phos.repo", ".")).toAbsolutePath().normalize();
    }

    /** Builds the recorder and the fake libcuda (skips the test where they do not build); returns the build folder. */
    static Path nativeBuild() throws Exception {
        Path hooks = repo().resolve("native-hooks");
        assumeTrue(Files.isRegularFile(hooks.resolve("Makefile")), "no native-hooks under " + repo());
        Process make = new ProcessBuilder("make", "-s", "-C", hooks.toString(), "all").redirectErrorStream(true).start();
        String log = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(make.waitFor(300, TimeUnit.SECONDS) && make.exitValue() == 0,
                "the recorder and its fake libcuda do not build here (CUDA headers?): " + log);
        return hooks.resolve("build");
    }

    /** The program's folder in sample-traces. */
    static Path programFolder() {
        return repo().resolve("sample-traces/programs/jcuda-fakelib");
    }

    /** Compiles the program and its stand-in JCuda into {@code dir}, marked as JCuda 12.0.0 (the agent checks). */
    static Path compile(Path dir) throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "-d", classes.toString()));
        try (Stream<Path> s = Files.walk(programFolder())) {
            s.filter(p -> p.toString().endsWith(".java")).forEach(p -> cmd.add(p.toString()));
        }
        Process javac = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(javac.waitFor(120, TimeUnit.SECONDS) && javac.exitValue() == 0, "javac: " + log);
        Path pom = Files.createDirectories(classes.resolve("META-INF/maven/org.jcuda/jcuda"));
        Files.writeString(pom.resolve("pom.properties"), "version=12.0.0\ngroupId=org.jcuda\nartifactId=jcuda\n");
        return classes;
    }

    /** The agent jar the build made. */
    static Path agentJar() {
        Path jar = repo().resolve("bundles/org.phos.workbench.live.agent/target/phos-jcuda-agent.jar");
        assumeTrue(Files.isRegularFile(jar), jar + " is missing: build bundles/org.phos.workbench.live.agent");
        return jar;
    }

    /**
     * Starts the program.
     *
     * @param agent whether to load the JCuda agent ({@code -javaagent:})
     */
    LiveJCudaProcess(Path build, Path classes, Path xdg, Path trace, boolean agent) throws Exception {
        Files.createDirectories(xdg);
        Files.setPosixFilePermissions(xdg, PosixFilePermissions.fromString("rwx------"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED"));
        if (agent) {
            cmd.add("-javaagent:" + agentJar());
        }
        cmd.addAll(List.of("-cp", classes.toString(), "LiveJCudaProgram"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("PHOS_") || k.equals("JAVA_TOOL_OPTIONS"));
        env.put("LD_PRELOAD", build.resolve("libphos_recorder.so").toString());
        env.put("LD_LIBRARY_PATH", build.resolve("fake").toString());
        env.put("PHOS_TIMING_SOURCE", "events");
        env.put("PHOS_TIMING", "0");
        env.put("PHOS_FLUSH_MS", "20");
        env.put("PHOS_DEBUG", "1");
        env.put("PHOS_TRACE_OUT", trace.toString());
        env.put("XDG_RUNTIME_DIR", xdg.toString());
        app = pb.start();
        this.trace = trace;
        this.source = programFolder().resolve("LiveJCudaProgram.java");
        stdin = new OutputStreamWriter(app.getOutputStream(), StandardCharsets.UTF_8);
        stdout = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(app.getErrorStream(), StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                    stderr.add(l);
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "LiveJCudaProcess stderr");
        t.setDaemon(true);
        t.start();
        String ready = stdout.readLine();
        assertNotNull(ready, "the JCuda program did not start: " + String.join("\n", stderr));
        assertTrue(ready.startsWith("ready "), ready);
        pid = Long.parseLong(ready.substring(6).trim());
        socketDir = xdg.resolve("phos");
        for (int i = 0; i < 500 && !Files.exists(socketDir.resolve(pid + ".sock")); i++) {
            Thread.sleep(10);
        }
        assertTrue(Files.exists(socketDir.resolve(pid + ".sock")), "no socket for process " + pid);
    }

    long pid() {
        return pid;
    }

    Path socketDir() {
        return socketDir;
    }

    Path trace() {
        return trace;
    }

    /** Sends one command; returns the launches the program has made. */
    long command(String c) throws IOException {
        stdin.write(c + "\n");
        stdin.flush();
        String l = stdout.readLine();
        assertNotNull(l, "the program ended on " + c);
        assertTrue(l.startsWith("ok "), l);
        return Long.parseLong(l.substring(3).trim());
    }

    /** Sends {@code exit} and waits for the process to end. */
    int exit() throws Exception {
        stdin.write("exit\n");
        stdin.flush();
        assertTrue(app.waitFor(30, TimeUnit.SECONDS), "the program did not exit");
        return app.exitValue();
    }

    /** Waits until the recorder said (PHOS_DEBUG=1) that its {@code k}-th reader connected. */
    void awaitReader(int k) throws InterruptedException {
        long end = System.nanoTime() + 15_000_000_000L;
        while (connections < k && System.nanoTime() < end) {
            String l = stderr.poll(100, TimeUnit.MILLISECONDS);
            if (l != null && l.contains("attach: reader pid") && l.contains("connected")) {
                connections++;
            }
        }
        assertTrue(connections >= k, "the recorder did not accept reader " + k + " within 15 s");
    }

    /**
     * The source line of the program marked {@code // site:NAME}, as a Java frame prints it:
     * {@code LiveJCudaProgram.METHOD(LiveJCudaProgram.java:LINE)}.
     */
    String site(String name, String method) throws IOException {
        List<String> lines = Files.readAllLines(source);
        int found = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("// site:" + name)) {
                assertEquals(-1, found, "two lines marked site:" + name);
                found = i + 1;
            }
        }
        assertTrue(found > 0, "no line marked site:" + name + " in " + source);
        return "LiveJCudaProgram." + method + "(LiveJCudaProgram.java:" + found + ")";
    }

    @Override
    public void close() throws InterruptedException {
        if (app.isAlive()) {
            app.destroyForcibly();
            app.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
