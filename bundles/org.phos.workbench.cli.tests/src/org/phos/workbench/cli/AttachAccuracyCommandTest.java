package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;

/**
 * i14-liveacc: {@code workbench attach PID} prints the engines' accuracy while the process runs, as observed accesses
 * arrive on its live stream. The process is native-hooks' {@code fake_app live} under the real recorder with its fake
 * observer ({@code FAKE_OBSERVER=1}): its "observe" command hands made-up accesses of the launches since the last one
 * to the recorder through {@code phos_recorder_observed}, as the sanitizer tool does after each read-back. The figures
 * must move while attached, and the last ones must be {@code validate}'s on the saved stream. Needs the native build
 * (no GPU); skipped where it cannot be built.
 */
class AttachAccuracyCommandTest {
	private static Path native_;

	@TempDir
	Path tmp;

	private Process app;
	private LinkedBlockingQueue<String> stderr = new LinkedBlockingQueue<>();
	private Writer stdin;
	private BufferedReader stdout;
	private long pid;

	@BeforeAll
	static void buildNative() throws Exception {
		Path repo = Path.of(System.getProperty("phos.repo", ".")).toAbsolutePath();
		native_ = repo.resolve("native-hooks");
		assumeTrue(Files.isRegularFile(native_.resolve("Makefile")), "no native-hooks under " + repo + " (-Dphos.repo)");
		Process make = new ProcessBuilder("make", "-s", "-C", native_.toString(), "all", "build/fake_app")
				.redirectErrorStream(true).start();
		String log = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assumeTrue(make.waitFor(300, TimeUnit.SECONDS) && make.exitValue() == 0,
				"the recorder and its fake libcuda do not build here (CUDA headers?): " + log);
	}

	@AfterEach
	void stopApp() {
		if (app != null) {
			app.destroyForcibly();
		}
	}

	private FakeLiveApp live;

	private Path startApp(Path xdg, Path trace) throws Exception {
		live = FakeLiveApp.start(native_, xdg, trace, Map.of("FAKE_OBSERVER", "1"));
		app = live.process;
		stdin = live.stdin;
		stdout = live.stdout;
		stderr = live.stderr;
		pid = live.pid;
		return live.socketDir;
	}

	private String cmd(String c) throws IOException {
		return live.command(c);
	}

	private void awaitReader() throws InterruptedException {
		long end = System.nanoTime() + 10_000_000_000L;
		while (System.nanoTime() < end) {
			String l = stderr.poll(100, TimeUnit.MILLISECONDS);
			if (l != null && l.contains("attach: reader pid") && l.contains("connected")) {
				return;
			}
		}
		throw new AssertionError("the recorder did not accept the reader within 10 s");
	}

	private static final Pattern LINE = Pattern.compile(
			"^\\s+(\\S+)\\s+judged (\\d+)  unsafe (\\d+)  missed writes (\\d+)  write recall (\\S+)  byte precision (\\S+)$");

	/** Each block of accuracy lines the command printed: engine -> [judged, unsafe, missed writes, recall, precision]. */
	private static List<Map<String, List<String>>> blocks(String out) {
		List<Map<String, List<String>>> blocks = new ArrayList<>();
		Map<String, List<String>> cur = null;
		for (String l : out.lines().toList()) {
			if (l.contains("accuracy: ")) {
				cur = new LinkedHashMap<>();
				blocks.add(cur);
				continue;
			}
			Matcher m = LINE.matcher(l);
			if (m.matches() && cur != null) {
				cur.put(m.group(1), List.of(m.group(2), m.group(3), m.group(4), m.group(5), m.group(6)));
			} else {
				cur = null;
			}
		}
		return blocks;
	}

	@Test
	void accuracyLinesMoveWhileAttachedAndEndAsValidateOnTheSavedStream() throws Exception {
		Path trace = tmp.resolve("app.phos");
		Path dir = startApp(tmp.resolve("xdg"), trace);
		Path saved = tmp.resolve("live.phos");
		// its own thread: the common pool may be busy with what other tests left there (2 cores: one worker)
		java.util.concurrent.ExecutorService own = java.util.concurrent.Executors.newSingleThreadExecutor();
		CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of("attach", Long.toString(pid),
				"--save", saved.toString(), "--dir", dir.toString(), "--interval-ms", "100"), own);
		own.shutdown();
		awaitReader();
		cmd("launch 40");
		assertTrue(cmd("observe").endsWith("observed 40 rc 0"), "the first hand-over is queued for the reader");
		Thread.sleep(600); // a few intervals: the first accuracy lines
		cmd("launch 60");
		assertTrue(cmd("observe").endsWith("observed 60 rc 0"));
		Thread.sleep(600);
		stdin.write("exit\n");
		stdin.flush();
		assertTrue(app.waitFor(30, TimeUnit.SECONDS));
		CliRun r = run.get(60, TimeUnit.SECONDS);
		System.out.println("attach:\n" + r.out());
		assertEquals(0, r.exit(), r.toString());

