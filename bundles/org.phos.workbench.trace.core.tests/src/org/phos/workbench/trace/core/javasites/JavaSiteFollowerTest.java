package org.phos.workbench.trace.core.javasites;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * i14-jsites: following a side file the agent is still writing: only new bytes are read, a last line without its
 * newline waits for the next poll, a file that appears later is picked up, and the copy next to a saved stream holds
 * the header and the calls from its start time on, readable by {@link JavaSiteLog#read}.
 */
class JavaSiteFollowerTest {
    @TempDir
    Path dir;

    private static final String HEADER = "# phos-java-sites 1\tpid=7\tjcuda=12.0.0\tclock=CLOCK_MONOTONIC\n";

    private static String line(char kind, long start, long end, int line) {
        return kind + "\t" + start + "\t" + end + "\t0\tmain\tApp\trun\t" + line + "\tApp.java\taxpy\tm.ptx\t\n";
    }

    private void append(Path f, String s) throws Exception {
        Files.writeString(f, s, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void readsOnlyWhatWasAddedAndWaitsForACutLine() throws Exception {
        Path f = dir.resolve("t.phos.java-sites");
        JavaSiteFollower follower = new JavaSiteFollower(f);
        assertEquals(0, follower.poll(), "no file yet");
        assertFalse(follower.found());
        assertNull(follower.problem());

        String third = line('L', 500, 600, 42);
        append(f, HEADER + line('A', 100, 200, 10) + line('L', 300, 400, 41) + third.substring(0, 9));
        assertEquals(2, follower.poll());
        assertTrue(follower.found());
        assertEquals(0, follower.poll(), "nothing new: the cut line is not a call yet");
        append(f, third.substring(9));
        assertEquals(1, follower.poll());
        List<JavaCall> calls = follower.log().calls();
        assertEquals(List.of(10, 41, 42), calls.stream().map(JavaCall::line).toList());
        assertEquals("App.run(App.java:42)", calls.get(2).site());
        assertEquals(HEADER.trim(), follower.log().header());

        follower.dropEndedBefore(250);
        assertEquals(2, follower.held());
        assertEquals(List.of(41, 42), follower.log().calls().stream().map(JavaCall::line).toList());
    }

    @Test
    void copiesTheCallsFromAStartTimeNextToASavedStream() throws Exception {
        Path f = dir.resolve("t.phos.java-sites");
        append(f, HEADER + line('A', 100, 200, 10) + line('L', 150, 240, 41));
        Path saved = dir.resolve("saved.phos");
        try (JavaSiteFollower follower = new JavaSiteFollower(f)) {
            assertEquals(2, follower.poll());
            follower.copyTo(JavaSiteLog.sideFileOf(saved), 250);
            append(f, line('L', 500, 600, 42));
            assertEquals(1, follower.poll());
        }
        JavaSiteLog copy = JavaSiteLog.read(JavaSiteLog.sideFileOf(saved));
        assertEquals(HEADER.trim(), copy.header());
        assertEquals(List.of(), copy.warnings());
        // the allocation before the start time stays (it may still be live in the saved stream), the launch goes
        assertEquals(List.of(10, 42), copy.calls().stream().map(JavaCall::line).toList());
        List<JavaCall> all = JavaSiteLog.read(f).calls();
        assertEquals(List.of(all.get(0), all.get(2)), copy.calls());
    }

    @Test
    void aFileThatIsNotASideFileIsNamedOnce() throws Exception {
        Path f = dir.resolve("x.java-sites");
        append(f, "hello\n");
        JavaSiteFollower follower = new JavaSiteFollower(f);
        assertEquals(0, follower.poll());
        String p = follower.problem();
        assertNotNull(p);
        assertTrue(p.startsWith(f + ": not a Java call-site file"), p);
        assertFalse(follower.found());
    }
}
