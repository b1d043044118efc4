package org.phos.workbench.analysis.core;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.TableDef;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;

/**
 * One allocation that an engine or a tool names for one launch.
 *
 * @param allocatedAt event index of the allocation's Alloc event (its id); -1 when no live allocation holds it
 * @param base base address
 * @param size bytes
 * @param kind how it was allocated, null when unknown
 * @param engines per engine of the query, in its order
 * @param tools per tool of the answer, in its order
 */
public record AccessRow(long allocatedAt, long base, long size, @Nullable AllocKind kind, List<EngineSide> engines,
		List<ToolSide> tools) {

	/** Copies. */
	public AccessRow {
		engines = List.copyOf(engines);
		tools = List.copyOf(tools);
	}

	/**
	 * What one engine speculated for the allocation, and its verdict.
	 *
	 * @param read speculated read byte ranges (absolute addresses), merged
	 * @param written speculated written byte ranges, merged
	 * @param verdict the verdict against the tools' records united; {@link LaunchVerdict#UNRELIABLE} when the
	 *        launch's truth is unreliable, {@link LaunchVerdict#NOT_OBSERVED} when no tool observed the launch
	 */
	public record EngineSide(List<AddressRange> read, List<AddressRange> written, LaunchVerdict verdict) {
		/** Copies. */
		public EngineSide {
			read = List.copyOf(read);
			written = List.copyOf(written);
		}

		/** @return "R", "W", "RW" or "-" */
		public String direction() {
			return (read.isEmpty() ? "" : "R") + (written.isEmpty() ? "" : "W") + (read.isEmpty() && written.isEmpty() ? "-" : "");
		}
	}

	/**
	 * What one tool observed of the allocation.
	 *
	 * @param read observed read byte ranges (absolute), merged
	 * @param written observed written byte ranges, merged
	 */
	public record ToolSide(List<AddressRange> read, List<AddressRange> written) {
		/** Copies. */
		public ToolSide {
			read = List.copyOf(read);
			written = List.copyOf(written);
		}
	}

	/**
	 * The columns for an answer: allocation columns, then per engine {@code E_dir}, {@code E_read},
	 * {@code E_written}, {@code E_verdict}, then per tool {@code T_read}, {@code T_written}; E and T are the names
	 * with every character other than a-z and 0-9 written as {@code _}. Ranges are offsets in the allocation,
	 * {@code [0x0,0x100)}, space-separated.
	 *
	 * @param engines the engine names, in order
	 * @param tools the tool names, in order
	 * @return the table definition
	 */
	public static TableDef<AccessRow> table(List<String> engines, List<String> tools) {
		List<Column<AccessRow>> c = new ArrayList<>();
		c.add(Column.address("allocation", AccessRow::base));
		c.add(Column.integer("size", "bytes", AccessRow::size));
		c.add(Column.text("kind", r -> r.kind() == null ? null : r.kind().name().toLowerCase(java.util.Locale.ROOT)));
		c.add(Column.integer("allocated_at", "event", AccessRow::allocatedAt));
		for (int i = 0; i < engines.size(); i++) {
			int e = i;
			String h = header(engines.get(i));
			c.add(Column.text(h + "_dir", r -> r.engines().get(e).direction()));
			c.add(Column.text(h + "_read", r -> ranges(r.engines().get(e).read(), r.base())));
			c.add(Column.text(h + "_written", r -> ranges(r.engines().get(e).written(), r.base())));
			c.add(Column.text(h + "_verdict", r -> r.engines().get(e).verdict().label()));
		}
		for (int i = 0; i < tools.size(); i++) {
			int t = i;
			String h = header(tools.get(i));
			c.add(Column.text(h + "_read", r -> ranges(r.tools().get(t).read(), r.base())));
			c.add(Column.text(h + "_written", r -> ranges(r.tools().get(t).written(), r.base())));
		}
		return new TableDef<>("accesses", c);
	}

	/** @return a name as a column header prefix */
	static String header(String name) {
		String h = name.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]", "_");
		return h.isEmpty() || !Character.isLetter(h.charAt(0)) ? "x" + h : h;
	}

	/** @return the ranges as offsets from {@code base} */
	static String ranges(List<AddressRange> ranges, long base) {
		StringBuilder s = new StringBuilder();
		for (AddressRange r : ranges) {
			s.append(s.isEmpty() ? "" : " ").append("[0x").append(Long.toHexString(r.begin() - base)).append(",0x")
					.append(Long.toHexString(r.end() - base)).append(')');
		}
		return s.toString();
	}
}
