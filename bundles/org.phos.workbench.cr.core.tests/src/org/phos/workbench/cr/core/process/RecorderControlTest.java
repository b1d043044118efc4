package org.phos.workbench.cr.core.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.attach.AttachDirectory;

/**
 * The workbench's side of the recorder's control connection on a real Unix socket, served here by a thread that speaks
 * the recorder's protocol (the recorder itself is exercised by native-hooks' tests and AttachCheckpointCommandTest):
 * the hello line, one answer per command, a process without a socket, a recorder that does not answer.
 */
class RecorderControlTest {
	@TempDir
	Path dir;

	/** Serves one connection: reads lines, answers each with {@code answer.apply(line)} (null: never answers). */
	private Thread serve(ServerSocketChannel server, List<String> seen, java.util.function.Function<String, String> answer) {
		Thread t = new Thread(() -> {
			try (SocketChannel c = server.accept()) {
				StringBuilder b = new StringBuilder();
				ByteBuffer in = ByteBuffer.allocate(256);
				while (c.read(in.clear()) > 0) {
					b.append(StandardCharsets.US_ASCII.decode(in.flip()));
					int nl;
					while ((nl = b.indexOf("\n")) >= 0) {
						String line = b.substring(0, nl);
						b.delete(0, nl + 1);
						synchronized (seen) {
							seen.add(line);
						}
						String a = line.startsWith("phos-ctl") ? null : answer.apply(line);
						if (a != null) {
							c.write(ByteBuffer.wrap((a + "\n").getBytes(StandardCharsets.US_ASCII)));
						}
					}
				}
			} catch (IOException e) {
				// the client went away
			}
		});
		t.setDaemon(true);
		t.start();
		return t;
	}

	@Test
	void helloThenOneAnswerPerCommand() throws Exception {
		try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
			server.bind(UnixDomainSocketAddress.of(AttachDirectory.socket(dir, 4242)));
			List<String> seen = new ArrayList<>();
			Thread t = serve(server, seen, l -> l.equals("checkpoint-prepare") ? "ready cupti flushed" : "resumed cupti; x");
			try (RecorderControl c = RecorderControl.open(dir, 4242)) {
				assertEquals("ready cupti flushed", c.ask("checkpoint-prepare"));
				assertEquals("resumed cupti; x", c.ask("checkpoint-done"));
			}
			t.join(5000);
			assertEquals(List.of("phos-ctl 1", "checkpoint-prepare", "checkpoint-done"), seen);
		}
	}

	@Test
	void aProcessWithoutSocketHasNothingToPrepare() throws Exception {
		assertNull(RecorderControl.open(dir, 4243));
	}

	@Test
	void aSocketNobodyListensOnIsTheLeftoverOfAKilledProcess() throws Exception {
		Path socket = AttachDirectory.socket(dir, 4244);
		try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
			server.bind(UnixDomainSocketAddress.of(socket)); // closed without removing the file, as SIGKILL leaves it
		}
		assertTrue(Files.exists(socket));
		assertNull(RecorderControl.open(dir, 4244), "a process of that pid now has no recorder to prepare");
	}

	@Test
	void aRecorderThatDoesNotAnswerIsGivenUpAfterTheLimit() throws Exception {
		try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
			server.bind(UnixDomainSocketAddress.of(AttachDirectory.socket(dir, 4244)));
			serve(server, new ArrayList<>(), l -> null);
			AtomicReference<IOException> e = new AtomicReference<>();
			long t0 = System.nanoTime();
			try (RecorderControl c = RecorderControl.open(dir, 4244)) {
				e.set(assertThrows(IOException.class, () -> c.ask("checkpoint-prepare")));
			}
			long ms = (System.nanoTime() - t0) / 1_000_000;
			assertTrue(ms >= RecorderControl.ANSWER_MS && ms < RecorderControl.ANSWER_MS + 3000, ms + " ms");
			assertTrue(e.get().getMessage().startsWith("the recorder did not answer \"checkpoint-prepare\" in 5000 ms"),
					e.get().getMessage());
		}
	}
}
