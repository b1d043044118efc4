package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.StreamGap;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;

/**
 * {@code workbench attach} end to end against a real recording process: the fake-libcuda program of native-hooks
 * ({@code fake_app live}, driven by commands on its stdin) under the real recorder, over the real Unix socket. Needs
 * the native build ({@code make -C native-hooks}, CUDA headers, no GPU); skipped where it cannot be built.
 */
class AttachCommandTest {
	private static Path native_;

	@TempDir
	Path tmp;

	private Process app;

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

	/** fake_app in "live" mode under the recorder; its stderr lines (PHOS_DEBUG=1) go to {@link #stderr}. */
	private LinkedBlockingQueue<String> stderr = new LinkedBlockingQueue<>();
	private Writer stdin;
	private BufferedReader stdout;
	private long pid;

	private FakeLiveApp live;

	private Path startApp(Path xdg, Path trace) throws Exception {
		live = FakeLiveApp.start(native_, xdg, trace, Map.of());
		app = live.process;
		stdin = live.stdin;
		stdout = live.stdout;
		stderr = live.stderr;
		pid = live.pid;
		return live.socketDir;
	}

	private long cmd(String c) throws IOException {
		String l = live.command(c);
		return Long.parseLong(l.substring(3).trim());
	}

	private int connections;

	/** Waits until the recorder's stderr said that its {@code k}-th reader connected (PHOS_DEBUG=1). */
	private void awaitReader(int k) throws InterruptedException {
		long end = System.nanoTime() + 10_000_000_000L;
		while (connections < k && System.nanoTime() < end) {
			String l = stderr.poll(100, TimeUnit.MILLISECONDS);
			if (l != null && l.contains("attach: reader pid") && l.contains("connected")) {
				connections++;
			}
		}
		assertTrue(connections >= k, "the recorder did not accept reader " + k + " within 10 s");
	}

	@Test
	void listsTheProcessThenStreamsItToAFileTheWorkbenchLoads() throws Exception {
		Path trace = tmp.resolve("app.phos");
		Path dir = startApp(tmp.resolve("xdg"), trace);
		long n0 = cmd("launch 100");
		cmd("alloc 1048576");
		Thread.sleep(100); // written (PHOS_FLUSH_MS=20): the reader joins after a whole batch

		CliRun list = CliRun.of("attach", "--list", "--dir", dir.toString());
		assertEquals(0, list.exit(), list.toString());
		String row = list.out().lines().filter(l -> l.startsWith(pid + " ")).findFirst().orElse("");
		assertTrue(row.contains("Fake GPU") && row.contains("fake_app live"), list.toString());
		long listed = Long.parseLong(row.trim().split("\\s+")[3]);
		assertTrue(listed >= n0 + 1, "events so far " + listed + " in " + row);

		Path saved = tmp.resolve("live.phos");
		CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of("attach", Long.toString(pid),
				"--save", saved.toString(), "--dir", dir.toString(), "--interval-ms", "100"));
		awaitReader(2); // (the first connection was --list's)
		cmd("launch 500");
		cmd("free");
		long n = cmd("launch 10");
		stdin.write("exit\n");
		stdin.flush();
		assertTrue(app.waitFor(30, TimeUnit.SECONDS));
		CliRun r = run.get(30, TimeUnit.SECONDS);
		System.out.println("attach --list:\n" + list.out() + "attach:\n" + r.out());
		assertEquals(0, r.exit(), r.toString());
		assertTrue(r.out().contains("closed its trace: " + (n + 1) + " events in all"), r.toString());
		assertTrue(r.out().lines().anyMatch(l -> l.contains("launches 510 ") && l.contains("top: axpy 510")), r.toString());
		assertTrue(r.out().contains("missed 0"), r.toString());
		assertTrue(r.out().contains("Java call sites: none (no " + trace + ".java-sites"), r.toString()); // i14-jsites

