package org.phos.workbench.internal.speculation.core.instrument;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.ptx.PtxOperand;

/**
 * What one instruction does to global memory, as the rewriter records it: the address operand, the access size
 * (a constant, or the operand holding it for bulk copies) and the kind bits passed to the record routine.
 *
 * @param address the memory operand
 * @param size the size in bytes when constant, else 0
 * @param sizeOperand the operand holding the size (register or immediate) when not constant, else null
 * @param kind {@link #READ} | {@link #WRITE} | {@link #GENERIC}
 */
public record AccessSite(PtxOperand.Address address, int size, @Nullable PtxOperand sizeOperand, int kind) {

	/** The access reads. */
	public static final int READ = 1;
	/** The access writes. */
	public static final int WRITE = 2;
	/** The address is generic: the record routine tests it with {@code isspacep.global}. */
	public static final int GENERIC = 4;
}
