package org.phos.workbench.trace.core.javasites;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * A trace's events paired with the Java calls that issued them. The agent and the native recorder see the same call
 * from both sides of JNI, with the same clock (CLOCK_MONOTONIC): the recorder's event time lies inside the agent's
 * {@code [start, end]} interval of the Java call. Each launch, allocation, free and copy of the trace (in issue
 * order) takes the earliest unused successful Java call of its kind whose interval holds the event's time (and, for
 * a launch, whose kernel name is the launched function's). Modules are paired by the hash of their image.
 * Graph-node launches, and events of a process's non-Java threads, simply stay without a site.
 */
public final class JavaSites {

    /** i14-jsites: a function id without a Function chunk (identity-compared marker). */
    private static final String NO_NAME = new String("");

    private final Map<Integer, JavaCall> byEvent;
    private final Map<Integer, JavaCall> byModule;
    private final int calls;
    private final int unmatchedCalls;

    private JavaSites(Map<Integer, JavaCall> byEvent, Map<Integer, JavaCall> byModule, int calls, int unmatched) {
        this.byEvent = byEvent;
        this.byModule = byModule;
        this.calls = calls;
        this.unmatchedCalls = unmatched;
    }

    /**
     * The sites of {@code trace} from the side file next to {@code traceFile} ({@link JavaSiteLog#sideFileOf}), or
     * null when there is none.
     *
     * @throws IOException when the side file exists but cannot be read or is not one
     */
    public static @Nullable JavaSites nextTo(Trace trace, Path traceFile) throws IOException {
        Path side = JavaSiteLog.sideFileOf(traceFile);
        return Files.isRegularFile(side) ? match(trace, JavaSiteLog.read(side)) : null;
    }

    /** Pairs the calls of {@code log} with the events and modules of {@code trace}. */
    public static JavaSites match(Trace trace, JavaSiteLog log) {
        Map<Integer, JavaCall> byEvent = new HashMap<>();
        Map<Integer, String> names = new HashMap<>(); // i14-jsites: function id -> mangled name
        long base = trace.header().startMonoNs();
        int unmatched = 0;
        int considered = 0;
        for (char kind : new char[] { 'L', 'A', 'F', 'C' }) {
            EventKind eventKind = switch (kind) {
                case 'L' -> EventKind.LAUNCH;
                case 'A' -> EventKind.ALLOC;
                case 'F' -> EventKind.FREE;
                default -> EventKind.MEMCPY;
            };
            List<JavaCall> calls = new ArrayList<>();
            for (JavaCall c : log.calls()) {
                if (c.kind() == kind && c.succeeded()) {
                    calls.add(c);
                }
            }
            considered += calls.size();
            calls.sort(Comparator.comparingLong(JavaCall::startNs));
            List<JavaCall> pending = new ArrayList<>();
            int next = 0;
            for (int i = 0; i < trace.eventCount(); i++) {
                if (trace.kind(i) != eventKind) {
                    continue;
                }
                String function = null;
                if (eventKind == EventKind.LAUNCH) {
                    // i14-jsites: the launch's columns, not a materialized event (a live trace pairs at every snapshot)
                    if (trace.launchKind(i) == LaunchKind.GRAPH_NODE) {
                        continue;
                    }
                    function = names.computeIfAbsent(trace.functionId(i), id -> {
                        FunctionInfo f = trace.functionById(id);
                        return f == null ? NO_NAME : f.mangledName();
                    });
                    if (function == NO_NAME) {
                        function = null;
                    }
                }
                long t = base + trace.hostNs(i);
                while (next < calls.size() && calls.get(next).startNs() <= t) {
                    pending.add(calls.get(next++));
                }
                for (Iterator<JavaCall> it = pending.iterator(); it.hasNext();) {
                    JavaCall c = it.next();
                    if (c.endNs() < t) {
                        it.remove(); // ended before this event: issue order is time order, nothing later takes it
                        unmatched++;
                        continue;
                    }
                    if (function == null || c.name().isEmpty() || c.name().equals(function)) {
                        it.remove();
                        byEvent.put(i, c);
                        break;
                    }
                }
            }
            unmatched += pending.size() + (calls.size() - next);
        }
        Map<Integer, JavaCall> byModule = new HashMap<>();
        for (JavaCall c : log.calls()) {
            if (c.kind() != 'M' || !c.succeeded() || c.detail().isEmpty()) {
                continue;
            }
            long hash;
            try {
                hash = Long.parseUnsignedLong(c.detail(), 16);
            } catch (NumberFormatException e) {
                continue;
            }
            for (ModuleInfo m : trace.modules()) {
                if (m.hash() == hash && !byModule.containsKey(m.id())) {
                    byModule.put(m.id(), c);
                    break;
                }
            }
        }
        return new JavaSites(byEvent, byModule, considered, unmatched);
    }

    /** The Java call that issued event {@code i}, or null. */
    public @Nullable JavaCall site(int event) {
        return byEvent.get(event);
    }

    /** The Java call that loaded module {@code moduleId}, or null. */
    public @Nullable JavaCall moduleLoad(int moduleId) {
        return byModule.get(moduleId);
    }

    /**
     * The name the program gave a module: the file name of {@code cuModuleLoad}, else where it was loaded from
     * memory ({@code "data loaded at Main.run(Main.java:42)"}); null when no Java call loaded it.
     */
    public @Nullable String moduleName(int moduleId) {
        JavaCall c = byModule.get(moduleId);
        return c == null ? null : c.name().isEmpty() ? "data loaded at " + c.site() : c.name();
    }

    /** Events that carry a Java site. */
    public int matchedEvents() {
        return byEvent.size();
    }

    /** Successful launch, allocation, free and copy calls of the side file. */
    public int calls() {
        return calls;
    }

    /** Of those, the calls no event took (the recorder did not see them, or the trace and side file differ). */
    public int unmatchedCalls() {
        return unmatchedCalls;
    }
}
