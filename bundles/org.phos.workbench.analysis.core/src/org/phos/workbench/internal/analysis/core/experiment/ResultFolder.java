package org.phos.workbench.internal.analysis.core.experiment;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentListener;
import org.phos.workbench.cr.core.io.OutputFile;
import org.phos.workbench.cr.core.io.OutputFiles;
import org.phos.workbench.analysis.core.format.JsonWriter;

/**
 * The {@code --out} folder of {@code simulate}, written so that nothing is lost and nothing is silently wrong:
 * <ul>
 * <li>every file is written under a temporary name ({@link OutputFile}) and all are renamed into place only when
 * the whole run has succeeded, then {@value #MANIFEST} is written last: a folder with a complete manifest holds a
 * complete result, and the manifest says what was run, on which trace, and which files belong to it;</li>
 * <li>the files of a previous simulate run in the folder (those its manifest lists) are replaced or removed, with a
 * line on stderr; files with the names simulate writes that no manifest lists are not ours to delete, so the run is
 * refused before it starts, naming them; other files are left alone.</li>
 * </ul>
 * While the files are being renamed, the manifest is marked incomplete and lists the old and the new files, so a run
 * stopped in between still leaves a folder the next run can clear.
 */
public final class ResultFolder {

	public static final String MANIFEST = "manifest.json";
	public static final String FORMAT = "phos-simulate-manifest/1";

	/** The names simulate writes: timeline[-RUN].json|png|svg (timeline-zoom too), intervals[-RUN].csv, ... */
	private static final Pattern OURS = Pattern.compile("(timeline(-.+)?\\.(json|png|svg)|intervals(-.+)?\\.csv"
			+ "|metrics\\.csv|violations\\.csv|(dirty|comparison)\\.(png|svg)|" + Pattern.quote(MANIFEST) + ")");
	/** A file entry of a manifest's files array: {"name": "timeline.json", "bytes": 1234}, whatever the spacing. */
	private static final Pattern LISTED = Pattern.compile("\\{\\s*\"name\":\\s*\"([^\"\\\\/]+)\",\\s*\"bytes\":\\s*\\d+\\s*\\}");

	private final Path dir;
	/** Files of the previous run (listed in its manifest) that exist now, by name. */
	private final Set<String> previous;
	private final Map<String, OutputFile> pending = new LinkedHashMap<>();
	private boolean abandoned;

	private ResultFolder(Path dir, Set<String> previous) {
		this.dir = dir;
		this.previous = previous;
	}

