package org.phos.workbench.live.agent.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.javasites.JavaCall;
import org.phos.workbench.trace.core.javasites.JavaSiteLog;
import org.phos.workbench.trace.core.javasites.JavaSites;

/**
 * The GPU check of the agent (JUnit {@code JCudaAgentGpuTest}, tag "gpu", and {@code releng/gpu/jcuda-agent.sh}):
 * given the trace the native recorder wrote for {@code JCudaJacobi} run with the agent, and the program's source,
 * every launch must carry a Java site in {@code JCudaJacobi.main} on a source line that calls {@code cuLaunchKernel},
 * each kernel from its own line, and the module must be named by where the program loaded it.
 * {@code java ... JCudaJacobiSitesCheck TRACE JCudaJacobi.java} prints the pairing and exits 1 on any problem.
 */
public final class JCudaJacobiSitesCheck {

    private JCudaJacobiSitesCheck() {
    }

    public static void main(String[] args) throws IOException {
        List<String> report = new ArrayList<>();
        List<String> problems = check(Path.of(args[0]), Path.of(args[1]), report);
        report.forEach(System.out::println);
        problems.forEach(p -> System.out.println("PROBLEM: " + p));
        System.out.println(problems.isEmpty() ? "java sites: PASSED" : "java sites: FAILED");
        System.exit(problems.isEmpty() ? 0 : 1);
    }

    /** The problems found (empty when the trace passes); {@code report} receives what was seen. */
    public static List<String> check(Path tracePath, Path source, List<String> report) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> lines = Files.readAllLines(source);
        TreeSet<Integer> launchLines = new TreeSet<>();
        int loadLine = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("cuLaunchKernel(")) {
                launchLines.add(i + 1);
            }
            if (lines.get(i).contains("cuModuleLoadData(")) {
                loadLine = i + 1;
            }
        }
        Trace trace = TraceReader.read(tracePath, null).trace();
        JavaSiteLog log = JavaSiteLog.read(JavaSiteLog.sideFileOf(tracePath));
        problems.addAll(log.warnings());
        JavaSites sites = JavaSites.match(trace, log);
        report.add(tracePath + ": " + trace.launchCount() + " launches, " + log.calls().size() + " Java calls, "
                + sites.matchedEvents() + " events paired, " + sites.unmatchedCalls() + " of " + sites.calls()
                + " calls unpaired");
        Map<String, TreeSet<Integer>> linesByKernel = new TreeMap<>();
        for (int i = 0; i < trace.eventCount(); i++) {
            if (trace.kind(i) != EventKind.LAUNCH) {
                continue;
            }
            TraceEvent.Launch l = (TraceEvent.Launch) trace.event(i);
            FunctionInfo f = trace.functionById(l.function());
            String kernel = f == null ? "?" : f.mangledName();
            JavaCall c = sites.site(i);
            if (c == null) {
                problems.add("launch event " + i + " (" + kernel + ") has no Java site");
                continue;
            }
            if (!c.className().equals("JCudaJacobi") || !c.method().equals("main") || !launchLines.contains(c.line())) {
                problems.add("launch event " + i + " (" + kernel + ") paired with " + c.site()
                        + ", not a cuLaunchKernel line " + launchLines + " of JCudaJacobi.main");
            }
            linesByKernel.computeIfAbsent(kernel, k -> new TreeSet<>()).add(c.line());
        }
        report.add("launch sites by kernel: " + linesByKernel);
        linesByKernel.forEach((k, ls) -> {
            if (ls.size() != 1) {
                problems.add("kernel " + k + " launched from lines " + ls + ": expected one line");
            }
        });
        if (linesByKernel.size() != 2) {
            problems.add("expected 2 kernels with sites (jacobi_step, row_residual), got " + linesByKernel.keySet());
        }
        for (var m : trace.modules()) {
            String name = sites.moduleName(m.id());
            report.add("module " + m.id() + ": " + name);
            String expected = "data loaded at JCudaJacobi.main(JCudaJacobi.java:" + loadLine + ")";
            if (!expected.equals(name)) {
                problems.add("module " + m.id() + " is named " + name + ", expected " + expected);
            }
        }
        if (sites.unmatchedCalls() != 0) {
            // reported, not failed: the recorder need not log every memory call JCuda makes as an event of that kind
            report.add("note: " + sites.unmatchedCalls() + " successful Java calls found no event in the trace");
        }
        return problems;
    }
}
