package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.attach.LiveJavaSites;
import org.phos.workbench.trace.core.attach.LiveStream;
import org.phos.workbench.trace.core.attach.LiveWindow;
import org.phos.workbench.trace.core.javasites.JavaCall;
import org.phos.workbench.trace.core.javasites.JavaSiteLog;
import org.phos.workbench.trace.core.javasites.JavaSites;

/**
 * i14-jsites: the Java call sites of a live JCuda process. A real JVM runs a JCuda-style program whose stand-in
 * {@code JCudaDriver} calls the fake libcuda's real entry points (FFM) under the real recorder, with the real JCuda
 * agent; this test attaches in-process (LiveStream, LiveWindow, LiveJavaSites: what the live trace does) while
 * {@code workbench attach PID --save} runs beside it. Each launch's live site must be the line the program's source
 * marks, must arrive while the program still runs, must equal the file pairing of the saved stream and of the
 * process's own trace afterwards, and the command line must show the top sites.
 */
class AttachJavaSitesTest {
	@TempDir
	Path tmp;

	@Test
	void liveLaunchesCarryTheirJavaSitesAndTheSavedStreamOpensWithThem() throws Exception {
		Path build = LiveJCudaProcess.nativeBuild();
		Path classes = LiveJCudaProcess.compile(tmp);
		try (LiveJCudaProcess p = new LiveJCudaProcess(build, classes, tmp.resolve("xdg"), tmp.resolve("app.phos"),
				true)) {
			String step = p.site("step", "step");
			String burst = p.site("burst", "main");
			String pid = Long.toString(p.pid());
			Path saved = tmp.resolve("live.phos");
			CompletableFuture<CliRun> cli = CompletableFuture.supplyAsync(() -> CliRun.of("attach", pid, "--save",
					saved.toString(), "--dir", p.socketDir().toString(), "--interval-ms", "100"));
			p.awaitReader(1);

			LiveWindow window = new LiveWindow(10_000);
			LiveStream stream = LiveStream.open(p.socketDir(), p.pid());
			Thread reader = new Thread(() -> {
				try {
					LiveStream.StreamChunk c;
					while ((c = stream.next()) != null) {
						window.accept(c);
					}
				} catch (Exception e) {
					e.printStackTrace();
				}
			}, "test reader");
			reader.start();
			p.awaitReader(2);
			Path sideFile = LiveJavaSites.sideFileOf(p.trace().toString(), p.pid());
			assertEquals(JavaSiteLog.sideFileOf(p.trace()), sideFile);
			Map<Long, String> live = new TreeMap<>();
			try (LiveJavaSites sites = new LiveJavaSites(sideFile, window.window())) {
				assertEquals(30, p.command("step 30"));
				long ms = awaitSites(window, sites, 30, live);
				System.out.println("30 launches had their Java sites live " + ms + " ms after the program made them");
				assertEquals(50, p.command("burst 20"));
				awaitSites(window, sites, 50, live);
				assertEquals(55, p.command("step 5"));
				awaitSites(window, sites, 55, live);
				Thread.sleep(300); // a rolling line of the command line with the sites
				assertEquals(0, p.exit());
			}
			reader.join(10_000);
			stream.close();

			for (long k = 0; k < 55; k++) {
				assertEquals(k < 30 || k >= 50 ? step : burst, live.get(k), "the live Java site of launch " + k);
			}
			CliRun r = cli.get(60, TimeUnit.SECONDS);
			System.out.println("attach:\n" + r.out());
			assertEquals(0, r.exit(), r.toString());
			// the rolling lines name the sites while the program runs (the agent writes every 200 ms: a line may lag)
			assertTrue(r.out().lines().anyMatch(l -> l.contains("  java: " + step + " 30")),
					"a rolling line names the step site with its first 30 launches: " + r);
			assertTrue(r.out().lines().anyMatch(l -> l.contains("  java: " + step + " 35 " + burst + " 20")), r.toString());
			assertTrue(r.out().contains("Java call sites (JCuda agent, " + sideFile + "): 55 launches paired; top: "
					+ step + " 35 " + burst + " 20"), r.toString());
			Path savedSites = JavaSiteLog.sideFileOf(saved);
			assertTrue(r.out().contains("saved the Java call sites next to it: " + savedSites), r.toString());

			// the saved stream opens with the same sites (the file pairing), as does the process's own trace
			TraceLoadResult got = TraceReader.read(saved, null);
			Trace t = got.trace();
			assertEquals(55, t.launchCount());
			JavaSites fromSaved = JavaSites.nextTo(t, saved);
			assertNotNull(fromSaved, "no side file next to " + saved);
			Trace own = TraceReader.read(p.trace(), null).trace();
			JavaSites fromOwn = JavaSites.nextTo(own, p.trace());
			assertNotNull(fromOwn);
			assertEquals(55, own.launchCount());
			for (int k = 0; k < 55; k++) {
				JavaCall c = fromSaved.site(t.launchEvent(k));
				assertNotNull(c, "launch " + k + " of the saved stream has no site");
				assertEquals(live.get((long) k), c.site(), "launch " + k + ": live and saved-file pairing differ");
				JavaCall o = fromOwn.site(own.launchEvent(k));
				assertNotNull(o);
				assertEquals(live.get((long) k), o.site(), "launch " + k + " of the process's own trace");
			}
			assertTrue(Files.size(savedSites) > 0);
		}
	}

