package org.phos.workbench.speculation.core.instrument;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.replay.LiveAllocations;

/**
 * The relocation table of a replay: each recorded allocation that is live in the replay, with the address the
 * replay gave it. Recorded device pointers (in launch parameters, in captured host-to-device payloads) are moved to
 * the replay's allocation at the same offset, and replay addresses (what instrumentation observes) are mapped back
 * to recorded ones.
 * <p>
 * A value is taken as a pointer when it lies inside a live recorded allocation ({@code [base, base + size)}); a value
 * equal to the end of an allocation that no allocation starts at (a one-past-the-end pointer) is relocated with that
 * allocation. Words are scanned at 8-byte-aligned device addresses, where pointers live in parameter buffers and in
 * structures. Any other value is left alone: an integer that happens to equal a live recorded address would be
 * relocated too (device addresses lie far above the integers programs pass, so this is rare). Not thread-safe.
 */
public final class AddressRelocation {

	/** One live mapping. */
	public record Mapping(long recordedBase, long replayBase, long size) {
	}

	private final LiveAllocations recorded = new LiveAllocations();
	private final LiveAllocations replay = new LiveAllocations();
	private final Map<Long, Mapping> byRecorded = new HashMap<>();
	private final Map<Long, Mapping> byReplay = new HashMap<>();
	private final Map<Long, Mapping> byRecordedEnd = new HashMap<>();

	/**
	 * Maps a recorded allocation to its replay copy.
	 *
	 * @throws IllegalStateException when either range overlaps a live mapping
	 */
	public void map(long recordedBase, long size, long replayBase) {
		if (size <= 0) {
			throw new IllegalArgumentException("allocation at 0x" + Long.toHexString(recordedBase)
					+ " has size " + size + "; only positive sizes can be relocated");
		}
		recorded.add(recordedBase, size, recordedBase);
		try {
			replay.add(replayBase, size, replayBase);
		} catch (RuntimeException e) {
			recorded.remove(recordedBase);
			throw e;
		}
		Mapping m = new Mapping(recordedBase, replayBase, size);
		byRecorded.put(recordedBase, m);
		byReplay.put(replayBase, m);
		byRecordedEnd.put(recordedBase + size, m);
	}

	/** Removes the mapping of the recorded allocation at {@code recordedBase}; returns it, or null when none. */
	public @Nullable Mapping unmap(long recordedBase) {
		Mapping m = byRecorded.remove(recordedBase);
		if (m != null) {
			recorded.remove(m.recordedBase());
			replay.remove(m.replayBase());
			byReplay.remove(m.replayBase());
			byRecordedEnd.remove(m.recordedBase() + m.size(), m);
		}
		return m;
	}

	/** @return the mapping of the recorded allocation containing {@code recordedAddress}, or null */
	public @Nullable Mapping containingRecorded(
			long recordedAddress) {
		long id = recorded.find(recordedAddress);
		return id < 0 ? null : byRecorded.get(id);
	}

	/** @return the mapping of the replay allocation containing {@code replayAddress}, or null */
	public @Nullable Mapping containingReplay(
			long replayAddress) {
		long id = replay.find(replayAddress);
		return id < 0 ? null : byReplay.get(id);
	}

	/** @return the replay address of a recorded one, or -1 when it is in no live allocation (nor one past its end) */
	public long toReplay(long recordedAddress) {
		Mapping m = containingRecorded(recordedAddress);
		if (m == null) {
			m = byRecordedEnd.get(recordedAddress);
		}
		return m == null ? -1 : m.replayBase() + (recordedAddress - m.recordedBase());
	}

	/** @return the recorded address of a replay one, or -1 when it is in no live replay allocation */
	public long toRecorded(long replayAddress) {
		Mapping m = containingReplay(replayAddress);
		return m == null ? -1 : m.recordedBase() + (replayAddress - m.replayBase());
	}

	/**
	 * Relocates, in place, every 8-byte word of {@code buffer[offset, offset + length)} that sits at an 8-byte-aligned
	 * device address and holds a recorded pointer.
	 *
	 * @param deviceAddress the device address {@code buffer[offset]} stands for (0 for a parameter buffer, whose
	 *        offsets are aligned as the device sees them); fixes which words are aligned
	 * @return the number of words relocated
	 */
	public int relocateWords(byte[] buffer, int offset, int length, long deviceAddress) {
		ByteBuffer b = ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN);
		int first = offset + (int) ((8 - (deviceAddress & 7)) & 7);
		int count = 0;
		for (int at = first; at + 8 <= offset + length; at += 8) {
			long v = b.getLong(at);
			if (v == 0) {
				continue;
			}
			long r = toReplay(v);
			if (r >= 0) {
				b.putLong(at, r);
				count++;
			}
		}
		return count;
	}

	/** @return the live mappings, in recorded address order */
	public List<Mapping> mappings() {
		List<Mapping> out = new ArrayList<>(byRecorded.size());
		recorded.forEach((id, base, size) -> out.add(byRecorded.get(id)));
		return out;
	}

	/** @return the number of live mappings */
	public int size() {
		return byRecorded.size();
	}
}
