package org.phos.workbench.analysis.core;

import java.util.List;

import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.analysis.core.table.TableDef;
import org.phos.workbench.trace.core.AllocKind;

/**
 * One allocation of a trace.
 *
 * @param allocatedAt event index of its Alloc event (its id)
 * @param base base address
 * @param size bytes
 * @param kind how it was allocated
 * @param freedAt event index of its Free, -1 when never freed
 * @param launchesRead observed launches that read it
 * @param launchesWritten observed launches that wrote it
 * @param launchesTouched observed launches that read or wrote it
 */
public record BufferRow(int allocatedAt, long base, long size, AllocKind kind, int freedAt, long launchesRead,
		long launchesWritten, long launchesTouched) {

	/** The columns. */
	public static final TableDef<BufferRow> TABLE = new TableDef<>("buffers", List.of(
			Column.address("allocation", BufferRow::base),
			Column.integer("size", "bytes", BufferRow::size),
			Column.text("kind", r -> r.kind().name().toLowerCase(java.util.Locale.ROOT)),
			Column.integer("allocated_at", "event", BufferRow::allocatedAt),
			Column.integer("freed_at", "event", BufferRow::freedAt),
			Column.integer("launches_read", "", BufferRow::launchesRead),
			Column.integer("launches_written", "", BufferRow::launchesWritten),
			Column.integer("launches_touched", "", BufferRow::launchesTouched)));
}
