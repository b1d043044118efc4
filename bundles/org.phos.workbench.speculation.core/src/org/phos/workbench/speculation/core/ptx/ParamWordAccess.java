package org.phos.workbench.speculation.core.ptx;

import java.util.List;

/**
 * What {@code ptx-flow} found for one 8-byte word of a kernel parameter (scalars are one word; a struct passed by
 * value has one entry per 8-byte-aligned word). A word is a {@link #pointer()} when its value reaches the address of a
 * global or generic memory instruction; the flags then say how memory is reached through it. The analysis is sound
 * for writes: a word whose value may flow into a store, atomic or reduction address is marked written even when the
 * analysis cannot tell for sure; {@link #unknown()} marks accesses it cannot model (textures, surfaces, tensor maps,
 * calls), which callers must treat as read-write of the whole allocation.
 *
 * @param param the parameter's PTX name
 * @param paramIndex its position in the parameter list
 * @param offset the word's byte offset in the parameter buffer
 * @param wordOffset the word's byte offset inside its parameter (0 for scalars)
 * @param pointer whether the word is used as a memory address
 * @param read read through it (loads, atomics, copies from it)
 * @param written written through it (stores, atomics, reductions, copies to it)
 * @param atomic accessed by atomics or reductions
 * @param indirectRead a pointer loaded from memory reached through this word is used to read
 * @param indirectWritten a pointer loaded from memory reached through this word is used to write
 * @param unknown an access through it is not modelled: assume read-write, whole allocation
 * @param readRange bytes read, relative to the pointer
 * @param writeRange bytes written, relative to the pointer
 * @param notes short explanations (for example why a range is whole)
 */
public record ParamWordAccess(String param, int paramIndex, long offset, long wordOffset, boolean pointer,
		boolean read, boolean written, boolean atomic, boolean indirectRead, boolean indirectWritten,
		boolean unknown, AccessRange readRange, AccessRange writeRange, List<String> notes) {

	/** Copies the list. */
	public ParamWordAccess {
		notes = List.copyOf(notes);
	}

	/** @return "R", "W", "RW" or "-" */
	public String direction() {
		return (read ? "R" : "") + (written ? "W" : "") + (read || written ? "" : "-");
	}
}