		List<Map<String, List<String>>> blocks = blocks(r.out());
		assertTrue(blocks.size() >= 2, "accuracy lines after each hand-over: " + r.out());
		Map<String, List<String>> first = blocks.get(0);
		Map<String, List<String>> last = blocks.get(blocks.size() - 1);
		assertEquals(List.of("phos", "arg-scan", "ptx-flow/arg-scan"), new ArrayList<>(first.keySet()).subList(0, 3),
				"one line per engine, validate's default engines: " + first);
		assertEquals(4, last.size(), last.toString());
		// the fake observer's launches: k % 4 == 3 observed without an access, so 30 of the first 40 have records
		assertEquals("30", first.get("phos").get(0), first.toString());
		assertEquals("75", last.get("phos").get(0), last.toString());
		assertTrue(r.out().contains("accuracy: 30 of 40 launches observed") && r.out().contains("75 of 100 launches observed"),
				r.out());

		// the last figures are validate's on the saved stream (in-process CLI, its --csv for every column)
		TraceLoadResult got = TraceReader.read(saved, null);
		Trace s = got.trace();
		assertEquals(100, s.launchCount());
		assertEquals(150, s.observedAccesses().size(), "75 launches with two records each");
		assertEquals(1, s.observationCoverage().size(), "the hand-overs' coverage, one per tool");
		assertEquals(100, s.observationCoverage().get(0).observedCount());
		Path csv = tmp.resolve("validate.csv");
		CliRun v = CliRun.of("validate", saved.toString(), "--csv", csv.toString());
		System.out.println("validate:\n" + v.out());
		assertEquals(0, v.exit(), v.toString());
		List<String> rows = Files.readAllLines(csv);
		List<String> header = List.of(rows.get(0).split(","));
		int engine = header.indexOf("engine"), kernel = header.indexOf("kernel"), launches = header.indexOf("launches"),
				unsafe = header.indexOf("unsafe_launches"), missed = header.indexOf("missed_write"),
				wp = header.indexOf("write_pairs"), wr = header.indexOf("write_pairs_recalled"),
				sb = header.indexOf("speculated_bytes"), ub = header.indexOf("useful_bytes");
		int totals = 0;
		for (String row : rows.subList(1, rows.size())) {
			String[] c = row.split(",");
			if (!c[kernel].equals("(all kernels)")) {
				continue;
			}
			totals++;
			List<String> live = last.get(c[engine]);
			assertNotNull(live, "a live line for " + c[engine] + ": " + last);
			long n = Long.parseLong(c[launches]);
			assertEquals(c[launches], live.get(0), c[engine] + " launches judged");
			assertEquals(c[unsafe], live.get(1), c[engine] + " unsafe launches");
			assertEquals(c[missed], live.get(2), c[engine] + " missed writes");
			double recall = Long.parseLong(c[wp]) == 0 ? 1 : (double) Long.parseLong(c[wr]) / Long.parseLong(c[wp]);
			double precision = Long.parseLong(c[sb]) == 0 ? 1 : (double) Long.parseLong(c[ub]) / Long.parseLong(c[sb]);
			assertEquals(n == 0 ? "-" : String.format(java.util.Locale.ROOT, "%.2f%%", recall * 100), live.get(3),
					c[engine] + " write recall");
			assertEquals(n == 0 ? "-" : String.format(java.util.Locale.ROOT, "%.2f%%", precision * 100), live.get(4),
					c[engine] + " byte precision");
			// and validate's own table prints the same shares
			String table = v.out().lines().filter(l -> l.startsWith(c[engine] + " ")).findFirst().orElse("");
			assertTrue(table.contains(live.get(3)) && table.contains(live.get(4)), table + " vs " + live);
		}
		assertEquals(4, totals, "validate judged the same four engines");
		// the saved stream carries its own copy of the observations: merging the same records again replaces them
		Path merged = tmp.resolve("merged.phos");
		CliRun m = CliRun.of("merge-observed", saved.toString(), saved.toString(), "--out", merged.toString());
		assertEquals(0, m.exit(), m.toString());
		assertEquals(150, TraceReader.read(merged, null).trace().observedAccesses().size(), "not counted twice");
		assertTrue(!first.equals(last), "the figures moved while attached: " + first + " -> " + last);
	}
}
