package org.phos.workbench.live.agent.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.javasites.JavaCall;
import org.phos.workbench.trace.core.javasites.JavaSiteLog;

/**
 * The agent jar in child JVMs running the test program against the stand-in JCuda: loaded at start
 * ({@code -javaagent}) and into a running JVM ({@code java -jar phos-jcuda-agent.jar attach PID}); the program's
 * output must be the same as without the agent, and the side file must name the right call sites.
 */
class JCudaAgentProcessTest {

    @TempDir
    Path dir;

    private String plainRun(Path jcuda, Path program, Path ptx) throws Exception {
        Path plain = Files.createDirectories(dir.resolve("plain"));
        AgentFixture.Run run = AgentFixture.run(plain, List.of("-cp", jcuda + ":" + program, AgentFixture.PROGRAM,
                "run", ptx.toString()));
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("result [3.0, 3.5, 4.0, 4.5]"), run.out());
        return run.out();
    }

    @Test
    void atStartRecordsCallSitesAndLeavesTheProgramAlone() throws Exception {
        Path jcuda = AgentFixture.fakeJCudaJar(dir, "12.0.0");
        Path program = AgentFixture.programJar(dir);
        Path ptx = AgentFixture.ptx(dir);
        String plain = plainRun(jcuda, program, ptx);

        Path withAgent = Files.createDirectories(dir.resolve("agent"));
        Path sites = withAgent.resolve("run.phos.java-sites");
        AgentFixture.Run run = AgentFixture.run(withAgent, List.of("-javaagent:" + AgentFixture.agentJar() + "=out="
                + sites, "-cp", jcuda + ":" + program, AgentFixture.PROGRAM, "run", ptx.toString()));
        assertEquals(0, run.exit(), run.err());
        assertEquals(plain, run.out(), "the agent changed what the program printed");
        assertEquals(List.of("phos-agent: recording Java call sites of JCuda 12.0.0 to " + sites), run.agentLines());

        JavaSiteLog log = JavaSiteLog.read(sites);
        assertEquals(List.of(), log.warnings());
        assertTrue(log.header().contains("jcuda=12.0.0"), log.header());
        assertEquals(14, SideFileChecks.assertMatchesPrinted(log.calls(), plain, 0));
        List<JavaCall> thrown = log.calls().stream().filter(c -> c.result().startsWith("threw")).toList();
        assertEquals(List.of("threw jcuda.CudaException", "threw java.lang.IllegalArgumentException"),
                thrown.stream().map(JavaCall::result).toList());
        // the launches name their kernel and module; the file module carries the hash the recorder computes
        JavaCall fileLoad = log.calls().get(0);
        assertEquals(ptx.toString(), fileLoad.name());
        ModuleInfo asRecorded = ModuleInfo.of(1, ModuleKind.PTX, Files.readAllBytes(ptx), "cuModuleLoad");
        assertEquals(Long.toHexString(asRecorded.hash()), fileLoad.detail());
        JavaCall launch = log.calls().stream().filter(c -> c.kind() == 'L').findFirst().orElseThrow();
        assertEquals("step", launch.method());
        assertEquals(ptx.toString(), launch.detail());
        for (JavaCall c : log.calls()) {
            assertTrue(c.startNs() <= c.endNs(), c.toString());
        }
    }

    @Test
    void refusesAnUnknownJCudaVersionInOneLine() throws Exception {
        Path jcuda = AgentFixture.fakeJCudaJar(dir, "9.9.9");
        Path program = AgentFixture.programJar(dir);
        Path ptx = AgentFixture.ptx(dir);
        String plain = plainRun(jcuda, program, ptx);
        Path withAgent = Files.createDirectories(dir.resolve("agent"));
        Path sites = withAgent.resolve("x.java-sites");
        AgentFixture.Run run = AgentFixture.run(withAgent, List.of("-javaagent:" + AgentFixture.agentJar() + "=out="
                + sites, "-cp", jcuda + ":" + program, AgentFixture.PROGRAM, "run", ptx.toString()));
        assertEquals(0, run.exit(), run.err());
        assertEquals(plain, run.out());
        assertEquals(1, run.err().lines().count(), run.err());
        assertEquals(List.of("phos-agent: JCuda 9.9.9 is not a version this agent knows [12.0.0]; nothing instrumented"),
                run.agentLines());
        assertFalse(Files.exists(sites), "a refusing agent writes nothing");
    }

    @Test
    void refusesWithoutJCudaInOneLine() throws Exception {
        Path program = AgentFixture.programJar(dir);
        AgentFixture.Run run = AgentFixture.run(dir, List.of("-javaagent:" + AgentFixture.agentJar(), "-cp",
                program.toString(), AgentFixture.NO_JCUDA_PROGRAM, "a"));
        assertEquals(0, run.exit(), run.err());
        assertEquals("sum 42\n", run.out());
        assertEquals("phos-agent: JCuda (jcuda.driver.JCudaDriver) is not on the class path; nothing instrumented\n",
                run.err());
    }

    @Test
    void attachesToARunningJvmAndRecordsFromThenOn() throws Exception {
        Path jcuda = AgentFixture.fakeJCudaJar(dir, "12.0.0");
        Path program = AgentFixture.programJar(dir);
        Path ptx = AgentFixture.ptx(dir);
        String plain = plainRun(jcuda, program, ptx);

        Path target = Files.createDirectories(dir.resolve("target"));
        Process p = AgentFixture.start(target, List.of("-XX:+EnableDynamicAgentLoading", "-cp", jcuda + ":" + program,
                AgentFixture.PROGRAM, "wait", ptx.toString()));
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!Files.readString(target.resolve("out.txt")).contains("READY")) {
                assertTrue(p.isAlive() && System.nanoTime() < deadline, "the program did not get ready: "
                        + Files.readString(target.resolve("err.txt")));
                Thread.sleep(20);
            }
            Path sites = target.resolve("attached.java-sites");
            Path attacher = Files.createDirectories(dir.resolve("attacher"));
            AgentFixture.Run attach = AgentFixture.run(attacher, List.of("-jar", AgentFixture.agentJar().toString(),
                    "attach", Long.toString(p.pid()), "out=" + sites));
            assertEquals(0, attach.exit(), attach.err());
            assertEquals("phos-agent: loaded into process " + p.pid() + "\n", attach.out());
            try (OutputStream in = p.getOutputStream()) {
                in.write('\n');
            }
            AgentFixture.Run run = AgentFixture.finish(target, p);
            assertEquals(0, run.exit(), run.err());
            assertEquals(plain.lines().toList(),
                    run.out().lines().filter(l -> !l.equals("READY")).toList(), "the agent changed the program's output");
            assertEquals(List.of("phos-agent: recording Java call sites of JCuda 12.0.0 to " + sites + " (attached)"),
                    run.agentLines());
            JavaSiteLog log = JavaSiteLog.read(sites);
            // the module loaded before the attach is not there; every call after it is, with its site
            assertEquals(13, SideFileChecks.assertMatchesPrinted(log.calls(), plain, 1));
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void attachRefusesBadArgumentsInOneLine() throws IOException, InterruptedException {
        AgentFixture.Run run = AgentFixture.run(dir, List.of("-jar", AgentFixture.agentJar().toString(), "attach",
                "not-a-pid"));
        assertEquals(2, run.exit());
        assertEquals("usage: java -jar phos-jcuda-agent.jar attach PID [out=FILE]\n", run.err());
    }
}
