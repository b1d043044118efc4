package org.phos.workbench.internal.speculation.core.ptx;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.ptx.PtxFunction;
import org.phos.workbench.speculation.core.ptx.PtxModule;
import org.phos.workbench.speculation.core.ptx.PtxNumbers;
import org.phos.workbench.speculation.core.ptx.PtxOperand;
import org.phos.workbench.speculation.core.ptx.PtxParam;
import org.phos.workbench.speculation.core.ptx.PtxParseException;
import org.phos.workbench.speculation.core.ptx.PtxStatement;
import org.phos.workbench.speculation.core.ptx.PtxTypes;

/** Token-level PTX parser behind {@link org.phos.workbench.speculation.core.ptx.PtxParser}. */
public final class PtxReader {

	private static final Set<String> LINKAGE = Set.of(".visible", ".extern", ".weak", ".common");

	private final String source;
	private final String text;
	private final List<PtxToken> tokens;
	private int pos;

	/**
	 * @param source name for messages
	 * @param text the PTX text
	 */
	public PtxReader(String source, String text) {
		this.source = source;
		this.text = text;
		this.tokens = PtxLexer.tokenize(text);
	}

	/**
	 * @return the parsed module
	 * @throws PtxParseException on malformed input
	 */
	public PtxModule readModule() throws PtxParseException {
		String version = "";
		String target = "";
		int addressSize = 64;
		List<String> globals = new ArrayList<>();
		List<PtxFunction> functions = new ArrayList<>();
		while (pos < tokens.size()) {
			PtxToken t = tokens.get(pos);
			switch (t.text()) {
				case ".version" -> {
					pos++;
					version = next("a version number").text();
				}
				case ".target" -> target = restOfLine().substring(".target".length()).trim();
				case ".address_size" -> {
					pos++;
					PtxToken size = next("an address size");
					Long v = PtxNumbers.parseInteger(size.text());
					if (v == null || (v != 32 && v != 64)) {
						throw error(size, "address size must be 32 or 64, found '" + size.text() + "'");
					}
					addressSize = v.intValue();
				}
				case ".file" -> globals.add(restOfLine());
				case ".section" -> globals.add(skipBracedBlock());
				default -> {
					int start = pos;
					StringBuilder linkage = new StringBuilder();
					while (pos < tokens.size() && LINKAGE.contains(tokens.get(pos).text())) {
						linkage.append(linkage.isEmpty() ? "" : " ").append(tokens.get(pos).text());
						pos++;
					}
					PtxToken kind = peekOrFail("a declaration");
					if (kind.is(".entry") || kind.is(".func")) {
						functions.add(readFunction(linkage.toString()));
					} else if (kind.text().startsWith(".")) {
						pos = start;
						globals.add(verbatimUntilSemicolon());
					} else {
						throw error(kind, "unexpected '" + kind.text() + "' at module level");
					}
				}
			}
		}
		if (version.isEmpty()) {
			throw new PtxParseException(source, 1, "no .version directive: not PTX text");
		}
		return new PtxModule(version, target, addressSize, globals, functions);
	}

	// ------------------------------------------------------------------ helpers

	private PtxParseException error(PtxToken at, String message) {
		return new PtxParseException(source, at.line(), message);
	}

	private PtxToken peekOrFail(String expected) throws PtxParseException {
		if (pos >= tokens.size()) {
			int line = tokens.isEmpty() ? 1 : tokens.get(tokens.size() - 1).line();
			throw new PtxParseException(source, line, "expected " + expected + " but the text ended");
		}
		return tokens.get(pos);
	}

	private PtxToken next(String expected) throws PtxParseException {
		PtxToken t = peekOrFail(expected);
		pos++;
		return t;
	}

	private void expect(String s) throws PtxParseException {
		PtxToken t = next("'" + s + "'");
		if (!t.is(s)) {
			throw error(t, "expected '" + s + "' but found '" + t.text() + "'");
		}
	}

	private boolean consume(String s) {
		if (pos < tokens.size() && tokens.get(pos).is(s)) {
			pos++;
			return true;
		}
		return false;
	}

	private @Nullable PtxToken peek() {
		return pos < tokens.size() ? tokens.get(pos) : null;
	}

	/** The source text from the current token to the end of its line; advances past it. */
	private String restOfLine() {
		PtxToken first = tokens.get(pos);
		int end = first.end();
		while (pos < tokens.size() && tokens.get(pos).line() == first.line()) {
			end = tokens.get(pos).end();
			pos++;
		}
		return text.substring(first.start(), end);
	}

	private String verbatimUntilSemicolon() throws PtxParseException {
		PtxToken first = tokens.get(pos);
		int depth = 0;
		while (true) {
			PtxToken t = next("';' ending the statement started on line " + first.line());
			if (t.is("{")) {
				depth++;
			} else if (t.is("}")) {
				depth--;
			} else if (t.is(";") && depth <= 0) {
				return text.substring(first.start(), t.end());
			}
		}
	}

