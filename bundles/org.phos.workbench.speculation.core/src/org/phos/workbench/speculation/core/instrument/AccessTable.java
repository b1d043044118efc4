package org.phos.workbench.speculation.core.instrument;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.ObservedAccess;

/**
 * The contents of one launch's access table (layout in {@link AccessTableLayout}): which allocations it watches, the
 * bytes the host writes to the device before the launch ({@link #image()}), and the decoding of the bytes read back
 * after it into {@link ObservedAccess} records keyed by <i>recorded</i> allocation base and addresses.
 * <p>
 * Entries are sorted by replay base. When more allocations are live than the layout holds, the smallest ones are
 * left out ({@link #omitted()}): their accesses land in the overflow slot, which decodes as allocation 0 with
 * recorded addresses where a relocation can map them back.
 */
public final class AccessTable {

	/** A watched allocation: its recorded base, its replay base and its size. */
	public record Entry(long recordedBase, long replayBase, long size) {
	}

	/** The raw counters of one slot as read back (addresses in replay space, ends exclusive; min = -1 when empty). */
	public record SlotCounters(int slot, long readMin, long readEnd, long writeMin, long writeEnd, long readCount,
			long writeCount) {

		/** @return whether the slot saw any access */
		public boolean touched() {
			return readCount != 0 || writeCount != 0;
		}
	}

	private final AccessTableLayout layout;
	private final List<Entry> entries;
	private final int omitted;

	private AccessTable(AccessTableLayout layout, List<Entry> entries, int omitted) {
		this.layout = layout;
		this.entries = entries;
		this.omitted = omitted;
	}

	/**
	 * @param layout the table layout of the instrumented module
	 * @param allocations the allocations live at the launch (any order, disjoint in replay space)
	 * @return a table watching them (the largest {@code layout.maxRanges()} when there are more)
	 */
	public static AccessTable of(AccessTableLayout layout, List<Entry> allocations) {
		List<Entry> kept = new ArrayList<>(allocations);
		int omitted = 0;
		if (kept.size() > layout.maxRanges()) {
			kept.sort(Comparator.comparingLong(Entry::size).reversed());
			omitted = kept.size() - layout.maxRanges();
			kept = new ArrayList<>(kept.subList(0, layout.maxRanges()));
		}
		kept.sort((a, b) -> Long.compareUnsigned(a.replayBase(), b.replayBase()));
		for (int i = 1; i < kept.size(); i++) {
			Entry p = kept.get(i - 1);
			if (Long.compareUnsigned(p.replayBase() + p.size(), kept.get(i).replayBase()) > 0) {
				throw new IllegalArgumentException("replay allocations overlap: " + p + " and " + kept.get(i));
			}
		}
		return new AccessTable(layout, List.copyOf(kept), omitted);
	}

	/** @return the layout */
	public AccessTableLayout layout() {
		return layout;
	}

	/** @return the watched allocations, by replay base; entry {@code i} is slot {@code i} */
	public List<Entry> entries() {
		return entries;
	}

	/** @return how many live allocations did not fit and are observed only through the overflow slot */
	public int omitted() {
		return omitted;
	}

	/** @return the table bytes to write to the device before the launch (little-endian, {@code layout.bytes()}) */
	public byte[] image() {
		ByteBuffer b = ByteBuffer.allocate((int) layout.bytes()).order(ByteOrder.LITTLE_ENDIAN);
		b.putLong(0, entries.size());
		b.putLong(8, layout.maxRanges());
		for (int i = 0; i < entries.size(); i++) {
			Entry e = entries.get(i);
			b.putLong((int) layout.rangeOffset(i), e.replayBase());
			b.putLong((int) layout.rangeOffset(i) + 8, e.replayBase() + e.size());
		}
		for (int s = 0; s <= layout.maxRanges(); s++) {
			int at = (int) layout.slotOffset(s);
			b.putLong(at + 8 * AccessTableLayout.READ_MIN, -1L);
			b.putLong(at + 8 * AccessTableLayout.WRITE_MIN, -1L);
		}
		return b.array();
	}

