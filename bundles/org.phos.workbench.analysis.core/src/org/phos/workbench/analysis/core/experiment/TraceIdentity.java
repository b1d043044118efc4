package org.phos.workbench.analysis.core.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * Which trace a result was computed from, for the manifest and saved experiments: the file (absolute path, size,
 * SHA-256 of its bytes) and the recording it holds (the header's recorder, host, process and start time), so a
 * result can be matched to its trace even after the file was moved or renamed, and a trace that changed since is
 * noticed ({@link #sameContent}).
 *
 * @param path the trace's absolute, normalised path when the result was computed
 * @param bytes its size, -1 when it could not be read
 * @param sha256 the SHA-256 of its bytes in lower-case hex, null when it could not be read
 * @param recorder the header's recorder and version ({@code phos-recorder 0.3})
 * @param host the header's host
 * @param pid the header's process id
 * @param startUnixNs the header's recording start
 */
public record TraceIdentity(String path, long bytes, @Nullable String sha256, String recorder, String host, long pid,
		long startUnixNs) {

	/** The identity of {@code file}, which holds {@code trace} (reads the whole file for its SHA-256). */
	public static TraceIdentity of(Path file, Trace trace) {
		return of(file, trace, null);
	}

	/**
	 * As {@link #of(Path, Trace)}, reporting progress per MiB read and polling {@code monitor} for cancellation
	 * ({@link OperationCanceledException}).
	 */
	public static TraceIdentity of(Path file, Trace trace, @Nullable IProgressMonitor monitor) {
		long bytes;
		try {
			bytes = Files.size(file);
		} catch (IOException e) {
			bytes = -1;
		}
		TraceHeader header = trace.header();
		return new TraceIdentity(file.toAbsolutePath().normalize().toString(), bytes, sha256(file, monitor),
				header.recorder() + " " + header.recorderVersion(), header.host(), header.pid(),
				header.startUnixNs());
	}

	/** The SHA-256 of a file's bytes in lower-case hex; null when it cannot be read. */
	public static @Nullable String sha256(Path file) {
		return sha256(file, null);
	}

	private static @Nullable String sha256(Path file, @Nullable IProgressMonitor monitor) {
		try (InputStream in = Files.newInputStream(file)) {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			byte[] buffer = new byte[1 << 20];
			if (monitor != null) {
				monitor.beginTask("SHA-256 of " + file.getFileName(), (int) Math.max(1, Files.size(file) >> 20));
			}
			for (int n; (n = in.read(buffer)) > 0;) {
				digest.update(buffer, 0, n);
				if (monitor != null) {
					if (monitor.isCanceled()) {
						throw new OperationCanceledException();
					}
					monitor.worked(1);
				}
			}
			if (monitor != null) {
				monitor.done();
			}
			return HexFormat.of().formatHex(digest.digest());
		} catch (IOException | NoSuchAlgorithmException e) {
			return null; // the manifest says null: the trace could not be read again
		}
	}

	/**
	 * Whether {@code other} describes the same bytes: equal SHA-256 (and size). Unknown digests are never the same.
	 */
	public boolean sameContent(TraceIdentity other) {
		return sha256 != null && sha256.equals(other.sha256) && bytes == other.bytes;
	}

	/** Writes {@code "trace": {...}} into the open object, as the manifest holds it. */
	public void write(JsonWriter json) {
		json.name("trace").beginObject();
		json.field("path", path);
		json.field("bytes", bytes);
		json.field("sha256", sha256);
		json.field("recorder", recorder);
		json.field("host", host);
		json.field("pid", pid);
		json.field("startUnixNs", startUnixNs);
		json.endObject();
	}
}