	/**
	 * Looks at the folder before anything is simulated: removes temporary files of killed runs, and refuses a
	 * folder that holds files with simulate's names that no manifest lists.
	 */
	public static ResultFolder open(Path dir, ExperimentListener listener) throws ExperimentException {
		for (Path stale : OutputFiles.removeStaleTemporaries(dir)) {
			listener.note("removed " + stale + ", left by a run that was killed before it finished");
		}
		Set<String> listed = listedInManifest(dir);
		Set<String> previous = new TreeSet<>();
		Set<String> foreign = new TreeSet<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
			for (Path entry : entries) {
				String name = entry.getFileName().toString();
				if (!OURS.matcher(name).matches()) {
					continue;
				}
				if (listed.contains(name) && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
					previous.add(name);
				} else {
					foreign.add(name);
				}
			}
		} catch (IOException e) {
			throw ExperimentException.failure("--out " + dir + ": cannot list the folder: " + IoText.describe(e), e);
		}
		if (!foreign.isEmpty()) {
			throw ExperimentException.failure("--out " + dir + " holds " + String.join(", ", foreign)
					+ ", which no manifest of a previous simulate run lists (written by hand, by another tool or "
					+ "by an older workbench), so they are not overwritten: move them away or choose another folder");
		}
		return new ResultFolder(dir, previous);
	}

	/**
	 * The names a manifest in {@code dir} lists, itself included; empty without one. A {@value #MANIFEST} that is
	 * not simulate's is refused.
	 */
	private static Set<String> listedInManifest(Path dir) throws ExperimentException {
		Path manifest = dir.resolve(MANIFEST);
		if (!Files.exists(manifest, LinkOption.NOFOLLOW_LINKS)) {
			return Set.of();
		}
		String text;
		try {
			text = Files.isRegularFile(manifest, LinkOption.NOFOLLOW_LINKS) && Files.size(manifest) < (16 << 20)
					? Files.readString(manifest, StandardCharsets.UTF_8)
					: "";
		} catch (IOException e) {
			throw ExperimentException.failure("--out " + dir + ": cannot read " + MANIFEST + ": " + IoText.describe(e), e);
		}
		if (!Pattern.compile("\"format\":\\s*\"" + Pattern.quote(FORMAT) + "\"").matcher(text).find()) {
			throw ExperimentException.failure("--out " + dir + " holds a " + MANIFEST + " that is not one simulate "
					+ "wrote, so it is not overwritten: move it away or choose another folder");
		}
		Set<String> names = new LinkedHashSet<>();
		names.add(MANIFEST);
		Matcher m = LISTED.matcher(text);
		while (m.find()) {
			names.add(m.group(1));
		}
		return names;
	}

	/** Starts a result file; it appears under its name only at {@link #commit}. */
	public synchronized OutputFile create(String name) throws IOException {
		if (abandoned) {
			throw new IOException(dir + ": the run was stopped");
		}
		OutputFile file = OutputFile.create(dir.resolve(name));
		OutputFile before = pending.put(name, file);
		if (before != null) {
			before.close();
		}
		return file;
	}

	public Path dir() {
		return dir;
	}

	/**
	 * Moves every result into place and writes the manifest last; the previous run's files that this run did not
	 * write again are removed (and said so on {@code err}).
	 *
	 * @param description writes the manifest's fields about the run (options, trace) into the open object
	 * @return the names written, manifest last
	 */
	public synchronized List<String> commit(Consumer<JsonWriter> description, ExperimentListener listener) throws ExperimentException {
		Map<String, Long> sizes = new LinkedHashMap<>();
		String current = MANIFEST;
		try {
			for (Map.Entry<String, OutputFile> e : pending.entrySet()) {
				current = e.getKey();
				sizes.put(e.getKey(), e.getValue().size());
			}
			List<String> leftOver = new ArrayList<>(previous);
			leftOver.removeAll(sizes.keySet());
			leftOver.remove(MANIFEST);
			if (!previous.isEmpty()) {
				// the old and the new files, in case this is stopped while renaming
				Set<String> both = new TreeSet<>(previous);
				both.addAll(sizes.keySet());
				current = MANIFEST;
				writeManifest(false, description, both.stream().collect(LinkedHashMap::new,
						(map, n) -> map.put(n, sizes.getOrDefault(n, 0L)), Map::putAll));
			}
			for (Map.Entry<String, OutputFile> e : pending.entrySet()) {
				current = e.getKey();
				e.getValue().commit();
			}
			for (String name : leftOver) {
				current = name;
				Files.deleteIfExists(dir.resolve(name));
			}
			current = MANIFEST;
			writeManifest(true, description, sizes);
			if (!previous.isEmpty()) {
				listener.note("replaced the results of the previous simulate run in " + dir
						+ (leftOver.isEmpty() ? "" : "; removed its " + String.join(", ", leftOver)
								+ ", which this run does not write"));
			}
		} catch (IOException e) {
			throw ExperimentException.failure("cannot write " + dir.resolve(current) + ": " + IoText.describe(e), e);
		} finally {
			abandon();
		}
		List<String> names = new ArrayList<>(sizes.keySet());
		names.add(MANIFEST);
		return names;
	}

	private void writeManifest(boolean complete, Consumer<JsonWriter> description, Map<String, Long> files)
			throws IOException {
		OutputFile.write(dir.resolve(MANIFEST), stream -> {
			PrintStream print = new PrintStream(stream, false, StandardCharsets.UTF_8);
			JsonWriter json = new JsonWriter(print);
			json.beginObject();
			json.field("format", FORMAT);
			json.field("complete", complete);
			description.accept(json);
			json.name("files").beginArray();
			files.forEach((name, bytes) -> json.beginObject().field("name", name).field("bytes", bytes).endObject());
			json.endArray();
			json.endObject();
			json.finish();
			print.flush();
			if (print.checkError()) {
				throw new IOException("cannot write the manifest");
			}
		});
	}

	/**
	 * Deletes the temporary files of what was not committed; a file started afterwards (by a phase still running on
	 * a worker thread after a cancel) is refused.
	 */
	public synchronized void abandon() {
		abandoned = true;
		pending.values().forEach(OutputFile::close);
	}
}
