package org.phos.workbench.trace.core.attach;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Where the recording processes of this user offer their streams: {@code $XDG_RUNTIME_DIR/phos}, else
 * {@code /tmp/phos-UID}, one socket {@code PID.sock} per process (the recorder's rule, native-hooks
 * {@code rec_stream.c}).
 */
public final class AttachDirectory {
    private static final Pattern SOCKET = Pattern.compile("(\\d{1,10})\\.sock");

    private AttachDirectory() {
    }

    /** The directory for the environment {@code env} and this user. */
    public static Path of(Map<String, String> env) {
        String xdg = env.get("XDG_RUNTIME_DIR");
        if (xdg != null && xdg.startsWith("/")) {
            return Path.of(xdg, "phos");
        }
        return Path.of("/tmp", "phos-" + uid());
    }

    /** The directory of this process's environment. */
    public static Path current() {
        return of(System.getenv());
    }

    /** The effective uid of this process (Linux: the owner of /proc/self). */
    public static long uid() {
        try {
            Object u = Files.getAttribute(Path.of("/proc/self"), "unix:uid", LinkOption.NOFOLLOW_LINKS);
            return ((Number) u).longValue();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    /** The socket of process {@code pid} in {@code dir}. */
    public static Path socket(Path dir, long pid) {
        return dir.resolve(pid + ".sock");
    }

    /** The pids that have a socket in {@code dir}, in ascending order (none when it does not exist). */
    public static List<Long> pids(Path dir) throws IOException {
        List<Long> pids = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return pids;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                Matcher m = SOCKET.matcher(p.getFileName().toString());
                if (m.matches()) {
                    pids.add(Long.parseLong(m.group(1)));
                }
            }
        }
        pids.sort(null);
        return pids;
    }

    /**
     * Why {@code dir} is not a directory that only this user can enter (the recorder uses no other: a socket in a
     * directory that others can write to may not be the process's), or null when it is, or does not exist.
     */
    public static @Nullable String whyNotPrivate(Path dir) {
        try {
            PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isDirectory()) {
                return dir + " is not a directory";
            }
            long owner = ((Number) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
            if (owner != uid()) {
                return dir + " belongs to uid " + owner + ", not to this user (uid " + uid() + ")";
            }
            for (PosixFilePermission p : a.permissions()) {
                if (p.name().startsWith("GROUP") || p.name().startsWith("OTHERS")) {
                    return dir + " is open to other users (" + PosixFilePermissions.toString(a.permissions())
                            + "; the recorder uses only a directory of mode 0700)";
                }
            }
            return null;
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | UnsupportedOperationException e) {
            return dir + " cannot be checked: " + e.getMessage();
        }
    }

    /** Whether process {@code pid} exists (Linux: /proc/PID). */
    public static boolean alive(long pid) {
        return Files.isDirectory(Path.of("/proc", Long.toString(pid)));
    }
}
