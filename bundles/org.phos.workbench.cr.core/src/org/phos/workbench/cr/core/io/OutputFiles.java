package org.phos.workbench.cr.core.io;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The rules for where results may be written: never over an input, never through a link or onto a device, FIFO or
 * folder; and the clean-up of temporary files that a killed run left behind.
 */
public final class OutputFiles {

    /** {@code .NAME.phos-PID-RANDOM.part}: the temporary files of {@link OutputFile}, with the writer's PID. */
    private static final Pattern TEMPORARY = Pattern.compile("\\..+\\.phos-(\\d{1,19})-[0-9a-z]{1,13}\\.part");

    /** File names longer than this are shortened in temporary names (Linux allows 255 bytes). */
    private static final int NAME_ROOM = 180;

    private OutputFiles() {
    }

    static String temporaryName(String target, long pid, String random) {
        String name = target.length() > NAME_ROOM ? target.substring(0, NAME_ROOM) : target;
        return "." + name + ".phos-" + pid + "-" + random + ".part";
    }

    /**
     * Why {@code target} must not be written, or null when it may be: it is a symbolic link, a folder, a device, a
     * FIFO or a socket, or (followed through links and hard links) the same file as one of {@code inputs}. A
     * missing target is fine.
     *
     * @return a phrase to follow the target's name in a message: "is a symbolic link; ..."
     */
    public static @Nullable String refusal(Path target, Collection<Path> inputs) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return null; // does not exist (or cannot be looked at: creating it will say why)
        }
        for (Path input : inputs) {
            try {
                if (Files.isSameFile(target, input)) {
                    return "is the input " + input + "; write the result to another file";
                }
            } catch (IOException e) {
                // an input that cannot be looked at is not the target
            }
        }
        if (attributes.isSymbolicLink()) {
            return "is a symbolic link; give the path of a regular file (the link and what it points to are left "
                    + "alone)";
        }
        if (attributes.isDirectory()) {
            return "is a folder; give a file name";
        }
        if (!attributes.isRegularFile()) {
            return "exists and is not a regular file (a device, FIFO or socket), which would be replaced; give the "
                    + "path of a regular file";
        }
        return null;
    }

    /**
     * Deletes the temporary files of {@link OutputFile} in {@code dir} whose writing process is gone (killed
     * before it could clean up). Only names of that pattern are touched, and only when the PID in the name is not
     * a running process.
     *
     * @return the files deleted
     */
    public static List<Path> removeStaleTemporaries(Path dir) {
        List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, ".*.part")) {
            for (Path entry : entries) {
                Matcher m = TEMPORARY.matcher(entry.getFileName().toString());
                if (!m.matches() || isAlive(m.group(1))
                        || !Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                try {
                    Files.deleteIfExists(entry);
                    removed.add(entry);
                } catch (IOException e) {
                    // not ours to delete after all (permissions): leave it
                }
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable folder: writing into it will fail with its own message
        }
        return removed;
    }

    /** Whether {@code pid} names a running process; true when it cannot be told (so that nothing live is deleted). */
    private static boolean isAlive(String pid) {
        try {
            Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(pid));
            return process.map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return true;
        } catch (UnsupportedOperationException | SecurityException e) {
            return true;
        }
    }
}
