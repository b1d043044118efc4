package org.phos.workbench.live.agent.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.live.agent.DriverTransformer;
import org.phos.workbench.live.agent.JavaSiteHook;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.javasites.JavaCall;
import org.phos.workbench.trace.core.javasites.JavaSiteLog;
import org.phos.workbench.trace.core.javasites.JavaSites;

/**
 * The bytecode rewrite on the stand-in {@code jcuda.driver.JCudaDriver} (JCuda 12.0.0's signatures), in this JVM:
 * the program runs once against the original class and once against the rewritten one, each in a class loader of
 * its own; the outputs (results, caught exceptions and their frames) must be equal and the hook must have seen each
 * call at its source line.
 */
class DriverTransformerTest {

    static final String DRIVER = "jcuda/driver/JCudaDriver";

    @TempDir
    Path dir;

    /** Defines the given classes itself (so the program links to this loader's driver); the rest from the parent. */
    static final class ChildFirst extends ClassLoader {
        private final Map<String, byte[]> own;

        ChildFirst(Map<String, byte[]> own) {
            super(DriverTransformerTest.class.getClassLoader());
            this.own = own;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                byte[] b = own.get(name);
                if (b == null) {
                    return super.loadClass(name, resolve);
                }
                Class<?> c = findLoadedClass(name);
                return c != null ? c : defineClass(name, b, 0, b.length);
            }
        }
    }

    private String runProgram(byte[] driver, Path ptx) throws Exception {
        ChildFirst loader = new ChildFirst(Map.of("jcuda.driver.JCudaDriver", driver, AgentFixture.PROGRAM,
                AgentFixture.classBytes(AgentFixture.PROGRAM.replace('.', '/'))));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            loader.loadClass(AgentFixture.PROGRAM).getMethod("main", String[].class).invoke(null,
                    (Object) new String[] { "run", ptx.toString() });
        } finally {
            System.setOut(saved);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void rewrittenDriverReturnsAndThrowsAsBeforeAndRecordsEachSite() throws Exception {
        byte[] original = AgentFixture.classBytes(DRIVER);
        byte[] rewritten = DriverTransformer.instrument(original, getClass().getClassLoader());
        assertNotNull(rewritten, "the stand-in has JCuda 12's signatures");
        Path ptx = AgentFixture.ptx(dir);
        String plain = runProgram(original, ptx);

        Path sites = dir.resolve("t.phos.java-sites");
        JavaSiteHook.open(sites, "12.0.0");
        String instrumented;
        try {
            instrumented = runProgram(rewritten, ptx);
            JavaSiteHook.flush();
        } finally {
            JavaSiteHook.close();
        }
        assertEquals(plain, instrumented, "the rewrite changed what the program saw");
        assertTrue(plain.lines().anyMatch(l -> l.matches("call F main \\d+ 1 ")),
                "the second free goes through the driver's own handler and returns 1: " + plain);
        assertTrue(plain.contains("caught jcuda.CudaException: CUDA_ERROR 1 at jcuda.driver.JCudaDriver.checkResult"),
                plain);

        JavaSiteLog log = JavaSiteLog.read(sites);
        assertEquals(14, SideFileChecks.assertMatchesPrinted(log.calls(), plain, 0));
        List<String> thrown = new ArrayList<>();
        for (JavaCall c : log.calls()) {
            if (c.result().startsWith("threw")) {
                thrown.add(c.result() + " " + c.method());
            }
        }
        assertEquals(List.of("threw jcuda.CudaException main", "threw java.lang.IllegalArgumentException main"),
                thrown);
        // cuModuleLoadData(String) delegates to the byte[] overload: one line, not two
        assertEquals(2, log.calls().stream().filter(c -> c.kind() == 'M').count());
        // cuCtxSynchronize is not a DriverCall: never recorded
        assertEquals(14 + 2, log.calls().size());
    }

    @Test
    void refusesAnUnknownVersionAndLeavesTheClassAlone() throws Exception {
        List<String> said = new ArrayList<>();
        DriverTransformer t = new DriverTransformer(said::add);
        Path jar = AgentFixture.fakeJCudaJar(dir, "11.0.2");
        ProtectionDomain domain = new ProtectionDomain(new CodeSource(jar.toUri().toURL(), (Certificate[]) null),
                null);
        assertNull(t.transform(null, getClass().getClassLoader(), DRIVER, null, domain,
                AgentFixture.classBytes(DRIVER)));
        assertEquals(List.of("JCuda 11.0.2 is not a version this agent knows [12.0.0]; JCudaDriver left as it is, "
                + "no Java call sites recorded"), said);
        assertTrue(!t.instrumented());
    }

    @Test
    void refusesADriverWithoutJCuda12Signatures() throws Exception {
        List<String> said = new ArrayList<>();
        DriverTransformer t = new DriverTransformer(said::add);
        Path jar = AgentFixture.fakeJCudaJar(dir, "12.0.0");
        ProtectionDomain domain = new ProtectionDomain(new CodeSource(jar.toUri().toURL(), (Certificate[]) null),
                null);
        // a class of the right name and version whose methods are not JCuda 12's
        assertNull(DriverTransformer.instrument(AgentFixture.classBytes("jcuda/Pointer"), null));
        assertNull(t.transform(null, getClass().getClassLoader(), DRIVER, null, domain,
                AgentFixture.classBytes("jcuda/Pointer")));
        assertEquals(1, said.size());
        assertTrue(said.get(0).startsWith("JCudaDriver of JCuda 12.0.0 lacks cuLaunchKernel("), said.get(0));
        // other classes pass untouched, without a word
        assertNull(t.transform(null, null, "jcuda/driver/CUmodule", null, domain,
                AgentFixture.classBytes("jcuda/driver/CUmodule")));
        assertEquals(1, said.size());
    }

    /**
     * Pairs a real side file with a trace holding what the native recorder would write for the same calls: each event
     * at a time inside its Java call (the recorder sees the call from the native side of JNI), modules with their
     * images. Also an event no Java call issued, and a launch whose kernel is not the Java call's.
     */
    @Test
    void sitesPairWithTheRecordersEventsByTimeAndModulesByHash() throws Exception {
        Path ptx = AgentFixture.ptx(dir);
        Path sites = dir.resolve("t.phos.java-sites");
        JavaSiteHook.open(sites, "12.0.0");
        try {
            runProgram(DriverTransformer.instrument(AgentFixture.classBytes(DRIVER), getClass().getClassLoader()), ptx);
        } finally {
            JavaSiteHook.close();
        }
        JavaSiteLog log = JavaSiteLog.read(sites);
        long base = log.calls().get(0).startNs() - 1_000_000;
        Trace.Builder b = Trace.builder(TraceHeader.builder("test", "1").startMonoNs(base).build());
        b.module(ModuleInfo.of(1, ModuleKind.PTX, java.nio.file.Files.readAllBytes(ptx), "cuModuleLoad"));
        b.module(ModuleInfo.of(2, ModuleKind.PTX, "// generated\n.version 8.0\n.entry other() { ret; }\n"
                .getBytes(StandardCharsets.UTF_8), "cuModuleLoadData"));
        b.function(new FunctionInfo(1, 1, "jacobi_step", "jacobi_step", List.of()));
        b.function(new FunctionInfo(2, 2, "other", "other", List.of()));
        List<JavaCall> issuing = new ArrayList<>();
        for (JavaCall c : log.calls()) {
            if (!c.succeeded() || "LAFC".indexOf(c.kind()) < 0) {
                continue;
            }
            long t = (c.startNs() + c.endNs()) / 2 - base;
            b.event(switch (c.kind()) {
                case 'L' -> new TraceEvent.Launch(t, 0, c.name().equals("other") ? 2 : 1, new Dim3(1, 1, 1),
                        new Dim3(32, 1, 1), 0, 0, new byte[0], 0, 0, LaunchKind.PLAIN, 0);
                case 'A' -> new TraceEvent.Alloc(t, 0, 0x7f0000001000L, 4096, AllocKind.PLAIN, 0);
                case 'F' -> new TraceEvent.Free(t, 0, 0x7f0000001000L, AllocKind.PLAIN, 0);
                default -> new TraceEvent.Memcpy(t, 0, CopyKind.H2D, 0, 0, 16, 0, false, new byte[0], 0, 0);
            });
            issuing.add(c);
        }
        JavaCall last = log.calls().get(log.calls().size() - 1);
        // a launch after every Java call (a native thread's), and one inside the last launch's call but of another kernel
        b.event(new TraceEvent.Launch(last.endNs() + 1_000_000 - base, 1, 1, new Dim3(1, 1, 1), new Dim3(1, 1, 1), 0, 0,
                new byte[0], 0, 0, LaunchKind.PLAIN, 0));
        Trace trace = b.build();

        JavaSites matched = JavaSites.match(trace, log);
        for (int i = 0; i < issuing.size(); i++) {
            assertEquals(issuing.get(i), matched.site(i), "event " + i);
        }
        assertNull(matched.site(issuing.size()), "no Java call issued the last launch");
        assertEquals(issuing.size(), matched.matchedEvents());
        assertEquals(0, matched.unmatchedCalls());
        assertEquals(ptx.toString(), matched.moduleName(1));
        String data = matched.moduleName(2);
        assertNotNull(data);
        assertTrue(data.startsWith("data loaded at " + AgentFixture.PROGRAM + ".main(FakeJCudaProgram.java:"), data);

        // the same calls against a trace whose launches are all of a kernel the Java calls did not name: no pairing
        Trace.Builder other = Trace.builder(TraceHeader.builder("test", "1").startMonoNs(base).build());
        other.function(new FunctionInfo(7, 1, "unrelated", "unrelated", List.of()));
        int launches = 0;
        for (JavaCall c : issuing) {
            if (c.kind() == 'L') {
                other.event(new TraceEvent.Launch((c.startNs() + c.endNs()) / 2 - base, 0, 7, new Dim3(1, 1, 1),
                        new Dim3(1, 1, 1), 0, 0, new byte[0], 0, 0, LaunchKind.PLAIN, 0));
                launches++;
            }
        }
        JavaSites none = JavaSites.match(other.build(), log);
        assertEquals(0, none.matchedEvents());
        assertTrue(launches > 0 && none.unmatchedCalls() == issuing.size(), "every call stays unmatched");
    }
}
