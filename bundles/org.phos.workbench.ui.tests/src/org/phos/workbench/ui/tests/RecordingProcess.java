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
        Files.createDirectories(xdg);
        Files.setPosixFilePermissions(xdg, PosixFilePermissions.fromString("rwx------"));
        ProcessBuilder pb = new ProcessBuilder(build.resolve("fake_app").toString(), "live", "/dev/null");
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
