package org.phos.workbench.analysis.core;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.table.Table;

/**
 * The answer to an {@link AccessQuery}.
 *
 * @param query the question
 * @param tools the tools shown, in column order
 * @param table one row per allocation, by base address
 * @param unreliable why the launch's truth cannot be stood behind, null when it can (or was not observed)
 * @param covered per engine, whether it could speak for the launch (ptx-flow without PTX cannot)
 */
public record AccessAnswer(AccessQuery query, List<String> tools, Table<AccessRow> table, @Nullable String unreliable,
		List<Boolean> covered) {

	/** Copies. */
	public AccessAnswer {
		tools = List.copyOf(tools);
		covered = List.copyOf(covered);
	}
}