	private String skipBracedBlock() throws PtxParseException {
		PtxToken first = tokens.get(pos);
		while (!peekOrFail("'{' of the section on line " + first.line()).is("{")) {
			pos++;
		}
		int depth = 0;
		while (true) {
			PtxToken t = next("'}' closing the section on line " + first.line());
			if (t.is("{")) {
				depth++;
			} else if (t.is("}") && --depth == 0) {
				return text.substring(first.start(), t.end());
			}
		}
	}

	// ------------------------------------------------------------------ functions

	private PtxFunction readFunction(String linkage) throws PtxParseException {
		PtxToken kind = next("'.entry' or '.func'");
		boolean entry = kind.is(".entry");
		List<PtxParam> returns = List.of();
		if (!entry && consume("(")) {
			returns = readParams();
		}
		PtxToken name = next("a function name");
		if (!name.isWord() || name.text().startsWith(".")) {
			throw error(name, "expected a function name but found '" + name.text() + "'");
		}
		List<PtxParam> params = List.of();
		if (consume("(")) {
			params = readParams();
		}
		List<String> directives = new ArrayList<>();
		while (true) {
			PtxToken t = peekOrFail("the body of " + name.text());
			if (t.is("{") || t.is(";")) {
				break;
			}
			if (!t.text().startsWith(".")) {
				throw error(t, "unexpected '" + t.text() + "' after the parameters of " + name.text());
			}
			directives.add(t.is(".pragma") ? verbatimUntilSemicolon() : restOfLine());
		}
		if (consume(";")) {
			return new PtxFunction(name.text(), entry, linkage, returns, params, directives, List.of(), kind.line());
		}
		expect("{");
		List<PtxStatement> body = readBody(name.text());
		return new PtxFunction(name.text(), entry, linkage, returns, params, directives, body, kind.line());
	}

	private List<PtxParam> readParams() throws PtxParseException {
		List<PtxParam> params = new ArrayList<>();
		long offset = 0;
		if (consume(")")) {
			return params;
		}
		while (true) {
			PtxToken space = next("'.param'");
			if (!space.text().startsWith(".")) {
				throw error(space, "expected a state space such as '.param' but found '" + space.text() + "'");
			}
			String type = "";
			int align = 0;
			StringBuilder attributes = new StringBuilder();
			PtxToken name = null;
			while (name == null) {
				PtxToken t = next("a parameter name");
				if (t.is(".align")) {
					PtxToken a = next("an alignment");
					Long v = PtxNumbers.parseInteger(a.text());
					if (v == null || v <= 0) {
						throw error(a, "bad alignment '" + a.text() + "'");
					}
					align = v.intValue();
					if (!type.isEmpty()) {
						attributes.append(attributes.isEmpty() ? "" : " ").append(".align ").append(v);
					}
				} else if (t.text().startsWith(".") && PtxTypes.sizeOf(t.text()) > 0 || t.is(".pred")) {
					type = t.text();
				} else if (t.text().startsWith(".")) {
					attributes.append(attributes.isEmpty() ? "" : " ").append(t.text());
				} else if (t.isWord()) {
					name = t;
				} else {
					throw error(t, "unexpected '" + t.text() + "' in a parameter declaration");
				}
			}
			if (type.isEmpty()) {
				throw error(name, "parameter '" + name.text() + "' has no type");
			}
			int arrayLength = 0;
			if (consume("[")) {
				PtxToken len = next("an array length");
				Long v = PtxNumbers.parseInteger(len.text());
				if (v == null || v <= 0) {
					throw error(len, "bad array length '" + len.text() + "'");
				}
				arrayLength = v.intValue();
				expect("]");
			}
			int elementSize = Math.max(1, PtxTypes.sizeOf(type));
			int effectiveAlign = align > 0 && attributes.indexOf(".align") < 0 ? align : elementSize;
			long size = (long) elementSize * Math.max(1, arrayLength);
			offset = (offset + effectiveAlign - 1) / effectiveAlign * effectiveAlign;
			String attrs = attributes.toString();
			if (align > 0 && attributes.indexOf(".align") < 0 && !attrs.isEmpty()) {
				attrs = ".align " + align + " " + attrs;
			}
			params.add(new PtxParam(name.text(), type, effectiveAlign, arrayLength, offset, size, attrs));
			offset += size;
			PtxToken sep = next("',' or ')'");
			if (sep.is(")")) {
				return params;
			}
			if (!sep.is(",")) {
				throw error(sep, "expected ',' or ')' in a parameter list but found '" + sep.text() + "'");
			}
		}
	}

	// ------------------------------------------------------------------ bodies

