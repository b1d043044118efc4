package org.phos.workbench.speculation.core.ptx;

import org.phos.workbench.internal.speculation.core.ptx.PtxReader;

/**
 * Parses PTX text (ISA up to 9.0 as nvcc, NVRTC and Triton emit it) into a {@link PtxModule}. Debug sections and
 * declarations are kept verbatim, instructions are parsed into opcode, guard and operands, so the module can be
 * analysed and re-emitted with {@link PtxModule#toPtx()}.
 */
public final class PtxParser {

	private PtxParser() {
	}

	/**
	 * @param source a name for messages (file name, module id)
	 * @param text the PTX text
	 * @return the module
	 * @throws PtxParseException when the text is not PTX this parser understands, naming the line
	 */
	public static PtxModule parse(String source, String text) throws PtxParseException {
		return new PtxReader(source, text).readModule();
	}
}
