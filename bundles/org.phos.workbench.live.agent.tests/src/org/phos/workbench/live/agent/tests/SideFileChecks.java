package org.phos.workbench.live.agent.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.phos.workbench.trace.core.javasites.JavaCall;

/** Compares what the agent wrote with the "call KIND METHOD LINE RESULT NAME" lines the test program printed. */
final class SideFileChecks {

    private SideFileChecks() {
    }

    /**
     * Checks that the successful-or-failed (not thrown) calls of {@code calls} are, in order, the printed calls from
     * the {@code skip}-th on, with the right kind, call site (program class, method, line), result and names.
     *
     * @return how many calls were compared
     */
    static int assertMatchesPrinted(List<JavaCall> calls, String programOut, int skip) {
        List<String> printed = programOut.lines().filter(l -> l.startsWith("call ")).skip(skip).toList();
        List<JavaCall> returned = calls.stream().filter(c -> !c.result().startsWith("threw")).toList();
        assertEquals(printed.size(), returned.size(), "one side-file line per driver call (" + printed + " vs "
                + returned + ")");
        for (int i = 0; i < printed.size(); i++) {
            String[] p = printed.get(i).split(" ", -1);
            JavaCall c = returned.get(i);
            String what = "call " + i + " (" + printed.get(i) + ") vs " + c;
            assertEquals(p[1].charAt(0), c.kind(), what);
            assertEquals(AgentFixture.PROGRAM, c.className(), what);
            assertEquals(p[2], c.method(), what);
            assertEquals(Integer.parseInt(p[3]), c.line(), what);
            assertEquals(p[4], c.result(), what);
            assertEquals("FakeJCudaProgram.java", c.file(), what);
            switch (c.kind()) {
                case 'L', 'G' -> assertEquals(p[5], c.name(), what);
                case 'M' -> assertTrue(c.name().endsWith(p[5]), what);
                default -> assertEquals("", c.name(), what);
            }
        }
        return printed.size();
    }
}
