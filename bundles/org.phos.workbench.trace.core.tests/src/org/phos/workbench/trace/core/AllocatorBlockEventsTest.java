package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * i15-alloc: a caching allocator's block events ({@code AllocatorBlock}, Event field 19) and TraceHeader field 45, read
 * from what the recorder wrote: {@code data/fake-alloc-blocks.phos} is {@code fake_app alloc-blocks} over the fake
 * libcuda (native-hooks/tests/run_tests.py, "alloc blocks": the events handed to
 * {@code phos_recorder_allocator_event}); {@code sample-traces/pytorch-train-alloc.phos} the H100 recording of
 * PyTorch's allocator (sample-traces/README.md).
 */
class AllocatorBlockEventsTest {

	@TempDir
	Path dir;

	private static Trace load(Path p) throws IOException {
		assumeTrue(Files.isRegularFile(p), p + " missing (set -Dphos.repo to the repository root)");
		TraceLoadResult r = TraceReader.read(p, null);
		assertTrue(r.warnings().isEmpty(), p + ": " + r.warnings());
		assertTrue(r.anomalies().isEmpty(), p + ": " + r.anomalies());
		return r.trace();
	}

	private static Path sample(String name) {
		return Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
	}

	@Test
	void theRecorderWritesBlockEventsInIssueOrderBetweenTheCudaCalls() throws IOException {
		Trace t = load(Path.of("data", "fake-alloc-blocks.phos"));
		assertEquals("pytorch", t.header().allocatorEvents());
		List<EventKind> kinds = new ArrayList<>();
		for (int i = 0; i < t.eventCount(); i++) {
			kinds.add(t.kind(i));
		}
		EventKind a = EventKind.ALLOCATOR_BLOCK;
		assertEquals(List.of(EventKind.ALLOC, a, a, a, EventKind.MEMSET, a, a, a, EventKind.FREE), kinds);
		long s = t.address(0);
		assertEquals(1L << 20, t.size(0));
		long st = 0x5a00;
		assertEquals(new TraceEvent.AllocatorBlock(t.hostNs(1), t.thread(1), BlockAction.SEGMENT_ALLOC, s, 1 << 20, st, 0),
				t.allocatorBlock(1));
		assertEquals(BlockAction.ALLOC, t.allocatorBlock(2).action());
		assertEquals(s + 4096, t.allocatorBlock(3).address());
		assertEquals(1000, t.allocatorBlock(3).size());
		assertEquals(t.allocatorBlock(3).address(), t.dst(4), "the fill names the second block");
		assertEquals(BlockAction.FREE_REQUESTED, t.allocatorBlock(5).action());
		assertEquals(BlockAction.FREE_COMPLETED, t.allocatorBlock(6).action());
		assertEquals(new TraceEvent.AllocatorBlock(t.hostNs(7), t.thread(7), BlockAction.ALLOC, s, 3072, st, 0), t.event(7));
		assertEquals(st, t.stream(7));
		assertEquals(6, t.count(EventKind.ALLOCATOR_BLOCK));
		for (int i = 1; i < t.eventCount(); i++) {
			assertTrue(t.hostNs(i) >= t.hostNs(i - 1), "host times in issue order at " + i);
		}
	}

