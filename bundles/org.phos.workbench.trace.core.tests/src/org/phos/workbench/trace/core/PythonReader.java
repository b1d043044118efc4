package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the dependency-free Python reader ({@code native-hooks/tools/phos_read.py}) on a file, found under the
 * repository named by {@code -Dphos.repo}, with a time limit and a 1 GiB address-space limit (an inflation bomb
 * must not take the machine).
 */
final class PythonReader {
    record Run(int exit, String out, String err) {
    }

    private PythonReader() {
    }

    static Path script() {
        Path p = Path.of(System.getProperty("phos.repo", ".")).resolve("native-hooks/tools/phos_read.py");
        assumeTrue(Files.isRegularFile(p), p + " missing (set -Dphos.repo to the repository root)");
        return p;
    }

    static Run run(Path file, String... options) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", "ulimit -v 1048576; exec python3 \"$@\"", "python3",
                script().toString(), file.toString()));
        cmd.addAll(List.of(options));
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        // small outputs: read after exit is safe for --verdict; for longer ones read while it runs
        var out = p.getInputStream();
        var err = p.getErrorStream();
        byte[][] got = new byte[2][];
        Thread t = new Thread(() -> {
            try {
                got[1] = err.readAllBytes();
            } catch (IOException e) {
                got[1] = new byte[0];
            }
        });
        t.start();
        got[0] = out.readAllBytes();
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        t.join(10_000);
        assertTrue(done, "phos_read.py did not finish within 60 s on " + file);
        Run r = new Run(p.exitValue(), new String(got[0], StandardCharsets.UTF_8),
                got[1] == null ? "" : new String(got[1], StandardCharsets.UTF_8));
        assertFalse(r.err.contains("Traceback") || r.out.contains("Traceback"), "phos_read.py traceback on " + file
                + ":\n" + r.err);
        return r;
    }

    /** The {@code --verdict} line: what {@link TraceReader#verdict} says for the same file. */
    static String verdict(Path file) throws IOException, InterruptedException {
        return run(file, "--verdict").out.strip();
    }
}
