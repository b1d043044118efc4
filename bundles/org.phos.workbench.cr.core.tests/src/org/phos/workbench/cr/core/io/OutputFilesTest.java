package org.phos.workbench.cr.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputFilesTest {

    @TempDir
    Path dir;

    private List<String> names() throws Exception {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theTargetAppearsOnlyOnCommit() throws Exception {
        Path target = dir.resolve("out.csv");
        try (OutputFile file = OutputFile.create(target)) {
            file.stream().write("a,b\n".getBytes(StandardCharsets.UTF_8));
            file.stream().close(); // a Writer's close: the file stays open for the commit
            assertFalse(Files.exists(target));
            assertTrue(file.temporary().getFileName().toString()
                    .matches("\\.out\\.csv\\.phos-" + ProcessHandle.current().pid() + "-[0-9a-z]+\\.part"));
            assertEquals(4, file.size());
            file.commit();
        }
        assertEquals("a,b\n", Files.readString(target));
        assertEquals(List.of("out.csv"), names());
    }

    @Test
    void anAbandonedFileLeavesTheOldContent() throws Exception {
        Path target = Files.writeString(dir.resolve("out.csv"), "old");
        try (OutputFile file = OutputFile.create(target)) {
            file.stream().write(1);
        }
        assertEquals("old", Files.readString(target));
        assertEquals(List.of("out.csv"), names());
    }

    @Test
    void newFilesHaveTheUmasksPermissionsAndReplacedOnesKeepTheirs() throws Exception {
        Path plain = Files.createFile(dir.resolve("plain"));
        Path fresh = dir.resolve("fresh");
        OutputFile.write(fresh, out -> out.write(1));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(fresh));
        Path mine = Files.createFile(dir.resolve("mine"));
        Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rw-r-----"));
        OutputFile.write(mine, out -> out.write(1));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(mine)));
    }

    @Test
    void refusals() throws Exception {
        Path input = Files.writeString(dir.resolve("in.phos"), "trace");
        assertNull(OutputFiles.refusal(dir.resolve("new.csv"), List.of(input)));
        assertNull(OutputFiles.refusal(Files.writeString(dir.resolve("old.csv"), "x"), List.of(input)));
        assertNotNull(OutputFiles.refusal(input, List.of(input)));
        assertNotNull(OutputFiles.refusal(Files.createLink(dir.resolve("hard"), input), List.of(input)));
        assertNotNull(OutputFiles.refusal(Files.createSymbolicLink(dir.resolve("link"), dir.resolve("nowhere")),
                List.of(input)));
        assertNotNull(OutputFiles.refusal(Files.createDirectory(dir.resolve("d")), List.of()));
        assertNotNull(OutputFiles.refusal(Path.of("/dev/null"), List.of()));
    }
}