	@Test
	void blockEventsAndTheHeaderFieldSurviveAWriteAndARead() throws IOException {
		TraceHeader h = TraceHeader.builder("phos-test", "1").allocatorEvents("pytorch").build();
		List<TraceEvent> evs = List.of(
				new TraceEvent.Alloc(5, 1, 0x7f00_0000_0000L, 2 << 20, AllocKind.PLAIN, 0),
				new TraceEvent.AllocatorBlock(10, 1, BlockAction.SEGMENT_ALLOC, 0x7f00_0000_0000L, 2 << 20, 0, 0),
				new TraceEvent.AllocatorBlock(11, 1, BlockAction.ALLOC, 0x7f00_0000_0000L, 512, 0x55_0000L, 1),
				new TraceEvent.AllocatorBlock(12, 2, BlockAction.FREE_REQUESTED, 0x7f00_0000_0000L, 512, 0x55_0000L, 1),
				new TraceEvent.AllocatorBlock(13, 2, BlockAction.FREE_COMPLETED, 0x7f00_0000_0000L, 512, 0x55_0000L, 1),
				new TraceEvent.AllocatorBlock(14, 1, BlockAction.OOM, 1L << 30, 1L << 40, 0, 0));
		Trace.Builder b = Trace.builder(h);
		evs.forEach(b::event);
		Trace built = b.end(new TraceEnd(evs.size(), 0, 20)).build();
		Path file = dir.resolve("blocks.phos");
		TraceWriter.write(built, file, TraceWriter.Options.DEFAULT);
		Trace t = load(file);
		assertEquals("pytorch", t.header().allocatorEvents());
		for (int i = 0; i < evs.size(); i++) {
			assertEquals(evs.get(i), t.event(i), "event " + i);
		}
		assertEquals(0x55_0000L, t.stream(2));
		assertEquals("", TraceHeader.builder("x", "1").build().allocatorEvents(), "absent: not asked for");
	}

	@Test
	void anActionThisReaderDoesNotKnowReadsAsUnrecognized() {
		assertEquals(BlockAction.UNRECOGNIZED, BlockAction.ofCode(9));
		assertEquals(BlockAction.UNRECOGNIZED, BlockAction.ofCode(-1));
		assertEquals(BlockAction.SEGMENT_UNMAP, BlockAction.ofCode(7));
		for (BlockAction a : BlockAction.values()) {
			if (a != BlockAction.UNRECOGNIZED) {
				assertEquals(a, BlockAction.ofCode(a.code()));
			}
		}
	}

	/**
	 * The H100 recording: every block the allocator handed out lies inside a device allocation the trace recorded and
	 * live at that moment, every completed free names a block handed out before and not yet freed.
	 */
	@Test
	void pyTorchsBlocksLieInsideTheSegmentsTheTraceRecorded() throws IOException {
		Trace t = load(sample("pytorch-train-alloc.phos"));
		assertEquals("pytorch", t.header().allocatorEvents());
		Map<BlockAction, Integer> counts = new EnumMap<>(BlockAction.class);
		Map<Long, Long> segments = new HashMap<>();
		Map<Long, Long> blocks = new HashMap<>();
		for (int i = 0; i < t.eventCount(); i++) {
			switch (t.kind(i)) {
				case ALLOC -> segments.put(t.address(i), t.size(i));
				case FREE -> segments.remove(t.address(i));
				case ALLOCATOR_BLOCK -> {
					TraceEvent.AllocatorBlock b = t.allocatorBlock(i);
					counts.merge(b.action(), 1, Integer::sum);
					if (b.action() == BlockAction.SEGMENT_ALLOC) {
						assertEquals(b.size(), segments.get(b.address()), "segment at event " + i + " is a recorded Alloc");
					} else if (b.action() == BlockAction.ALLOC) {
						boolean inside = segments.entrySet().stream().anyMatch(e -> b.address() >= e.getKey()
								&& b.address() + b.size() <= e.getKey() + e.getValue());
						assertTrue(inside, "block at event " + i + " inside a live segment");
						assertTrue(blocks.put(b.address(), b.size()) == null, "no live block at the same start, " + i);
					} else if (b.action() == BlockAction.FREE_COMPLETED) {
						assertNotNull(blocks.remove(b.address()), "completed free of a live block at event " + i);
					}
				}
				default -> {
					// launches, copies, syncs
				}
			}
		}
		assertEquals(Map.of(BlockAction.SEGMENT_ALLOC, 9, BlockAction.ALLOC, 442, BlockAction.FREE_REQUESTED, 439,
				BlockAction.FREE_COMPLETED, 439), counts);
		assertEquals(637, t.launchCount());
	}
}
