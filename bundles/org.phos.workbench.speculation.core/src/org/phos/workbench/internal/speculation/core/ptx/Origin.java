package org.phos.workbench.internal.speculation.core.ptx;

/**
 * Where a register value may come from: a kernel parameter word itself ({@link Kind#DIRECT}, including arithmetic on
 * it), a value loaded from memory reached through that word ({@link Kind#LOADED}: an indirect pointer), or the address
 * of the parameter in the param space ({@link Kind#PARAM_ADDRESS}).
 *
 * @param param parameter index
 * @param word byte offset of the 8-byte word inside the parameter (-1 for all words, with PARAM_ADDRESS)
 * @param kind how it derives
 */
record Origin(int param, long word, Kind kind) {

	enum Kind {
		DIRECT, LOADED, PARAM_ADDRESS
	}

	Origin loaded() {
		return new Origin(param, word, Kind.LOADED);
	}
}
