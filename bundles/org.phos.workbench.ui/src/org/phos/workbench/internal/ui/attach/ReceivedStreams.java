package org.phos.workbench.internal.ui.attach;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.ui.IEditorReference;
import org.eclipse.ui.IWorkbenchPage;
import org.phos.workbench.internal.ui.trace.TraceEditor;

/**
 * Where a live trace writes the stream it receives, and when that file goes. The received stream is a temporary
 * file ({@code $TMPDIR/phos-attach-USER/PID-MILLIS.received.phos}): it grows with everything received, so it is
 * deleted when its live trace closes, or, when an ordinary trace editor shows it (the live trace handed over to it
 * when the process ended), when the workbench exits. A person who wants it keeps it with "Keep received stream…"
 * (a copy, complete, at the place chosen, made when the stream ends); the process's own trace file is never touched.
 * Files left by a workbench that did not exit cleanly are deleted when they are a day old.
 */
final class ReceivedStreams {
	/** Received streams older than this in the folder are left from a crashed workbench. */
	static final Duration STALE = Duration.ofDays(1);
	private static final Set<Path> AT_EXIT = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			for (Path p : AT_EXIT) {
				try {
					Files.deleteIfExists(p);
				} catch (IOException e) {
					// the JVM is going: nothing to tell anyone
				}
			}
		}, "phos: received live streams"));
	}

	private ReceivedStreams() {
	}

	/** The folder (created), with files older than {@link #STALE} removed. */
	static Path directory() throws IOException {
		Path dir = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"),
				"phos-attach-" + System.getProperty("user.name")));
		FileTime before = FileTime.from(Instant.now().minus(STALE));
		try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.{received,window}.phos*")) {
			for (Path f : files) {
				if (Files.getLastModifiedTime(f).compareTo(before) < 0 && !AT_EXIT.contains(f)) {
					Files.deleteIfExists(f);
				}
			}
		}
		return dir;
	}

	/**
	 * The live trace that wrote {@code file} closed: deleted now, or at exit when an ordinary trace editor of
	 * {@code page} shows it.
	 */
	static void closed(Path file, IWorkbenchPage page) {
		Path f = file.toAbsolutePath().normalize();
		closed(org.phos.workbench.trace.core.javasites.JavaSiteLog.sideFileOf(f), page, f); // i14-jsites

		boolean shown = Arrays.stream(page.getEditorReferences()).map(r -> r.getEditor(false))
				.anyMatch(e -> e instanceof TraceEditor te && f.equals(te.file()));
		if (shown) {
			AT_EXIT.add(f);
			return;
		}
		try {
			Files.deleteIfExists(f);
		} catch (IOException e) {
			AT_EXIT.add(f);
		}
	}

	/** Deletes {@code file} when the workbench exits. */
	static void deleteAtExit(Path file) {
		AT_EXIT.add(file.toAbsolutePath().normalize());
		AT_EXIT.add(org.phos.workbench.trace.core.javasites.JavaSiteLog.sideFileOf(file.toAbsolutePath().normalize())); // i14-jsites
	}

	// i14-jsites: begin
	/** The side file {@code sites} of the received stream {@code trace}: deleted with it, or at exit while shown. */
	private static void closed(Path sites, IWorkbenchPage page, Path trace) {
		boolean shown = Arrays.stream(page.getEditorReferences()).map(r -> r.getEditor(false))
				.anyMatch(e -> e instanceof TraceEditor te && trace.equals(te.file()));
		try {
			if (shown) {
				AT_EXIT.add(sites);
			} else {
				Files.deleteIfExists(sites);
			}
		} catch (IOException e) {
			AT_EXIT.add(sites);
		}
	}
	// i14-jsites: end

	/** Copies a complete received stream to where a person wants to keep it (replacing what is there). */
	static void keep(Path received, Path target) throws IOException {
		Path parent = target.toAbsolutePath().getParent();
		if (parent != null) {
			Files.createDirectories(parent);
		}
		Path part = target.resolveSibling(target.getFileName() + ".part");
		Files.copy(received, part, StandardCopyOption.REPLACE_EXISTING);
		Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		// i14-jsites: begin
		Path sites = org.phos.workbench.trace.core.javasites.JavaSiteLog.sideFileOf(received);
		if (Files.isRegularFile(sites)) { // the Java call sites of the live trace go with it
			Files.copy(sites, org.phos.workbench.trace.core.javasites.JavaSiteLog.sideFileOf(target),
					StandardCopyOption.REPLACE_EXISTING);
		}
		// i14-jsites: end
	}

	/** Whether {@code file} waits for the workbench's exit to be deleted (tests). */
	static boolean deletedAtExit(Path file) {
		return AT_EXIT.contains(file.toAbsolutePath().normalize());
	}
}