		// the saved stream loads like any trace; each event it holds is the process's own event of that index
		TraceLoadResult got = TraceReader.read(saved, null);
		TraceLoadResult file = TraceReader.read(trace, null);
		Trace s = got.trace();
		Trace f = file.trace();
		assertNotNull(s.end());
		assertEquals(f.eventCount(), s.end().eventCount());
		assertEquals(510, s.launchCount());
		assertFalse(got.streamGaps().isEmpty());
		assertEquals(StreamGap.Reason.ATTACHED_LATE, got.streamGaps().get(0).reason());
		assertNotNull(got.streamStart());
		assertEquals(trace.toString(), got.streamStart().tracePath());
		assertEquals(4, count(s, EventKind.ALLOC), "the three allocations and the 1 MiB one live when it joined");
		for (int i = 0; i < s.eventCount(); i++) {
			int p = (int) StreamGap.processIndex(got.streamGaps(), i);
			assertEquals(f.event(p), s.event(i), "event " + i + " of the stream = event " + p + " of the process");
		}
		assertTrue(got.warnings().stream().anyMatch(w -> w.message().contains("attached to process " + pid)),
				got.warnings().toString());
		CliRun info = CliRun.of("info", saved.toString());
		assertEquals(0, info.exit(), info.toString());
	}

	private static long count(Trace t, EventKind k) {
		long n = 0;
		for (int i = 0; i < t.eventCount(); i++) {
			n += t.kind(i) == k ? 1 : 0;
		}
		return n;
	}

	@Test
	void detachesAndReattachesWhileTheProcessGoesOn() throws Exception {
		Path dir = startApp(tmp.resolve("xdg"), tmp.resolve("app.phos"));
		cmd("launch 10");
		CliRun first = CliRun.of("attach", Long.toString(pid), "--seconds", "1", "--dir", dir.toString(),
				"--interval-ms", "200");
		assertEquals(0, first.exit(), first.toString());
		assertTrue(first.out().contains("detached after 1 s; process " + pid + " goes on"), first.toString());
		assertTrue(app.isAlive());
		long n = cmd("launch 20");
		Path saved = tmp.resolve("again.phos");
		CompletableFuture<CliRun> again = CompletableFuture.supplyAsync(() -> CliRun.of("attach", Long.toString(pid),
				"--save", saved.toString(), "--dir", dir.toString(), "--interval-ms", "100"));
		awaitReader(2);
		cmd("launch 7");
		stdin.write("exit\n");
		stdin.flush();
		CliRun r = again.get(30, TimeUnit.SECONDS);
		assertEquals(0, r.exit(), r.toString());
		TraceLoadResult got = TraceReader.read(saved, null);
		assertNotNull(got.trace().end());
		assertTrue(got.trace().launchCount() >= 7, "at least the launches after it reattached");
		assertEquals(got.trace().end().eventCount(), got.trace().eventCount()
				+ got.streamGaps().stream().mapToLong(StreamGap::count).sum());
		assertTrue(n > 0);
	}

	@Test
	void aProcessKilledMidStreamLeavesWhatArrivedAsALoadableTrace() throws Exception {
		Path trace = tmp.resolve("app.phos");
		Path dir = startApp(tmp.resolve("xdg"), trace);
		Path saved = tmp.resolve("killed.phos");
		CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of("attach", Long.toString(pid),
				"--save", saved.toString(), "--dir", dir.toString(), "--interval-ms", "100"));
		awaitReader(1);
		stdin.write("launch 3000000\n");
		stdin.flush();
		for (int i = 0; i < 500 && (!Files.exists(trace) || Files.size(trace) < 200_000); i++) {
			Thread.sleep(10);
		}
		assertTrue(app.isAlive(), "still launching when killed");
		app.destroyForcibly(); // SIGKILL
		app.waitFor();
		CliRun r = run.get(30, TimeUnit.SECONDS);
		assertEquals(0, r.exit(), r.toString());
		assertTrue(r.out().contains("the stream ended without TraceEnd: process " + pid + " was killed"), r.toString());
		TraceLoadResult got = TraceReader.read(saved, null);
		assertTrue(got.trace().launchCount() > 0, "it kept the launches received: " + r + got.warnings() + got.streamGaps());
		assertTrue(got.warnings().stream().anyMatch(w -> w.message().contains("not closed cleanly")), got.warnings().toString());
		assertTrue(got.warnings().stream().noneMatch(w -> w.message().contains("damaged")), got.warnings().toString());

		// the socket the killed process left: a clear line, no stack trace
		CliRun stale = CliRun.of("attach", Long.toString(pid), "--dir", dir.toString());
		assertEquals(ExitCode.FAILURE, stale.exit(), stale.toString());
		assertTrue(stale.err().contains("stale socket") && stale.err().contains("has ended"), stale.toString());
		assertEquals(1, stale.err().lines().count(), stale.toString());
		CliRun list = CliRun.of("attach", "--list", "--dir", dir.toString());
		assertTrue(list.out().contains("no live recording process") && list.out().contains("stale socket(s)")
				&& list.out().contains("pid " + pid), list.toString());
	}

	@Test
	void aDeadPidOrASocketNobodyListensOnIsOneClearLine() throws Exception {
		Path dir = Files.createDirectories(tmp.resolve("phos"));
		Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
		CliRun none = CliRun.of("attach", "999999999", "--dir", dir.toString());
		assertEquals(ExitCode.FAILURE, none.exit(), none.toString());
		assertTrue(none.err().contains("no process 999999999"), none.toString());
		assertEquals(1, none.err().lines().count(), none.toString());

		// a live pid (this JVM) whose socket nobody listens on any more
		long self = ProcessHandle.current().pid();
		Path sock = dir.resolve(self + ".sock");
		try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
			s.bind(UnixDomainSocketAddress.of(sock));
		}
		CliRun deaf = CliRun.of("attach", Long.toString(self), "--dir", dir.toString());
		assertEquals(ExitCode.FAILURE, deaf.exit(), deaf.toString());
		assertTrue(deaf.err().contains("stale socket") && deaf.err().contains("nobody listens"), deaf.toString());
		assertEquals(1, deaf.err().lines().count(), deaf.toString());

		// a directory others may write to: its sockets are not trusted
		Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
		CliRun open = CliRun.of("attach", Long.toString(self), "--dir", dir.toString());
		assertEquals(ExitCode.FAILURE, open.exit(), open.toString());
		assertTrue(open.err().contains("not attaching through") && open.err().contains("open to other users"), open.toString());
		CliRun openList = CliRun.of("attach", "--list", "--dir", dir.toString());
		assertTrue(openList.out().contains("not listing " + dir) && openList.out().contains("open to other users"),
				openList.toString());

		CliRun bad = CliRun.of("attach", "abc", "--dir", dir.toString());
		assertEquals(ExitCode.USAGE, bad.exit(), bad.toString());
		assertTrue(bad.err().contains("PID must be a process id"), bad.toString());
	}
}
