package org.phos.workbench.analysis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWriter;
import org.phos.workbench.trace.core.attach.AttachDirectory;
import org.phos.workbench.trace.core.attach.LiveStream;
import org.phos.workbench.trace.core.attach.LiveWindow;
import org.phos.workbench.trace.core.attach.StreamSaver;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * Incremental speculation equals batch speculation on the same events: a trace is streamed over a real Unix socket
 * into a {@link LiveWindow} much smaller than the trace, a snapshot is taken after every event batch and handed to a
 * {@link LiveSpeculation}, and what it said of each launch when the launch was new is compared, access by access and
 * for every registered engine, with one walk of the saved stream ({@link TraceSpeculator}), launch numbers against
 * the saved stream's launch indices. Each launch is speculated exactly once. ({@code best}'s indirect part is not
 * among the live engines: over the synthetic trace's window it differed from the saved stream on 21,562 of 30,000
 * launches, its direct part on none; with 30,000 launches and a window of 3,000 events.)
 */
class LiveSpeculationTest {
	@TempDir
	Path dir;

	private final long self = ProcessHandle.current().pid();

	@ParameterizedTest(name = "{0}, window {1}")
	@CsvSource({ "synthetic, 3000", "cuda-suite.phos, 30" })
	void everyLaunchIsSpeculatedOnceAsTheSavedStreamSpeculatesIt(String source, int window) throws Exception {
		Path file;
		if (source.equals("synthetic")) {
			file = dir.resolve("synthetic.phos");
			SyntheticTraceGenerator.generate(file,
					SyntheticTraceOptions.defaults(15_000).withLiveAllocations(300).withObservedEvery(41), null);
		} else {
			file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(source);
		}
		// written again in small event batches, as a recorder streams them (a snapshot after each)
		Path streamed = dir.resolve("streamed.phos");
		TraceWriter.write(TraceReader.read(file, null).trace(), streamed, new TraceWriter.Options(false, true, 3, 2048));
		file = streamed;
		EngineCatalog catalog = EngineCatalog.standard();
		List<String> engines = LiveSpeculation.registered(catalog);
		// every registered engine, then best without its indirect part
		List<String> registered = new ArrayList<>(catalog.engines().stream().map(e -> e.name()).toList());
		registered.add(LiveSpeculation.BEST_DIRECT);
		assertEquals(registered, engines);
		assertTrue(engines.containsAll(List.of("phos", "arg-scan", "ptx-flow")), engines.toString());
		LiveSpeculation live = new LiveSpeculation(catalog, engines);
		Map<Long, List<String>> incremental = new HashMap<>();
		Path saved = dir.resolve("received.phos");
		int generations = 0;
		long dropped = 0;
		long speculatedInUpdates = 0;
		try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
			server.bind(UnixDomainSocketAddress.of(AttachDirectory.socket(dir, self)));
			byte[] bytes = Files.readAllBytes(file);
			Thread t = new Thread(() -> {
				try (SocketChannel c = server.accept()) {
					ByteBuffer b = ByteBuffer.wrap(bytes);
					while (b.hasRemaining()) {
						c.write(b);
					}
				} catch (IOException e) {
					// the reader went away: the test fails on what it received
				}
			});
			t.start();
			LiveWindow w = new LiveWindow(window);
			try (LiveStream s = LiveStream.open(dir, self); StreamSaver saver = new StreamSaver(saved)) {
				LiveStream.StreamChunk c;
				long before = -1;
				while ((c = s.next()) != null) {
					saver.chunk(c);
					w.accept(c);
					if (c.type() != 4 || !w.started()) { // a snapshot after each EventBatch
						continue;
					}
					LiveWindow.Snapshot snap = w.snapshot(dir.resolve("window.phos"), null);
					Trace g = snap.loaded().trace();
					LiveSpeculation.Update u = live.update(g, snap.launchNumbers()::number, null);
					generations++;
					speculatedInUpdates += u.speculated();
					dropped = snap.dropped();
					// what it says of the launches new in this generation, taken now (later they may be gone)
					for (int l = 0; l < g.launchCount(); l++) {
						long number = snap.launchNumbers().number(l);
						if (number > before) {
							List<LaunchSpeculation> said = live.speculation(number, g.launchEvent(l));
							assertNotNull(said, "launch " + number + " speculated in the generation that brought it");
							List<String> d = new ArrayList<>();
							for (int e = 0; e < said.size(); e++) {
								d.add(describe(engines.get(e), said.get(e)));
							}
							incremental.put(number, d);
						}
					}
					if (g.launchCount() > 0) {
						before = snap.launchNumbers().number(g.launchCount() - 1);
					}
					assertTrue(live.held() <= g.launchCount(), live.held() + " held, " + g.launchCount() + " in view");
				}
			}
			t.join(10_000);
		}
		Trace batch = TraceReader.read(saved, null).trace();
		assertTrue(generations > 5, generations + " generations");
		assertTrue(dropped > 0, "the window (" + window + " events) must be smaller than the stream");
		assertEquals(batch.launchCount(), incremental.size(), "every launch of the saved stream, once");
		assertEquals(batch.launchCount(), speculatedInUpdates, "each launch speculated once");
		assertEquals(batch.launchCount(), live.speculated());
		List<SpeculationEngine> made = engines.stream().map(e -> catalog.create(e, batch)).toList();
		int[] launch = { 0 };
		int[] covered = { 0 };
		TraceSpeculator.forEngines(batch, made).run(null, l -> {
			List<String> want = new ArrayList<>();
			for (int e = 0; e < made.size(); e++) {
				LaunchSpeculation ls = LaunchSpeculation.collect(made.get(e), l);
				covered[0] += ls.covered() && !ls.accesses().isEmpty() ? 1 : 0;
				want.add(describe(engines.get(e), ls));
			}
			List<String> got = incremental.get((long) launch[0]);
			assertNotNull(got, "launch " + launch[0]);
			for (int e = 0; e < want.size(); e++) {
				assertEquals(want.get(e), got.get(e), "launch " + launch[0] + ", engine " + engines.get(e));
			}
			launch[0]++;
		});
		assertEquals(batch.launchCount(), launch[0]);

		assertTrue(covered[0] > batch.launchCount(), covered[0] + " engine answers with accesses");
	}

	/**
	 * An engine's answer without allocation ids (a generation's event indices, not the saved stream's), its accesses
	 * sorted: the order in which the indirect engine emits the pointers it found in device memory follows a hash
	 * table's history, which differs between a walk of the window and one of the whole stream.
	 */
	static String describe(String engine, LaunchSpeculation s) {
		List<String> accesses = new ArrayList<>();
		for (SpeculatedAccess a : s.accesses()) {
			accesses.add(String.format(" %x[%x,%x)%s%s%s%s p%d@%d", a.allocationBase(), a.begin(), a.end(),
					a.read() ? "r" : "", a.written() ? "w" : "", a.indirect() ? "i" : "", a.wholeAllocation() ? "*" : "",
					a.paramIndex(), a.paramOffset()));
		}
		accesses.sort(null);
		return engine + (s.covered() ? " covered:" : " not covered:") + String.join("", accesses);
	}
}