	private List<PtxStatement> readBody(String function) throws PtxParseException {
		List<PtxStatement> body = new ArrayList<>();
		int depth = 1;
		while (true) {
			PtxToken t = next("'}' closing " + function);
			if (t.is("{")) {
				depth++;
				body.add(new PtxStatement.Directive("{", t.line()));
			} else if (t.is("}")) {
				if (--depth == 0) {
					return body;
				}
				body.add(new PtxStatement.Directive("}", t.line()));
			} else if (t.is(";")) {
				continue;
			} else if (t.text().startsWith(".")) {
				pos--;
				if (t.is(".loc") || t.is(".file")) {
					body.add(new PtxStatement.Directive(restOfLine(), t.line()));
				} else {
					body.add(new PtxStatement.Directive(verbatimUntilSemicolon(), t.line()));
				}
			} else if (t.isWord() && peek() != null && peek().is(":")) {
				pos++;
				body.add(new PtxStatement.Label(t.text(), t.line()));
			} else if (t.is("@")) {
				boolean negated = consume("!");
				PtxToken guard = next("a guard predicate");
				body.add(readInstruction(guard.text(), negated, next("an opcode")));
			} else if (t.isWord()) {
				body.add(readInstruction(null, false, t));
			} else {
				throw error(t, "unexpected '" + t.text() + "' in the body of " + function);
			}
		}
	}

	private PtxStatement.Instruction readInstruction(@Nullable String guard, boolean negated, PtxToken opcode)
			throws PtxParseException {
		if (!opcode.isWord()) {
			throw error(opcode, "expected an opcode but found '" + opcode.text() + "'");
		}
		List<PtxOperand> operands = new ArrayList<>();
		if (!consume(";")) {
			while (true) {
				operands.add(readOperand());
				PtxToken sep = next("',' or ';' after an operand of " + opcode.text());
				if (sep.is(";")) {
					break;
				}
				if (!sep.is(",")) {
					throw error(sep, "expected ',' or ';' after an operand of " + opcode.text() + " but found '"
							+ sep.text() + "'");
				}
			}
		}
		return new PtxStatement.Instruction(guard, negated, opcode.text(), operands, opcode.line());
	}

	private PtxOperand readOperand() throws PtxParseException {
		PtxToken t = next("an operand");
		switch (t.text()) {
			case "[" -> {
				return readAddress();
			}
			case "{" -> {
				return new PtxOperand.Group(readList("}"), false);
			}
			case "(" -> {
				return new PtxOperand.Group(readList(")"), true);
			}
			case "!" -> {
				return new PtxOperand.Register("!" + next("a predicate").text());
			}
			case "-" -> {
				return new PtxOperand.Immediate("-" + next("a number").text());
			}
			default -> {
				// words below
			}
		}
		if (!t.isWord()) {
			throw error(t, "unexpected '" + t.text() + "' where an operand was expected");
		}
		String s = t.text();
		if (s.startsWith("%") || s.equals("_") || peek() != null && peek().is("|")) {
			if (consume("|")) {
				s = s + "|" + next("a second predicate").text();
			}
			return new PtxOperand.Register(s);
		}
		if (Character.isDigit(s.charAt(0))) {
			return new PtxOperand.Immediate(s);
		}
		if (peek() != null && peek().is("+") && pos + 1 < tokens.size()) {
			pos++;
			return new PtxOperand.Symbol(s + "+" + next("an offset").text());
		}
		return new PtxOperand.Symbol(s);
	}

	private List<PtxOperand> readList(String close) throws PtxParseException {
		List<PtxOperand> list = new ArrayList<>();
		if (consume(close)) {
			return list;
		}
		while (true) {
			list.add(readOperand());
			PtxToken sep = next("',' or '" + close + "'");
			if (sep.is(close)) {
				return list;
			}
			if (!sep.is(",")) {
				throw error(sep, "expected ',' or '" + close + "' but found '" + sep.text() + "'");
			}
		}
	}

	private PtxOperand readAddress() throws PtxParseException {
		PtxToken b = next("an address");
		PtxOperand base;
		if (b.text().startsWith("%")) {
			base = new PtxOperand.Register(b.text());
		} else if (Character.isDigit(b.text().charAt(0))) {
			base = new PtxOperand.Immediate(b.text());
		} else if (b.isWord()) {
			base = new PtxOperand.Symbol(b.text());
		} else {
			throw error(b, "unexpected '" + b.text() + "' in an address");
		}
		long offset = 0;
		while (peek() != null && (peek().is("+") || peek().is("-"))) {
			boolean minus = next("+").is("-");
			if (consume("-")) {
				minus = !minus;
			}
			PtxToken n = next("an address offset");
			Long v = PtxNumbers.parseInteger(n.text());
			if (v == null) {
				throw error(n, "address offset '" + n.text() + "' is not an integer");
			}
			offset += minus ? -v : v;
		}
		List<PtxOperand> extra = new ArrayList<>();
		while (consume(",")) {
			extra.add(readOperand());
		}
		expect("]");
		return new PtxOperand.Address(base, offset, extra);
	}
}
