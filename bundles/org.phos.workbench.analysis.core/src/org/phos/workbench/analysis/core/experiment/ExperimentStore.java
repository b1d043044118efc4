package org.phos.workbench.analysis.core.experiment;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.cr.core.io.OutputFile;
import org.phos.workbench.internal.analysis.core.experiment.Background;
import org.phos.workbench.internal.analysis.core.experiment.IoText;
import org.phos.workbench.internal.analysis.core.experiment.ProgressSlice;
import org.phos.workbench.internal.analysis.core.experiment.ResultFolder;
import org.phos.workbench.internal.analysis.core.experiment.RunsFile;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.export.JsonReader;

/**
 * The experiments saved beside one trace: {@code <trace>.experiments/<name>/}, each folder holding
 * <ul>
 * <li>{@value #CONFIG_FILE}: the configuration (the {@code simulate} options) and, for a person reading it, the
 * trace's identity at the last run;</li>
 * <li>{@value #OUTPUTS}/: exactly what {@code simulate --out} writes (timeline, intervals, metrics, violations,
 * charts, {@code manifest.json} with the trace's identity: path, size, SHA-256, header), plus
 * {@code runs.phosruns}, every run's metrics and timeline in full, from which {@link #open} reads the experiment
 * back without simulating.</li>
 * </ul>
 * Nothing the person has is lost: a new experiment appears under its name only once it ran to the end; a re-run
 * builds its outputs beside the old ones and swaps the folders (the old outputs survive a failed or cancelled
 * re-run; a process killed during the swap is repaired the next time the store looks); a deletion first moves the
 * folder aside. An experiment whose trace changed (another SHA-256) is reported as such and not opened unless asked.
 * <p>
 * Thread-safety: the methods may be called from several Jobs; operations on one experiment are serialised by the
 * caller (the workbench's scheduling rule per trace).
 */
public final class ExperimentStore {
	/** Appended to the trace file's name for the store's folder: {@code run.phos.experiments}. */
	public static final String SUFFIX = ".experiments";
	/** The configuration file in an experiment's folder. */
	public static final String CONFIG_FILE = "experiment.json";
	/** The outputs folder in an experiment's folder. */
	public static final String OUTPUTS = "outputs";
	/** The full-fidelity runs file in the outputs folder. */
	public static final String RUNS_FILE = RunsFile.NAME;
	/** The format named in {@value #CONFIG_FILE}. */
	public static final String FORMAT = "phos-experiment/1";
	/** The longest name accepted, in characters. */
	public static final int MAX_NAME_LENGTH = 100;

	private static final SecureRandom RANDOM = new SecureRandom();
	/** Temporary folders this process is filling now (never repaired away under a running job). */
	private static final Set<Path> ACTIVE = ConcurrentHashMap.newKeySet();

	private final Path traceFile;
	private final Path root;
	private @Nullable String cachedSha;
	private long cachedSize = -1;
	private long cachedModified = -1;

	private ExperimentStore(Path traceFile) {
		this.traceFile = traceFile;
		Path name = traceFile.getFileName();
		this.root = traceFile.resolveSibling((name == null ? "trace" : name.toString()) + SUFFIX);
	}

	/** The store of the trace in {@code traceFile} (nothing is created until an experiment is saved). */
	public static ExperimentStore of(Path traceFile) {
		return new ExperimentStore(traceFile);
	}

	/** An experiment folder read back as its store and name. */
	public record Location(ExperimentStore store, String name) {
	}

	/**
	 * The store and name of an experiment folder ({@code <trace>.experiments/<name>}), as the command line is given
	 * it; refuses a folder that is not one.
	 */
	public static Location locate(Path folder) throws ExperimentException {
		Path abs = folder.toAbsolutePath().normalize();
		Path name = abs.getFileName();
		Path parent = abs.getParent();
		Path parentName = parent == null ? null : parent.getFileName();
		if (name == null || parentName == null || !parentName.toString().endsWith(SUFFIX)
				|| parentName.toString().length() == SUFFIX.length()) {
			throw ExperimentException.failure(folder + ": not a saved experiment (its folder is "
					+ "TRACE" + SUFFIX + "/NAME, beside the trace)");
		}
		if (!Files.isDirectory(abs)) {
			throw ExperimentException.failure(folder + ": no such experiment folder");
		}
		String trace = parentName.toString().substring(0, parentName.toString().length() - SUFFIX.length());
		return new Location(of(parent.resolveSibling(trace)), name.toString());
	}

