package org.phos.workbench.cli.simulate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * Which trace a result was computed from, for the manifest: the file (absolute path, size, SHA-256 of its bytes) and
 * the recording it holds (the header's host, process and start time), so a result can be matched to its trace even
 * after the file was moved or renamed.
 */
record TraceIdentity(String path, long bytes, @Nullable String sha256, TraceHeader header) {

	static TraceIdentity of(Path file, Trace trace) {
		long bytes;
		try {
			bytes = Files.size(file);
		} catch (IOException e) {
			bytes = -1;
		}
		return new TraceIdentity(file.toAbsolutePath().normalize().toString(), bytes, sha256(file), trace.header());
	}

	private static @Nullable String sha256(Path file) {
		try (InputStream in = Files.newInputStream(file)) {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			byte[] buffer = new byte[1 << 20];
			for (int n; (n = in.read(buffer)) > 0;) {
				digest.update(buffer, 0, n);
			}
			return HexFormat.of().formatHex(digest.digest());
		} catch (IOException | NoSuchAlgorithmException e) {
			return null; // the manifest says null: the trace could not be read again
		}
	}

	void write(JsonWriter json) {
		json.name("trace").beginObject();
		json.field("path", path);
		json.field("bytes", bytes);
		json.field("sha256", sha256);
		json.field("recorder", header.recorder() + " " + header.recorderVersion());
		json.field("host", header.host());
		json.field("pid", header.pid());
		json.field("startUnixNs", header.startUnixNs());
		json.endObject();
	}
}
