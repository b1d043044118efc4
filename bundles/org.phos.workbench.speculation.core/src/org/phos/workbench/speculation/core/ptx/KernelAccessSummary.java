package org.phos.workbench.speculation.core.ptx;

import java.util.List;
import java.util.Optional;

/**
 * The {@code ptx-flow} verdict for one kernel: one entry per parameter word, in parameter buffer order.
 *
 * @param kernel the kernel's (mangled) name
 * @param words the parameter words
 */
public record KernelAccessSummary(String kernel, List<ParamWordAccess> words) {

	/** Copies the list. */
	public KernelAccessSummary {
		words = List.copyOf(words);
	}

	/**
	 * @param param a parameter's PTX name
	 * @param wordOffset the word's offset inside the parameter (0 for scalars)
	 * @return that word
	 */
	public Optional<ParamWordAccess> word(String param, long wordOffset) {
		return words.stream().filter(w -> w.param().equals(param) && w.wordOffset() == wordOffset).findFirst();
	}

	/**
	 * @param paramIndex a parameter's position
	 * @return its first word
	 */
	public ParamWordAccess param(int paramIndex) {
		return words.stream().filter(w -> w.paramIndex() == paramIndex).findFirst()
				.orElseThrow(() -> new IllegalArgumentException("kernel " + kernel + " has no parameter " + paramIndex));
	}

	/** @return a table, one word a line */
	public String toTable() {
		StringBuilder out = new StringBuilder(kernel).append('\n');
		for (ParamWordAccess w : words) {
			out.append(String.format("  %-28s +%-3d %-3s %s%s%s%s read %s write %s%n", w.param(), w.wordOffset(),
					w.pointer() ? w.direction() : "-", w.atomic() ? " atomic" : "",
					w.indirectRead() || w.indirectWritten()
							? " indirect(" + (w.indirectRead() ? "R" : "") + (w.indirectWritten() ? "W" : "") + ")"
							: "",
					w.unknown() ? " unknown" : "", w.notes().isEmpty() ? "" : " " + w.notes(), w.readRange(),
					w.writeRange()));
		}
		return out.toString();
	}
}