	public Path traceFile() {
		return traceFile;
	}

	/** {@code <trace>.experiments}, which may not exist yet. */
	public Path root() {
		return root;
	}

	/** The folder of experiment {@code name}. */
	public Path folder(String name) {
		return root.resolve(name);
	}

	/**
	 * What is wrong with {@code name} as a folder name, or null: empty, blank at either end, too long, a path
	 * separator, a control character, {@code .} or {@code ..}, or a leading dot (hidden, and the store's own
	 * temporary folders).
	 */
	public static @Nullable String nameProblem(String name) {
		if (name.isEmpty()) {
			return "the experiment's name is empty";
		}
		if (!name.equals(name.strip())) {
			return "the experiment's name '" + name + "' begins or ends with a space";
		}
		if (name.length() > MAX_NAME_LENGTH) {
			return "the experiment's name is longer than " + MAX_NAME_LENGTH + " characters";
		}
		if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0) {
			return "the experiment's name '" + name + "' holds a path separator (/ or \\); it names one folder";
		}
		for (int i = 0; i < name.length(); i++) {
			if (Character.isISOControl(name.charAt(i))) {
				return "the experiment's name holds a control character";
			}
		}
		if (name.startsWith(".")) {
			return "the experiment's name '" + name + "' begins with a dot (hidden folders are the store's own)";
		}
		return null;
	}

	/** {@link #nameProblem}, and a name already taken by an experiment of this trace; null when free and valid. */
	public @Nullable ExperimentProblem checkNewName(String name) {
		String problem = nameProblem(name);
		if (problem == null && Files.exists(folder(name), LinkOption.NOFOLLOW_LINKS)) {
			problem = "an experiment named '" + name + "' already exists for " + traceFile + " (" + folder(name)
					+ "): choose another name, or re-run that one";
		}
		return problem == null ? null : ExperimentProblem.of(ExperimentOption.NAME, problem);
	}

	private void requireName(String name) throws ExperimentException {
		String problem = nameProblem(name);
		if (problem != null) {
			throw new ExperimentException(ExperimentProblem.of(ExperimentOption.NAME, problem));
		}
	}

	/**
	 * Every saved experiment of the trace, by name; damaged ones too (with their state). The first call reads the
	 * whole trace file for its SHA-256 (kept while the file's size and time stamp stay): call it off the UI thread.
	 */
	public List<SavedExperiment> list() throws ExperimentException {
		if (!Files.isDirectory(root)) {
			return List.of();
		}
		repairRoot();
		List<SavedExperiment> out = new ArrayList<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
			for (Path entry : entries) {
				String name = entry.getFileName().toString();
				if (!name.startsWith(".") && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
					out.add(describe(name));
				}
			}
		} catch (IOException e) {
			throw ExperimentException.failure("cannot list " + root + ": " + IoText.describe(e), e);
		}
		out.sort(Comparator.comparing(SavedExperiment::name));
		return out;
	}

	/** The experiment {@code name} as its folder shows it now; fails when there is no such experiment. */
	public SavedExperiment get(String name) throws ExperimentException {
		requireName(name);
		if (!Files.isDirectory(folder(name), LinkOption.NOFOLLOW_LINKS)) {
			throw ExperimentException.failure("no experiment named '" + name + "' for " + traceFile + " (no folder "
					+ folder(name) + ")");
		}
		return describe(name);
	}

	private SavedExperiment describe(String name) {
		Path dir = folder(name);
		repair(dir);
		ExperimentConfig config;
		try {
			config = readConfig(dir);
		} catch (ExperimentException e) {
			return new SavedExperiment(name, dir, null, null, SavedExperiment.State.DAMAGED, e.getMessage());
		}
		Path outputs = dir.resolve(OUTPUTS);
		if (!Files.isDirectory(outputs)) {
			return new SavedExperiment(name, dir, config, null, SavedExperiment.State.NOT_RUN, name
					+ " has no outputs yet (" + outputs + " is missing): run it");
		}
		TraceIdentity identity;
		try {
			identity = readIdentity(outputs);
		} catch (ExperimentException e) {
			return new SavedExperiment(name, dir, config, null, SavedExperiment.State.DAMAGED, e.getMessage());
		}
		Path runs = outputs.resolve(RUNS_FILE);
		if (!Files.isRegularFile(runs)) {
			return new SavedExperiment(name, dir, config, identity, SavedExperiment.State.DAMAGED,
					runs + " is missing: re-run the experiment to write it again");
		}
		String now = currentSha();
		LiveRun live = liveRun(name); // i13-live2
		if (now == null) {
			return new SavedExperiment(name, dir, config, identity, SavedExperiment.State.TRACE_MISSING,
					"the trace " + traceFile + " cannot be read, so " + name + " cannot be checked against it", live);
		}
		if (!now.equals(identity.sha256())) {
			return new SavedExperiment(name, dir, config, identity, SavedExperiment.State.TRACE_CHANGED,
					"the trace " + traceFile + " changed since " + name + " ran (SHA-256 " + shortSha(now)
							+ " now, " + shortSha(identity.sha256()) + " then): re-run it", live);
		}
		return new SavedExperiment(name, dir, config, identity, SavedExperiment.State.READY, null, live);
	}

	private static String shortSha(@Nullable String sha) {
		return sha == null ? "unknown" : sha.substring(0, Math.min(12, sha.length()));
	}

	/** The SHA-256 of the trace file now (cached while its size and time stamp stay), null when unreadable. */
	private synchronized @Nullable String currentSha() {
		try {
			long size = Files.size(traceFile);
			long modified = Files.getLastModifiedTime(traceFile).toMillis();
			if (cachedSha != null && size == cachedSize && modified == cachedModified) {
				return cachedSha;
			}
			String sha = TraceIdentity.sha256(traceFile);
			cachedSha = sha;
			cachedSize = size;
			cachedModified = modified;
			return sha;
		} catch (IOException e) {
			return null;
		}
	}

	/**
	 * Runs {@code config} over {@code trace} (loaded from this store's trace file) and saves it as {@code name}; the
	 * experiment appears only when the run succeeded.
	 *
	 * @return the runs in memory (equal to what {@link #open} reads back)
	 * @throws ExperimentException for an invalid name (option {@link ExperimentOption#NAME}) or configuration, or a
	 *         failed run; {@link org.eclipse.core.runtime.OperationCanceledException} when cancelled
	 */
	public ExperimentResult create(String name, ExperimentConfig config, Trace trace, ExperimentListener listener,
			@Nullable IProgressMonitor monitor) throws ExperimentException {
		ExperimentProblem problem = checkNewName(name);
		if (problem != null) {
			throw new ExperimentException(problem);
		}
		IProgressMonitor pm = monitor == null ? new NullProgressMonitor() : monitor;
		pm.beginTask("Experiment " + name, 100);
		Path building = temporary(root, "new");
		try {
			ExperimentRunner runner = runner(config, trace, listener, pm);
			Files.createDirectories(root);
			Files.createDirectory(building);
			Written written = runAndWrite(runner, name, building.resolve(OUTPUTS), new ProgressSlice(pm, 98));
			writeConfig(building, config, written.identity());
			try {
				Files.move(building, folder(name), StandardCopyOption.ATOMIC_MOVE);
			} catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
				throw ExperimentException.failure("an experiment named '" + name + "' appeared for " + traceFile
						+ " while this one ran; it was not replaced", e);
			}
			return written.result();
		} catch (IOException e) {
			throw ExperimentException.failure("cannot save " + folder(name) + ": " + IoText.describe(e), e);
		} finally {
			deleteQuietly(building);
			pm.done();
		}
	}

	// i13-live2: begin
	/**
	 * Saves runs made elsewhere as experiment {@code name}: a live run on a GPU ({@code workbench live --save-as}),
	 * which cannot be simulated again. {@code outputs} is the complete folder that run wrote (its manifest names the
	 * trace, checked as a simulate manifest's, and for a live run the tool and the device); its files are copied into
	 * the experiment's outputs and {@code runs} are written beside them as the runs file, so the experiment opens from
	 * its files on any machine (no GPU needed). The experiment appears only when everything was written.
	 *
	 * @param config the options the runs were made with (saved as a simulated experiment's)
	 * @param runs the runs, as they were in memory (equal to what {@link #open} reads back)
	 */
	public ExperimentResult saveRuns(String name, ExperimentConfig config, Path outputs, List<CrRun> runs)
			throws ExperimentException {
		ExperimentProblem problem = checkNewName(name);
		if (problem != null) {
			throw new ExperimentException(problem);
		}
		Path building = temporary(root, "new");
		try {
			Files.createDirectories(root);
			Files.createDirectory(building);
			TraceIdentity identity = copyRuns(name, outputs, runs, building.resolve(OUTPUTS));
			writeConfig(building, config, identity, liveOf(outputs));
			try {
				Files.move(building, folder(name), StandardCopyOption.ATOMIC_MOVE);
			} catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
				throw ExperimentException.failure("an experiment named '" + name + "' appeared for " + traceFile
						+ " while this one was saved; it was not replaced", e);
			}
			return new ExperimentResult(name, traceFile, config, runs);
		} catch (IOException e) {
			throw ExperimentException.failure("cannot save " + folder(name) + ": " + IoText.describe(e), e);
		} finally {
			deleteQuietly(building);
		}
	}

	/**
	 * As {@link #saveRuns}, for the existing experiment {@code name} run again (live: {@code experiment run --live}):
	 * its outputs are replaced by {@code outputs} and {@code runs} only once they are all written (the old ones
	 * survive a failure), and its {@value #CONFIG_FILE} says where and when it ran now.
	 */
	public ExperimentResult replaceRuns(String name, ExperimentConfig config, Path outputs, List<CrRun> runs)
			throws ExperimentException {
		get(name);
		Path dir = folder(name);
		Path building = temporary(dir, "next");
		try {
			TraceIdentity identity = copyRuns(name, outputs, runs, building);
			swapOutputs(dir, building);
			writeConfig(dir, config, identity, liveOf(dir.resolve(OUTPUTS)));
			return new ExperimentResult(name, traceFile, config, runs);
		} catch (IOException e) {
			throw ExperimentException.failure("cannot save " + dir + ": " + IoText.describe(e), e);
		} finally {
			deleteQuietly(building);
		}
	}

	/** Copies a complete outputs folder into {@code out} (created) and writes {@code runs} there as the runs file. */
	private TraceIdentity copyRuns(String name, Path outputs, List<CrRun> runs, Path out)
			throws ExperimentException, IOException {
		if (runs.isEmpty()) {
			throw ExperimentException.failure("cannot save " + name + ": no runs");
		}
		TraceIdentity identity = readIdentity(outputs);
		Files.createDirectory(out);
		try (DirectoryStream<Path> files = Files.newDirectoryStream(outputs)) {
			for (Path f : files) {
				if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) && !f.getFileName().toString().equals(RUNS_FILE)) {
					Files.copy(f, out.resolve(f.getFileName().toString()));
				}
			}
		}
		Path target = out.resolve(RUNS_FILE);
		try (OutputFile file = OutputFile.create(target)) {
			RunsFile.write(file, identity.sha256(), runs, new NullProgressMonitor());
			file.commit();
		}
		return identity;
	}

	/**
	 * Where and when experiment {@code name} was run live: its {@value #CONFIG_FILE}'s {@code "live"} object, else
	 * (saved before that field) its outputs' manifest when {@code workbench live} wrote it; null for a simulated
	 * experiment or unreadable files.
	 */
	public @Nullable LiveRun liveRun(String name) {
		Path dir = folder(name);
		try {
			if (readJson(dir.resolve(CONFIG_FILE)).get("live") instanceof Map<?, ?> live
					&& live.get("device") instanceof String device) {
				return new LiveRun(device, live.get("finished") instanceof String f ? f : null);
			}
		} catch (ExperimentException e) {
			// the configuration is unreadable: describe() says so; the manifest may still tell
		}
		return liveOf(dir.resolve(OUTPUTS));
	}

	/** The live mark of an outputs folder whose manifest {@code workbench live} wrote, else null. */
	private static @Nullable LiveRun liveOf(Path outputs) {
		try {
			Map<?, ?> json = readJson(outputs.resolve(ResultFolder.MANIFEST));
			if (json.get("tool") instanceof String tool && tool.endsWith(" live")) {
				return new LiveRun(json.get("device") instanceof String d ? d : "an unnamed GPU",
						json.get("finished") instanceof String f ? f : null);
			}
		} catch (ExperimentException e) {
			return null;
		}
		return null;
	}

	/**
	 * The device experiment {@code name} was run live on (its outputs' manifest was written by {@code workbench
	 * live}), or null for a simulated experiment or one whose manifest cannot be read.
	 */
	public @Nullable String liveDevice(String name) {
		LiveRun live = liveRun(name);
		return live == null ? null : live.device();
	}
	// i13-live2: end

	/** The configuration checked against the trace (a pass over it, an engine created): reports as it goes. */
	private ExperimentRunner runner(ExperimentConfig config, Trace trace, ExperimentListener listener,
			IProgressMonitor pm) throws ExperimentException {
		return Background.call("checking the configuration against the trace", pm, 2, true,
				m -> new ExperimentRunner(config, traceFile, trace).listener(listener));
	}

	/**
	 * Runs the saved configuration of {@code name} again over {@code trace} (this store's trace as it is now) and
	 * replaces its outputs; the old outputs stay untouched until the new ones are complete.
	 */
	public ExperimentResult rerun(String name, Trace trace, ExperimentListener listener,
			@Nullable IProgressMonitor monitor) throws ExperimentException {
		SavedExperiment saved = get(name);
		ExperimentConfig config = saved.config();
		if (config == null) {
			throw ExperimentException.failure(String.valueOf(saved.problem()));
		}
		String live = liveDevice(name); // i13-live2
		if (live != null) {
			throw ExperimentException.failure(name + " was run live on " + live + ": re-running it here would "
					+ "simulate it instead; run it again live (experiment run --live, or Re-run live in the workbench) "
					+ "on a machine with a CUDA GPU");
		}
		IProgressMonitor pm = monitor == null ? new NullProgressMonitor() : monitor;
		pm.beginTask("Experiment " + name, 100);
		Path dir = folder(name);
		Path building = temporary(dir, "next");
		try {
			ExperimentRunner runner = runner(config, trace, listener, pm);
			Files.createDirectory(building);
			Written written = runAndWrite(runner, name, building, new ProgressSlice(pm, 98));
			swapOutputs(dir, building);
			try {
				writeConfig(dir, config, written.identity());
			} catch (IOException e) {
				listener.warning("the outputs were replaced but " + dir.resolve(CONFIG_FILE)
						+ " could not be updated with the trace's identity: " + IoText.describe(e));
			}
			return written.result();
		} catch (IOException e) {
			throw ExperimentException.failure("cannot save " + dir + ": " + IoText.describe(e), e);
		} finally {
			deleteQuietly(building);
			pm.done();
		}
	}

	/** A run written into its outputs folder, and the identity of the trace its manifest holds. */
	private record Written(ExperimentResult result, TraceIdentity identity) {
	}

	private Written runAndWrite(ExperimentRunner runner, String name, Path outputs, IProgressMonitor pm)
			throws ExperimentException, IOException {
		try {
			pm.beginTask("Experiment " + name, 100);
			Files.createDirectories(outputs);
			TraceIdentity[] identity = new TraceIdentity[1];
			// the runs file is written beside the charts; the folder is scratch, discarded on a cancel
			ExperimentOutputs written = runner.runInto(name, outputs, new ProgressSlice(pm, 100), true,
					(runs, id, m) -> {
						identity[0] = id;
						Path target = outputs.resolve(RUNS_FILE);
						try (OutputFile file = OutputFile.create(target)) {
							RunsFile.write(file, id.sha256(), runs, m);
							if (m.isCanceled()) {
								throw new OperationCanceledException();
							}
							file.commit();
						} catch (IOException e) {
							throw ExperimentException.failure("cannot write " + target + ": " + IoText.describe(e), e);
						}
					});
			TraceIdentity id = identity[0];
			if (id == null) {
				throw ExperimentException.failure("the runs of " + name + " were not saved");
			}
			return new Written(written.result(), id);
		} finally {
			pm.done();
		}
	}

	/** outputs -> .old, building -> outputs, .old deleted; undone when the second move fails. */
	private static void swapOutputs(Path dir, Path building) throws IOException {
		Path outputs = dir.resolve(OUTPUTS);
		Path old = temporary(dir, "old");
		boolean hadOld = Files.exists(outputs, LinkOption.NOFOLLOW_LINKS);
		if (hadOld) {
			Files.move(outputs, old, StandardCopyOption.ATOMIC_MOVE);
		}
		try {
			Files.move(building, outputs, StandardCopyOption.ATOMIC_MOVE);
		} catch (IOException e) {
			if (hadOld) {
				Files.move(old, outputs, StandardCopyOption.ATOMIC_MOVE);
			}
			throw e;
		} finally {
			ACTIVE.remove(old);
		}
		if (hadOld) {
			deleteQuietly(old);
		}
	}

	/**
	 * Reads experiment {@code name} back from its files (no simulation): refuses one whose trace changed or is
	 * missing, or that is damaged, with a message naming the file.
	 */
	public ExperimentResult open(String name) throws ExperimentException {
		return open(name, false);
	}

	/**
	 * As {@link #open(String)}; with {@code evenIfTraceChanged}, an experiment whose trace changed (or is gone)
	 * opens too: the caller says so to the person.
	 */
	public ExperimentResult open(String name, boolean evenIfTraceChanged) throws ExperimentException {
		SavedExperiment saved = get(name);
		boolean traceProblem = saved.state() == SavedExperiment.State.TRACE_CHANGED
				|| saved.state() == SavedExperiment.State.TRACE_MISSING;
		if (!saved.ready() && !(traceProblem && evenIfTraceChanged)) {
			throw ExperimentException.failure("cannot open " + name + ": " + saved.problem());
		}
		ExperimentConfig config = saved.config();
		TraceIdentity identity = saved.trace();
		if (config == null || identity == null) {
			throw ExperimentException.failure("cannot open " + name + ": " + saved.problem());
		}
		Path runs = saved.folder().resolve(OUTPUTS).resolve(RUNS_FILE);
		RunsFile.Contents contents;
		try {
			contents = RunsFile.read(runs);
		} catch (IOException e) {
			throw ExperimentException.failure("cannot open " + name + ": " + runs + ": " + IoText.describe(e), e);
		}
		if (contents.traceSha256() == null || !contents.traceSha256().equals(identity.sha256())) {
			throw ExperimentException.failure("cannot open " + name + ": " + runs + " was computed from another "
					+ "trace than " + saved.folder().resolve(OUTPUTS).resolve(ResultFolder.MANIFEST)
					+ " names: re-run the experiment");
		}
		if (contents.runs().isEmpty()) {
			throw ExperimentException.failure("cannot open " + name + ": " + runs + " holds no runs");
		}
		return new ExperimentResult(name, traceFile, config, contents.runs());
	}

	/** Renames experiment {@code from} to {@code to} (its folder); refuses an invalid or taken name. */
	public SavedExperiment rename(String from, String to) throws ExperimentException {
		get(from);
		ExperimentProblem problem = checkNewName(to);
		if (problem != null) {
			throw new ExperimentException(problem);
		}
		try {
			Files.move(folder(from), folder(to), StandardCopyOption.ATOMIC_MOVE);
		} catch (IOException e) {
			throw ExperimentException.failure("cannot rename " + folder(from) + " to " + to + ": "
					+ IoText.describe(e), e);
		}
		return describe(to);
	}

	/** Deletes experiment {@code name}: its folder is first moved aside, so it never shows half deleted. */
	public void delete(String name) throws ExperimentException {
		get(name);
		Path aside = temporary(root, "deleted");
		try {
			Files.move(folder(name), aside, StandardCopyOption.ATOMIC_MOVE);
		} catch (IOException e) {
			ACTIVE.remove(aside);
			throw ExperimentException.failure("cannot delete " + folder(name) + ": " + IoText.describe(e), e);
		}
		try {
			deleteTree(aside);
		} catch (IOException e) {
			// gone from the list; what is left is hidden and removed by the next repair
		} finally {
			ACTIVE.remove(aside);
		}
	}

	// ---- files

	private static ExperimentConfig readConfig(Path dir) throws ExperimentException {
		Path file = dir.resolve(CONFIG_FILE);
		Map<?, ?> json = readJson(file);
		if (!FORMAT.equals(json.get("format"))) {
			throw ExperimentException.failure(file + ": not a saved experiment's configuration (format "
					+ json.get("format") + ", expected " + FORMAT + ")");
		}
		if (!(json.get("config") instanceof Map<?, ?> c)) {
			throw ExperimentException.failure(file + ": no \"config\" object");
		}
		String policies = text(file, c, "policy", false);
		String at = text(file, c, "at", true);
		String machine = text(file, c, "machine", false);
		String sets = text(file, c, "sets", false);
		if (!(c.get("width") instanceof Long width) || width < Integer.MIN_VALUE || width > Integer.MAX_VALUE) {
			throw ExperimentException.failure(file + ": \"width\" is not an integer");
		}
		return new ExperimentConfig(policies == null ? "" : policies, at, machine == null ? "" : machine,
				sets == null ? "" : sets, width.intValue());
	}

	private static @Nullable String text(Path file, Map<?, ?> object, String field, boolean nullable)
			throws ExperimentException {
		Object value = object.get(field);
		if (value instanceof String s) {
			return s;
		}
		if (value == null && nullable) {
			return null;
		}
		throw ExperimentException.failure(file + ": \"" + field + "\" is " + (value == null ? "missing" : "not a text"));
	}

	private static Map<?, ?> readJson(Path file) throws ExperimentException {
		String text;
		try {
			if (Files.size(file) > (16 << 20)) {
				throw ExperimentException.failure(file + ": too large for a configuration or manifest");
			}
			text = Files.readString(file, StandardCharsets.UTF_8);
		} catch (NoSuchFileException e) {
			throw ExperimentException.failure(file + ": missing", e);
		} catch (IOException e) {
			throw ExperimentException.failure(file + ": cannot read: " + IoText.describe(e), e);
		}
		Object value;
		try {
			value = JsonReader.parse(text);
		} catch (IllegalArgumentException e) {
			throw ExperimentException.failure(file + ": damaged JSON: " + e.getMessage(), e);
		}
		if (!(value instanceof Map<?, ?> map)) {
			throw ExperimentException.failure(file + ": damaged: not a JSON object");
		}
		return map;
	}

	/** The trace identity of a complete simulate manifest in {@code outputs}. */
	private static TraceIdentity readIdentity(Path outputs) throws ExperimentException {
		Path file = outputs.resolve(ResultFolder.MANIFEST);
		Map<?, ?> json = readJson(file);
		if (!ResultFolder.FORMAT.equals(json.get("format"))) {
			throw ExperimentException.failure(file + ": not a simulate manifest");
		}
		if (!Boolean.TRUE.equals(json.get("complete"))) {
			throw ExperimentException.failure(file + ": the outputs are incomplete (a run was stopped while "
					+ "writing them): re-run the experiment");
		}
		if (!(json.get("trace") instanceof Map<?, ?> t)) {
			throw ExperimentException.failure(file + ": no \"trace\" object");
		}
		String path = text(file, t, "path", false);
		String sha = text(file, t, "sha256", true);
		String recorder = text(file, t, "recorder", false);
		String host = text(file, t, "host", false);
		long bytes = t.get("bytes") instanceof Long b ? b : -1;
		long pid = t.get("pid") instanceof Long p ? p : -1;
		long start = t.get("startUnixNs") instanceof Long s ? s : -1;
		return new TraceIdentity(String.valueOf(path), bytes, sha, String.valueOf(recorder), String.valueOf(host), pid,
				start);
	}

	private static void writeConfig(Path dir, ExperimentConfig config, TraceIdentity identity) throws IOException {
		writeConfig(dir, config, identity, null);
	}

	private static void writeConfig(Path dir, ExperimentConfig config, TraceIdentity identity, @Nullable LiveRun live)
			throws IOException {
		OutputFile.write(dir.resolve(CONFIG_FILE), stream -> {
			PrintStream print = new PrintStream(stream, false, StandardCharsets.UTF_8);
			JsonWriter json = new JsonWriter(print);
			json.beginObject();
			json.field("format", FORMAT);
			json.field("saved", Instant.now().toString());
			json.name("config").beginObject();
			json.field("policy", config.policies());
			json.field("at", config.at());
			json.field("machine", config.machine());
			json.field("sets", config.sets());
			json.field("width", (long) config.widthPx());
			json.endObject();
			if (live != null) { // i13-live2: where and when it ran live (opens anywhere; re-running needs a GPU)
				json.name("live").beginObject();
				json.field("device", live.device());
				json.field("finished", live.finished());
				json.endObject();
			}
			identity.write(json);
			json.endObject();
			json.finish();
			print.flush();
			if (print.checkError()) {
				throw new IOException("cannot write " + CONFIG_FILE);
			}
		});
	}

	// ---- temporary folders and repair

	private static Path temporary(Path parent, String kind) {
		Path p = parent.resolve("." + kind + "-" + ProcessHandle.current().pid() + "-"
				+ Long.toString(RANDOM.nextLong() >>> 1, 36));
		ACTIVE.add(p);
		return p;
	}

	/** Whether a hidden folder of ours is left over: its process is gone, or it is this one's and not in use. */
	private static boolean leftOver(Path p) {
		String n = p.getFileName().toString();
		String[] parts = n.substring(1).split("-");
		if (parts.length != 3) {
			return false;
		}
		long pid;
		try {
			pid = Long.parseLong(parts[1]);
		} catch (NumberFormatException e) {
			return false;
		}
		if (pid == ProcessHandle.current().pid()) {
			return !ACTIVE.contains(p);
		}
		return ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
	}

	private void repairRoot() {
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, ".{new,deleted}-*")) {
			for (Path p : entries) {
				if (leftOver(p)) {
					deleteQuietly(p);
				}
			}
		} catch (IOException e) {
			// listing says so
		}
	}

	/** Undoes what a killed re-run left: restores outputs moved aside, deletes unfinished ones. */
	private static void repair(Path dir) {
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, ".{next,old}-*")) {
			Path outputs = dir.resolve(OUTPUTS);
			for (Path p : entries) {
				if (!leftOver(p)) {
					continue;
				}
				if (p.getFileName().toString().startsWith(".old-") && !Files.exists(outputs)) {
					Files.move(p, outputs, StandardCopyOption.ATOMIC_MOVE);
				} else {
					deleteQuietly(p);
				}
			}
		} catch (IOException | RuntimeException e) {
			// describe() reports what is missing
		}
	}

	/**
	 * Deletes a folder of ours; what cannot be deleted now (a worker of a cancelled run still closing its files in
	 * it) is left for the next repair, which deletes hidden folders no running job uses.
	 */
	private static void deleteQuietly(Path p) {
		try {
			deleteTree(p);
		} catch (IOException | UncheckedIOException e) {
			// left for the next repair
		} finally {
			ACTIVE.remove(p);
		}
	}

	private static void deleteTree(Path p) throws IOException {
		if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
			return;
		}
		Files.walkFileTree(p, new SimpleFileVisitor<>() {
			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
				Files.deleteIfExists(file);
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
				if (e instanceof NoSuchFileException) {
					return FileVisitResult.CONTINUE; // gone meanwhile
				}
				throw e;
			}

			@Override
			public FileVisitResult postVisitDirectory(Path dir, @Nullable IOException e) throws IOException {
				if (e != null && !(e instanceof NoSuchFileException)) {
					throw e;
				}
				Files.deleteIfExists(dir);
				return FileVisitResult.CONTINUE;
			}
		});
	}
}
