package org.phos.workbench.speculation.core.ptx;

import java.util.List;

/**
 * A kernel ({@code .entry}) or device function ({@code .func}) with its parameters and body.
 *
 * @param name the (mangled) name
 * @param entry whether it is a kernel
 * @param linkage linkage directives before it ({@code .visible}, {@code .weak}...), may be empty
 * @param returnParams a device function's return parameters, empty for kernels
 * @param params the parameters in order, with their buffer offsets
 * @param performanceDirectives directives between the parameter list and the body ({@code .maxntid 256, 1, 1})
 * @param body the statements; empty for a prototype
 * @param line the 1-based source line of the declaration
 */
public record PtxFunction(String name, boolean entry, String linkage, List<PtxParam> returnParams,
		List<PtxParam> params, List<String> performanceDirectives, List<PtxStatement> body, int line) {

	/** Copies the lists. */
	public PtxFunction {
		returnParams = List.copyOf(returnParams);
		params = List.copyOf(params);
		performanceDirectives = List.copyOf(performanceDirectives);
		body = List.copyOf(body);
	}

	/** @return the parameter buffer size in bytes */
	public long paramBufferSize() {
		return params.isEmpty() ? 0 : params.get(params.size() - 1).offset() + params.get(params.size() - 1).size();
	}

	/** @return the instructions of the body, in order */
	public List<PtxStatement.Instruction> instructions() {
		return body.stream().filter(PtxStatement.Instruction.class::isInstance)
				.map(PtxStatement.Instruction.class::cast).toList();
	}

	void appendPtx(StringBuilder out) {
		if (!linkage.isEmpty()) {
			out.append(linkage).append(' ');
		}
		out.append(entry ? ".entry " : ".func ");
		if (!returnParams.isEmpty()) {
			out.append('(');
			appendParams(out, returnParams, " ");
			out.append(") ");
		}
		out.append(name).append("(\n");
		appendParams(out, params, "\t");
		out.append("\n)\n");
		for (String d : performanceDirectives) {
			out.append(d).append('\n');
		}
		if (body.isEmpty()) {
			out.append(";\n");
			return;
		}
		out.append("{\n");
		for (PtxStatement s : body) {
			out.append(s instanceof PtxStatement.Label ? "" : "\t").append(s.toPtx()).append('\n');
		}
		out.append("}\n");
	}

	private static void appendParams(StringBuilder out, List<PtxParam> list, String indent) {
		for (int i = 0; i < list.size(); i++) {
			out.append(indent).append(list.get(i).toPtx());
			if (i + 1 < list.size()) {
				out.append(",\n");
			}
		}
	}
}
