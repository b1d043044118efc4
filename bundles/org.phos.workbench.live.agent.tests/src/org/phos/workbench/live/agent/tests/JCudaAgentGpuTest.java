package org.phos.workbench.live.agent.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.tools.ToolProvider;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a GPU (tag "gpu", skipped by {@code ./workbench test}; {@code -Dphos.gpu=true} runs it): the sample JCuda
 * program {@code JCudaJacobi} runs plain, then under the native recorder ({@code LD_PRELOAD} of
 * {@code native-hooks/build/libphos_recorder.so}, built first with {@code make -C native-hooks}) with the agent. Its
 * checksum must be the same, and {@link JCudaJacobiSitesCheck} must find every launch at its Java line.
 * {@code releng/gpu/jcuda-agent.sh} runs the same check on the GPU machine without Maven.
 */
@Tag("gpu")
class JCudaAgentGpuTest {

    @TempDir
    Path dir;

    @Test
    void jacobiLaunchesCarryTheirJavaLinesAndResultsAreUnchanged() throws Exception {
        Path repo = Path.of(System.getProperty("phos.repo", "."));
        Path recorder = repo.resolve("native-hooks/build/libphos_recorder.so");
        assertTrue(Files.isRegularFile(recorder), recorder + " is missing: make -C native-hooks");
        Path m2 = Path.of(System.getProperty("user.home"), ".m2/repository/org/jcuda");
        String cp = m2.resolve("jcuda/12.0.0/jcuda-12.0.0.jar") + ":"
                + m2.resolve("jcuda-natives/12.0.0/jcuda-natives-12.0.0-linux-x86_64.jar");
        Path programs = repo.resolve("sample-traces/programs/jcuda");
        Path source = programs.resolve("JCudaJacobi.java");
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "21", "-cp", cp, "-d",
                dir.toString(), source.toString()));
        String plain = run(List.of("-cp", cp + ":" + dir, "JCudaJacobi", programs.resolve("jacobi.ptx").toString()),
                null);
        Path trace = dir.resolve("jacobi-agent.phos");
        String recorded = run(List.of("-javaagent:" + AgentFixture.agentJar(), "-cp", cp + ":" + dir, "JCudaJacobi",
                programs.resolve("jacobi.ptx").toString()), List.of("LD_PRELOAD=" + recorder, "PHOS_TRACE_OUT=" + trace));
        assertEquals(checksum(plain), checksum(recorded), "the recorder and agent changed the program's result");
        List<String> report = new ArrayList<>();
        List<String> problems = JCudaJacobiSitesCheck.check(trace, source, report);
        assertEquals(List.of(), problems, String.join("\n", report));
    }

    private static String checksum(String out) {
        return out.lines().filter(l -> l.startsWith("checksum ")).findFirst().orElse("no checksum in: " + out);
    }

    private String run(List<String> args, List<String> env) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(AgentFixture.java()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        if (env != null) {
            for (String e : env) {
                pb.environment().put(e.substring(0, e.indexOf('=')), e.substring(e.indexOf('=') + 1));
            }
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