	/**
	 * @param readBack the table bytes read back after the launch
	 * @return the counters of every touched slot (the in-use ones and the overflow slot)
	 * @throws IllegalArgumentException when the bytes are not a table of this layout (size, header)
	 */
	public List<SlotCounters> counters(byte[] readBack) {
		if (readBack.length != layout.bytes()) {
			throw new IllegalArgumentException("access table read back has " + readBack.length
					+ " bytes, the layout has " + layout.bytes());
		}
		ByteBuffer b = ByteBuffer.wrap(readBack).order(ByteOrder.LITTLE_ENDIAN);
		if (b.getLong(0) != entries.size() || b.getLong(8) != layout.maxRanges()) {
			throw new IllegalArgumentException("access table header changed on the device: " + b.getLong(0)
					+ " ranges / " + b.getLong(8) + " max, expected " + entries.size() + " / " + layout.maxRanges()
					+ " (a kernel wrote over the table?)");
		}
		List<SlotCounters> out = new ArrayList<>();
		for (int s = 0; s <= layout.maxRanges(); s++) {
			if (s >= entries.size() && s != layout.overflowSlot()) {
				continue;
			}
			int at = (int) layout.slotOffset(s);
			SlotCounters c = new SlotCounters(s, b.getLong(at), b.getLong(at + 8), b.getLong(at + 16),
					b.getLong(at + 24), b.getLong(at + 32), b.getLong(at + 40));
			if (c.touched()) {
				out.add(c);
			}
		}
		return out;
	}

	/**
	 * Decodes a launch's table into observed accesses in the recorded address space: one record per touched
	 * allocation, ranges {@code [min, end)} (one range each for read and written, empty when none). The overflow slot
	 * becomes allocation 0; its addresses are mapped back with {@code relocation} where both ends fall in one
	 * recorded allocation, otherwise they stay replay addresses.
	 *
	 * @param launchEvent the launch's event index in the recorded trace
	 * @param readBack the table bytes read back after the launch
	 * @param relocation the replay's relocation table at the launch
	 * @param tool the observing tool's name
	 * @return the records, in slot order
	 */
	public List<ObservedAccess> observed(long launchEvent, byte[] readBack, AddressRelocation relocation,
			String tool) {
		List<ObservedAccess> out = new ArrayList<>();
		for (SlotCounters c : counters(readBack)) {
			if (c.slot() == layout.overflowSlot()) {
				out.add(new ObservedAccess(launchEvent, 0, overflowRange(c.readMin(), c.readEnd(), relocation),
						overflowRange(c.writeMin(), c.writeEnd(), relocation), c.readCount(), c.writeCount(), tool));
				continue;
			}
			Entry e = entries.get(c.slot());
			long shift = e.recordedBase() - e.replayBase();
			out.add(new ObservedAccess(launchEvent, e.recordedBase(), range(c.readMin(), c.readEnd(), shift),
					range(c.writeMin(), c.writeEnd(), shift), c.readCount(), c.writeCount(), tool));
		}
		return out;
	}

	private static List<AddressRange> range(long min, long end, long shift) {
		if (Long.compareUnsigned(min, end) >= 0) {
			return List.of();
		}
		return List.of(new AddressRange(min + shift, end + shift));
	}

	private static List<AddressRange> overflowRange(long min, long end, AddressRelocation relocation) {
		if (Long.compareUnsigned(min, end) >= 0) {
			return List.of();
		}
		AddressRelocation.Mapping m = relocation.containingReplay(min);
		if (m != null && Long.compareUnsigned(end, m.replayBase() + m.size()) <= 0) {
			long shift = m.recordedBase() - m.replayBase();
			return List.of(new AddressRange(min + shift, end + shift));
		}
		return List.of(new AddressRange(min, end));
	}
}