	/**
	 * A window much smaller than the run: every launch is still paired once (the calls of the window are held, older
	 * ones forgotten), and what is held stays about a window.
	 */
	@Test
	void aSmallWindowPairsEveryLaunchOnceAndHoldsAboutAWindow() throws Exception {
		Path build = LiveJCudaProcess.nativeBuild();
		Path classes = LiveJCudaProcess.compile(tmp);
		try (LiveJCudaProcess p = new LiveJCudaProcess(build, classes, tmp.resolve("xdg"), tmp.resolve("app.phos"),
				true)) {
			String step = p.site("step", "step");
			LiveWindow window = new LiveWindow(200);
			LiveStream stream = LiveStream.open(p.socketDir(), p.pid());
			Thread reader = new Thread(() -> {
				try {
					LiveStream.StreamChunk c;
					while ((c = stream.next()) != null) {
						window.accept(c);
					}
				} catch (Exception e) {
					e.printStackTrace();
				}
			}, "test reader");
			reader.start();
			p.awaitReader(1);
			Map<Long, String> live = new TreeMap<>();
			try (LiveJavaSites sites = new LiveJavaSites(LiveJavaSites.sideFileOf(p.trace().toString(), p.pid()),
					window.window())) {
				for (int round = 1; round <= 8; round++) {
					assertEquals(150L * round, p.command("step 150"));
					awaitSites(window, sites, 150 * round, live);
				}
				assertEquals(1200, sites.pairedLaunches(), "each launch counted once");
				assertEquals(List.of(new LiveJavaSites.SiteCount(step, 1200)), sites.top(5));
				assertTrue(sites.heldCalls() <= 600, sites.heldCalls() + " calls held for a window of 200 events");
				assertEquals(0, p.exit());
			}
			reader.join(10_000);
			stream.close();
			assertEquals(1200, live.size());
			assertTrue(live.values().stream().allMatch(step::equals), live.toString());
		}
	}

	/** Snapshots the window until {@code launches} launches carry a Java site (10 s at most); returns the ms it took. */
	private long awaitSites(LiveWindow window, LiveJavaSites sites, int launches, Map<Long, String> live)
			throws Exception {
		long t0 = System.nanoTime();
		long deadline = t0 + 10_000_000_000L;
		Path file = tmp.resolve("window.phos");
		while (true) {
			if (window.started()) {
				LiveWindow.Snapshot s = window.snapshot(file, null);
				JavaSites js = sites.update(s);
				Trace t = s.loaded().trace();
				if (js != null) {
					for (int k = 0; k < t.launchCount(); k++) {
						JavaCall c = js.site(t.launchEvent(k));
						if (c != null) {
							String before = live.put(s.launchNumbers().number(k), c.site());
							assertTrue(before == null || before.equals(c.site()), "launch " + k + " changed its site");
						}
					}
				}
				if (live.size() >= launches) {
					return (System.nanoTime() - t0) / 1_000_000;
				}
			}
			assertTrue(System.nanoTime() < deadline, "only " + live.size() + " of " + launches
					+ " launches got a Java site within 10 s (side file found: " + sites.found() + ", problem: "
					+ sites.problem() + ")");
			Thread.sleep(50);
		}
	}
}
