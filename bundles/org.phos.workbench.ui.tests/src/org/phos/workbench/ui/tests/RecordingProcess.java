package org.phos.workbench.ui.tests;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real recording process for the live attach tests: native-hooks' {@code fake_app live} (fake libcuda, driven by
 * commands on its stdin: "launch N", "alloc BYTES", "free", "rate PER_SECOND SECONDS", "exit") under the real
 * recorder, offering its stream on the real Unix socket in a private {@code XDG_RUNTIME_DIR}. Needs the native
 * build ({@code make -C native-hooks}); the test is skipped where it cannot be built.
 */
final class RecordingProcess implements AutoCloseable {
    private final Process app;
    private final Writer stdin;
    private final BufferedReader stdout;
    private final long pid;
    private final Path socketDir;
    private final Path traceFile;

    /** Builds native-hooks' recorder and fake_app (once per run: make does nothing the second time). */
    static Path nativeBuild() throws Exception {
        Path repo = Path.of(System.getProperty("phos.repo", ".")).toAbsolutePath().normalize();
        Path hooks = repo.resolve("native-hooks");
        assumeTrue(Files.isRegularFile(hooks.resolve("Makefile")), "no native-hooks under " + repo + " (-Dphos.repo)");
        Process make = new ProcessBuilder("make", "-s", "-C", hooks.toString(), "all", "build/fake_app")
                .redirectErrorStream(true).start();
        String log = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(make.waitFor(300, TimeUnit.SECONDS) && make.exitValue() == 0,
                "the recorder and its fake libcuda do not build here (CUDA headers?): " + log);
        return hooks.resolve("build");
    }

    /** Starts fake_app live with its socket directory under {@code xdg} and its trace file {@code trace}. */
    RecordingProcess(Path build, Path xdg, Path trace) throws Exception {
        this(build, xdg, trace, Map.of());
    }

    /** i14-ckpt: the same with {@code extra} in its environment (e.g. PHOS_FAKE_CKPT_MS for the fake checkpoint). */
    RecordingProcess(Path build, Path xdg, Path trace, Map<String, String> extra) throws Exception {
        this(java.util.List.of(build.resolve("fake_app").toString(), "live", "/dev/null"), "fake_app live", build, xdg,
                trace, extra);
    }

    // i14-jsites: begin
    /** What the process's command line contains (the Attach dialog lists it). */
    final String commandName;

    /**
     * A JCuda program under the recorder and the JCuda agent: {@code sample-traces/programs/jcuda-fakelib}'s
     * {@code LiveJCudaProgram}, whose stand-in {@code JCudaDriver} calls the fake libcuda's real entry points through
     * the FFM API, compiled by {@link #compileJCudaProgram}. Commands: "step N", "burst N", "exit".
     */
    static RecordingProcess jcuda(Path build, Path classes, Path xdg, Path trace) throws Exception {
        Path agent = repo().resolve("bundles/org.phos.workbench.live.agent/target/phos-jcuda-agent.jar");
        assumeTrue(Files.isRegularFile(agent), agent + " is missing: build bundles/org.phos.workbench.live.agent");
        return new RecordingProcess(java.util.List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-javaagent:" + agent, "-cp", classes.toString(),
                "LiveJCudaProgram"), "bin/java --enable-native-access", build, xdg, trace, Map.of()); // the dialog shortens the rest
    }

    private static Path repo() {
        return Path.of(System.getProperty("phos.repo", ".")).toAbsolutePath().normalize();
    }

    /** The JCuda program's folder. */
    static Path jcudaProgramFolder() {
        return repo().resolve("sample-traces/programs/jcuda-fakelib");
    }

    /** Compiles the JCuda program and its stand-in JCuda (marked 12.0.0, as the agent checks) into {@code dir}. */
    static Path compileJCudaProgram(Path dir) throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-d", classes.toString()));
        try (var s = Files.walk(jcudaProgramFolder())) {
            s.filter(p -> p.toString().endsWith(".java")).forEach(p -> cmd.add(p.toString()));
        }
        Process javac = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(javac.waitFor(120, TimeUnit.SECONDS) && javac.exitValue() == 0, "javac: " + log);
        Path pom = Files.createDirectories(classes.resolve("META-INF/maven/org.jcuda/jcuda"));
        Files.writeString(pom.resolve("pom.properties"), "version=12.0.0\ngroupId=org.jcuda\nartifactId=jcuda\n");
        return classes;
    }

    private RecordingProcess(java.util.List<String> command, String commandName, Path build, Path xdg, Path trace,
            Map<String, String> extra) throws Exception {
        this.commandName = commandName;
    // i14-jsites: end
        Files.createDirectories(xdg);
        Files.setPosixFilePermissions(xdg, PosixFilePermissions.fromString("rwx------"));
        ProcessBuilder pb = new ProcessBuilder(command); // i14-jsites: the command given
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("PHOS_"));
        env.put("LD_PRELOAD", build.resolve("libphos_recorder.so").toString());
        env.put("LD_LIBRARY_PATH", build.resolve("fake").toString());
        env.put("PHOS_TIMING_SOURCE", "events");
        env.put("PHOS_TIMING", "0");
        env.put("PHOS_FLUSH_MS", "20");
        env.put("PHOS_TRACE_OUT", trace.toString());
        env.put("XDG_RUNTIME_DIR", xdg.toString());
        env.putAll(extra); // i14-ckpt
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        app = pb.start();
        traceFile = trace;
        stdin = new OutputStreamWriter(app.getOutputStream(), StandardCharsets.UTF_8);
        stdout = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
        String ready = stdout.readLine();
        assertNotNull(ready, "fake_app did not start");
        assertTrue(ready.startsWith("ready "), ready);
        pid = Long.parseLong(ready.substring(6).trim());
        socketDir = xdg.resolve("phos");
        for (int i = 0; i < 300 && !Files.exists(socketDir.resolve(pid + ".sock")); i++) {
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

    Path traceFile() {
        return traceFile;
    }

    boolean alive() {
        return app.isAlive();
    }

    /** Sends one command and returns the events the process has issued, as it answers. */
    long command(String c) throws IOException {
        stdin.write(c + "\n");
        stdin.flush();
        String l = stdout.readLine();
        assertNotNull(l, "fake_app ended on " + c);
        assertTrue(l.startsWith("ok "), l);
        return Long.parseLong(l.substring(3).trim());
    }

    /** Sends a command without waiting for its answer (read it later with {@link #answer()}). */
    void send(String c) throws IOException {
        stdin.write(c + "\n");
        stdin.flush();
    }

    /** The next answer line's events. */
    long answer() throws IOException {
        String l = stdout.readLine();
        assertNotNull(l, "fake_app ended");
        assertTrue(l.startsWith("ok "), l);
        return Long.parseLong(l.substring(3).trim());
    }

    // i14-liveacc: begin
    /**
     * With {@code FAKE_OBSERVER=1} in its environment: fake_app's fake observer hands the accesses of the launches since
     * the last call to the recorder (phos_recorder_observed, as the sanitizer tool does); returns its answer line
     * ("ok EVENTS observed LAUNCHES rc RC", RC 0 when queued for the attached readers).
     */
    String observe() throws IOException {
        stdin.write("observe\n");
        stdin.flush();
        String l = stdout.readLine();
        assertNotNull(l, "fake_app ended on observe");
        return l;
    }
    // i14-liveacc: end

    /** SIGKILL (Process.destroyForcibly on Linux), waiting until it is gone. */
    void kill() throws InterruptedException {
        app.destroyForcibly();
        app.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (app.isAlive()) {
            kill();
        }
    }
}
