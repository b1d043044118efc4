package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.concurrent.LinkedBlockingQueue;

/**
 * native-hooks' {@code fake_app live} under the real recorder and its fake libcuda, started for the attach tests: its
 * socket in {@code xdg/phos/PID.sock} (a private 0700 runtime folder), its trace in the given file, GPU timing off,
 * the writer flushing every 20 ms, and its stderr lines ({@code PHOS_DEBUG=1}) collected in {@link #stderr}.
 */
final class FakeLiveApp {
    final Process process;
    final Writer stdin;
    final BufferedReader stdout;
    final LinkedBlockingQueue<String> stderr = new LinkedBlockingQueue<>();
    final long pid;
    /** The folder of its socket. */
    final Path socketDir;

    private FakeLiveApp(Path nativeHooks, Path xdg, Path trace, Map<String, String> extraEnv) throws Exception {
        Files.createDirectories(xdg);
        Files.setPosixFilePermissions(xdg, PosixFilePermissions.fromString("rwx------"));
        Path build = nativeHooks.resolve("build");
        ProcessBuilder pb = new ProcessBuilder(build.resolve("fake_app").toString(), "live", "/dev/null");
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("PHOS_"));
        env.put("LD_PRELOAD", build.resolve("libphos_recorder.so").toString());
        env.put("LD_LIBRARY_PATH", build.resolve("fake").toString());
        env.put("PHOS_TIMING_SOURCE", "events");
        env.put("PHOS_TIMING", "0");
        env.put("PHOS_FLUSH_MS", "20");
        env.put("PHOS_DEBUG", "1");
        env.put("PHOS_TRACE_OUT", trace.toString());
        env.put("XDG_RUNTIME_DIR", xdg.toString());
        env.putAll(extraEnv);
        process = pb.start();
        stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                    stderr.add(l);
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        t.setDaemon(true);
        t.start();
        String ready = stdout.readLine();
        assertNotNull(ready, "fake_app did not start");
        assertTrue(ready.startsWith("ready "), ready);
        pid = Long.parseLong(ready.substring(6).trim());
        socketDir = xdg.resolve("phos");
        for (int i = 0; i < 300 && !Files.exists(socketDir.resolve(pid + ".sock")); i++) {
            Thread.sleep(10);
        }
        assertTrue(Files.exists(socketDir.resolve(pid + ".sock")), "no socket for " + pid);
    }

    /** Starts it (extraEnv added to, or replacing, the environment above). */
    static FakeLiveApp start(Path nativeHooks, Path xdg, Path trace, Map<String, String> extraEnv) throws Exception {
        return new FakeLiveApp(nativeHooks, xdg, trace, extraEnv);
    }

    /** Sends one command; returns its {@code ok ...} line. */
    String command(String c) throws IOException {
        stdin.write(c + "\n");
        stdin.flush();
        String l = stdout.readLine();
        assertNotNull(l, "fake_app ended on " + c);
        assertTrue(l.startsWith("ok "), l);
        return l;
    }
}
