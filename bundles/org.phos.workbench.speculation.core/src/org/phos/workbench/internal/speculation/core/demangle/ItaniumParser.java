package org.phos.workbench.internal.speculation.core.demangle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.speculation.core.demangle.Node.ArgPack;
import org.phos.workbench.internal.speculation.core.demangle.Node.ArrayType;
import org.phos.workbench.internal.speculation.core.demangle.Node.Closure;
import org.phos.workbench.internal.speculation.core.demangle.Node.Encoding;
import org.phos.workbench.internal.speculation.core.demangle.Node.FunctionType;
import org.phos.workbench.internal.speculation.core.demangle.Node.Indirection;
import org.phos.workbench.internal.speculation.core.demangle.Node.Leaf;
import org.phos.workbench.internal.speculation.core.demangle.Node.Local;
import org.phos.workbench.internal.speculation.core.demangle.Node.MemberPointer;
import org.phos.workbench.internal.speculation.core.demangle.Node.Nested;
import org.phos.workbench.internal.speculation.core.demangle.Node.PackExpansion;
import org.phos.workbench.internal.speculation.core.demangle.Node.Qualified;
import org.phos.workbench.internal.speculation.core.demangle.Node.TemplateId;
import org.phos.workbench.internal.speculation.core.demangle.Node.TemplateParamRef;
import org.phos.workbench.speculation.core.demangle.DemangledName;
import org.phos.workbench.speculation.core.demangle.DemangledName.Status;

/**
 * Recursive-descent parser for the Itanium C++ ABI mangling grammar (section 5.1 of the ABI), keeping the
 * substitution table ({@code S_}, {@code S0_}...) and the template-parameter table ({@code T_}, {@code T0_}...) as the
 * ABI defines them. One instance parses one name; use {@link #demangle(String)}.
 */
public final class ItaniumParser {

	private static final int MAX_DEPTH = 200;

	private static final Map<Character, String> BUILTINS = Map.ofEntries(Map.entry('v', "void"),
			Map.entry('w', "wchar_t"), Map.entry('b', "bool"), Map.entry('c', "char"), Map.entry('a', "signed char"),
			Map.entry('h', "unsigned char"), Map.entry('s', "short"), Map.entry('t', "unsigned short"),
			Map.entry('i', "int"), Map.entry('j', "unsigned int"), Map.entry('l', "long"),
			Map.entry('m', "unsigned long"), Map.entry('x', "long long"), Map.entry('y', "unsigned long long"),
			Map.entry('n', "__int128"), Map.entry('o', "unsigned __int128"), Map.entry('f', "float"),
			Map.entry('d', "double"), Map.entry('e', "long double"), Map.entry('g', "__float128"),
			Map.entry('z', "..."));

	private static final Map<Character, String> LITERAL_SUFFIX = Map.of('i', "", 'j', "u", 'l', "l", 'm', "ul", 'x',
			"ll", 'y', "ull");

	/** Operator codes: spelling and arity (for expressions). */
	private static final Map<String, String> OPERATORS = Map.ofEntries(Map.entry("nw", "new"),
			Map.entry("na", "new[]"), Map.entry("dl", "delete"), Map.entry("da", "delete[]"), Map.entry("ps", "+"),
			Map.entry("ng", "-"), Map.entry("ad", "&"), Map.entry("de", "*"), Map.entry("co", "~"),
			Map.entry("pl", "+"), Map.entry("mi", "-"), Map.entry("ml", "*"), Map.entry("dv", "/"),
			Map.entry("rm", "%"), Map.entry("an", "&"), Map.entry("or", "|"), Map.entry("eo", "^"),
			Map.entry("aS", "="), Map.entry("pL", "+="), Map.entry("mI", "-="), Map.entry("mL", "*="),
			Map.entry("dV", "/="), Map.entry("rM", "%="), Map.entry("aN", "&="), Map.entry("oR", "|="),
			Map.entry("eO", "^="), Map.entry("ls", "<<"), Map.entry("rs", ">>"), Map.entry("lS", "<<="),
			Map.entry("rS", ">>="), Map.entry("eq", "=="), Map.entry("ne", "!="), Map.entry("lt", "<"),
			Map.entry("gt", ">"), Map.entry("le", "<="), Map.entry("ge", ">="), Map.entry("ss", "<=>"),
			Map.entry("nt", "!"), Map.entry("aa", "&&"), Map.entry("oo", "||"), Map.entry("pp", "++"),
			Map.entry("mm", "--"), Map.entry("cm", ","), Map.entry("pm", "->*"), Map.entry("pt", "->"),
			Map.entry("cl", "()"), Map.entry("ix", "[]"), Map.entry("qu", "?"));

	private static final String UNARY_CODES = "ps ng ad de co nt pp mm";

	private final String in;
	private int pos;
	private int depth;
	private final List<Node> subs = new ArrayList<>();
	private List<Node> templateParams = new ArrayList<>();
	private int encodingCv;
	private String encodingRef = "";
	private boolean encodingCtorLike;

	private ItaniumParser(String in) {
		this.in = in;
	}

	/** Thrown inside the parser only; {@link #demangle} turns it into an UNKNOWN result. */
	private static final class Failure extends RuntimeException {
		private static final long serialVersionUID = 1L;

		Failure(String message) {
			super(message, null, false, false);
		}
	}

	/**
	 * @param name any symbol name
	 * @return the result; never throws
	 */
	public static DemangledName demangle(String name) {
		if (!name.startsWith("_Z")) {
			return new DemangledName(name, Status.NOT_MANGLED, name, null, "not an Itanium mangled name");
		}
		ItaniumParser parser = new ItaniumParser(name);
		try {
			Node node = parser.parseMangledName();
			String text = node.text() + parser.cloneSuffix();
			return new DemangledName(name, Status.DEMANGLED, text, SignatureBuilder.signatureOf(node), "");
		} catch (Failure f) {
			return new DemangledName(name, Status.UNKNOWN, name, null,
					"cannot demangle at offset " + parser.pos + ": " + f.getMessage());
		} catch (RuntimeException | StackOverflowError e) {
			return new DemangledName(name, Status.UNKNOWN, name, null,
					"cannot demangle at offset " + parser.pos + ": malformed name (" + e.getClass().getSimpleName()
							+ ")");
		}
	}

	private String cloneSuffix() {
		if (pos >= in.length()) {
			return "";
		}
		return " [clone " + in.substring(pos) + "]";
	}

	// ---------------------------------------------------------------- character helpers

	private char peek() {
		return pos < in.length() ? in.charAt(pos) : '\0';
	}

	private char peek(int ahead) {
		return pos + ahead < in.length() ? in.charAt(pos + ahead) : '\0';
	}

	private boolean consume(char c) {
		if (peek() == c) {
			pos++;
			return true;
		}
		return false;
	}

	private boolean consume(String s) {
		if (in.startsWith(s, pos)) {
			pos += s.length();
			return true;
		}
		return false;
	}

	private void expect(char c) {
		if (!consume(c)) {
			throw new Failure("expected '" + c + "' but found " + describe());
		}
	}

	private String describe() {
		return pos < in.length() ? "'" + in.charAt(pos) + "'" : "end of name";
	}

	private boolean atEndOfEncoding() {
		return pos >= in.length() || peek() == 'E' || peek() == '.';
	}

	private void enter() {
		if (++depth > MAX_DEPTH) {
			throw new Failure("nesting deeper than " + MAX_DEPTH);
		}
	}

	/** Non-negative decimal number; {@code n} prefix for negative when allowed. */
	private String parseNumber(boolean allowNegative) {
		int start = pos;
		if (allowNegative && peek() == 'n') {
			pos++;
		}
		int digits = pos;
		while (Character.isDigit(peek())) {
			pos++;
		}
		if (pos == digits) {
			throw new Failure("expected a number but found " + describe());
		}
		String s = in.substring(digits, pos);
		return in.charAt(start) == 'n' && allowNegative ? "-" + s : s;
	}

	// ---------------------------------------------------------------- top level

	private Node parseMangledName() {
		pos = 2;
		Node encoding = parseEncoding();
		if (pos < in.length() && peek() != '.') {
			throw new Failure("unexpected trailing " + describe());
		}
		return encoding;
	}

	private Node parseEncoding() {
		enter();
		try {
			if (peek() == 'T' || peek() == 'G') {
				return parseSpecialName();
			}
			encodingCv = 0;
			encodingRef = "";
			encodingCtorLike = false;
			Node name = parseName(true);
			int cv = encodingCv;
			String ref = encodingRef;
			boolean ctorLike = encodingCtorLike;
			if (atEndOfEncoding()) {
				return name;
			}
			Node returnType = new Leaf("", true);
			if (isTemplate(name) && !ctorLike) {
				returnType = parseType();
			}
			List<Node> params = new ArrayList<>();
			if (peek() == 'v' && (pos + 1 >= in.length() || peek(1) == 'E' || peek(1) == '.')) {
				pos++;
			} else {
				while (!atEndOfEncoding()) {
					params.add(parseType());
				}
			}
			return new Encoding(returnType, name, params, Qualified.qualifiers(cv) + ref);
		} finally {
			depth--;
		}
	}

	private static boolean isTemplate(Node name) {
		if (name instanceof Local local) {
			return isTemplate(local.entity);
		}
		return name instanceof TemplateId;
	}

	private Node parseSpecialName() {
		String kind = in.substring(pos, Math.min(pos + 2, in.length()));
		pos += 2;
		return switch (kind) {
			case "TV" -> prefixed("vtable for ", parseType());
			case "TT" -> prefixed("VTT for ", parseType());
			case "TI" -> prefixed("typeinfo for ", parseType());
			case "TS" -> prefixed("typeinfo name for ", parseType());
			case "GV" -> prefixed("guard variable for ", parseName(false));
			default -> throw new Failure("unsupported special name '" + kind + "'");
		};
	}

	private static Node prefixed(String prefix, Node node) {
		return new Leaf(prefix + node.text(), false);
	}

	// ---------------------------------------------------------------- names

	private Node parseName(boolean tagTemplates) {
		enter();
		try {
			char c = peek();
			if (c == 'N') {
				return parseNestedName(tagTemplates);
			}
			if (c == 'Z') {
				return parseLocalName();
			}
			Node name;
			if (c == 'S' && peek(1) == 't') {
				pos += 2;
				name = new Nested(new Leaf("std", false), parseUnqualified(null));
			} else if (c == 'S') {
				name = parseSubstitution();
				if (peek() != 'I') {
					return name;
				}
				return new TemplateId(name, parseTemplateArgs(tagTemplates));
			} else {
				name = parseUnqualified(null);
			}
			if (tagTemplates) {
				encodingCtorLike = lastCtorLike;
			}
			if (peek() == 'I') {
				subs.add(name);
				name = new TemplateId(name, parseTemplateArgs(tagTemplates));
			}
			return name;
		} finally {
			depth--;
		}
	}

	private boolean lastCtorLike;

	private Node parseNestedName(boolean tagTemplates) {
		expect('N');
		int cv = parseCvQualifiers();
		String ref = consume('R') ? " &" : consume('O') ? " &&" : "";
		@Nullable
		Node soFar = null;
		boolean lastWasSubstitution = false;
		boolean ctorLike = false;
		while (!consume('E')) {
			char c = peek();
			lastWasSubstitution = false;
			if (c == 'L') {
				pos++;
				continue;
			}
			if (c == 'S' && peek(1) == 't') {
				pos += 2;
				if (soFar != null) {
					throw new Failure("'St' inside a nested name");
				}
				soFar = new Leaf("std", false);
				lastWasSubstitution = true;
				continue;
			}
			if (c == 'S') {
				if (soFar != null) {
					throw new Failure("substitution inside a nested name");
				}
				soFar = parseSubstitution();
				lastWasSubstitution = true;
				continue;
			}
			if (c == 'I') {
				if (soFar == null) {
					throw new Failure("template arguments without a template name");
				}
				soFar = new TemplateId(soFar, parseTemplateArgs(tagTemplates));
			} else if (c == 'T') {
				if (soFar != null) {
					throw new Failure("template parameter inside a nested name");
				}
				soFar = parseTemplateParam();
				ctorLike = false;
			} else if (c == 'D' && (peek(1) == 't' || peek(1) == 'T')) {
				throw new Failure("decltype prefix not supported");
			} else if (c == 'M') {
				pos++;
				continue;
			} else if (c == '\0') {
				throw new Failure("unterminated nested name");
			} else {
				Node unqualified = parseUnqualified(soFar);
				ctorLike = lastCtorLike;
				soFar = soFar == null ? unqualified : new Nested(soFar, unqualified);
			}
			subs.add(soFar);
		}
		if (soFar == null) {
			throw new Failure("empty nested name");
		}
		if (!lastWasSubstitution) {
			subs.remove(subs.size() - 1);
		}
		if (tagTemplates) {
			encodingCv = cv;
			encodingRef = ref;
			encodingCtorLike = ctorLike;
		}
		return soFar;
	}

	private Node parseLocalName() {
		expect('Z');
		List<Node> outerParams = templateParams;
		Node function = parseEncoding();
		templateParams = outerParams;
		expect('E');
		Node entity;
		if (consume('s')) {
			entity = new Leaf("string literal", false);
		} else {
			if (consume('d')) {
				if (peek() != '_') {
					parseNumber(false);
				}
				expect('_');
			}
			entity = parseName(false);
		}
		parseDiscriminator();
		return new Local(function, entity);
	}

	private void parseDiscriminator() {
		if (peek() == '_' && Character.isDigit(peek(1))) {
			pos += 2;
		} else if (peek() == '_' && peek(1) == '_') {
			pos += 2;
			parseNumber(false);
			expect('_');
		}
	}

	private Node parseUnqualified(@Nullable Node scope) {
		lastCtorLike = false;
		char c = peek();
		Node name;
		if (c == 'L') {
			pos++;
			return parseUnqualified(scope);
		}
		if (Character.isDigit(c)) {
			name = parseSourceName();
		} else if (c == 'C' && (Character.isDigit(peek(1)) || peek(1) == 'I')) {
			pos++;
			boolean inheriting = consume('I');
			pos++;
			name = new Leaf(baseName(scope), false);
			if (inheriting) {
				name = new Leaf(parseType().text(), false);
			}
			lastCtorLike = true;
		} else if (c == 'D' && "01245".indexOf(peek(1)) >= 0 && peek(1) != '\0') {
			pos += 2;
			name = new Leaf("~" + baseName(scope), false);
			lastCtorLike = true;
		} else if (c == 'U') {
			name = parseUnnamedType();
		} else if (Character.isLowerCase(c)) {
			name = parseOperatorName();
		} else {
			throw new Failure("expected a name but found " + describe());
		}
		while (peek() == 'B') {
			pos++;
			Node tag = parseSourceName();
			name = new Leaf(name.text() + "[abi:" + tag.text() + "]", false);
		}
		return name;
	}

	private static String baseName(@Nullable Node scope) {
		if (scope == null) {
			throw new Failure("constructor or destructor outside a class");
		}
		Node n = scope;
		if (n instanceof TemplateId t) {
			n = t.name;
		}
		if (n instanceof Nested nested) {
			n = nested.name;
		}
		String text = n.text();
		int scopeEnd = text.lastIndexOf("::");
		return scopeEnd >= 0 && !text.endsWith(">") ? text.substring(scopeEnd + 2) : text;
	}

	private Node parseSourceName() {
		int length = Integer.parseInt(parseNumber(false));
		if (length <= 0 || pos + length > in.length()) {
			throw new Failure("source name of length " + length + " runs past the end");
		}
		String id = in.substring(pos, pos + length);
		pos += length;
		if (id.startsWith("_GLOBAL__N")) {
			return new Leaf("(anonymous namespace)", false);
		}
		return new Leaf(id, false);
	}

	private Node parseUnnamedType() {
		expect('U');
		if (consume('t')) {
			String n = peek() == '_' ? "" : parseNumber(false);
			expect('_');
			return new Leaf("{unnamed type#" + (n.isEmpty() ? 1 : Long.parseLong(n) + 2) + "}", false);
		}
		if (consume('l')) {
			List<Node> params = new ArrayList<>();
			while (peek() == 'T' && "ytnp".indexOf(peek(1)) >= 0) {
				throw new Failure("template lambda parameters not supported");
			}
			if (peek() == 'v' && peek(1) == 'E') {
				pos++;
			} else {
				while (peek() != 'E') {
					if (peek() == '\0') {
						throw new Failure("unterminated lambda signature");
					}
					params.add(parseType());
				}
			}
			expect('E');
			String n = peek() == '_' ? "" : parseNumber(false);
			expect('_');
			return new Closure(params, n.isEmpty() ? "1" : Long.toString(Long.parseLong(n) + 2));
		}
		throw new Failure("unsupported unnamed entity 'U" + peek() + "'");
	}

	private Node parseOperatorName() {
		String code = in.substring(pos, Math.min(pos + 2, in.length()));
		if (code.equals("cv")) {
			pos += 2;
			Node type = parseType();
			lastCtorLike = true;
			return new Leaf("operator " + type.text(), false);
		}
		if (code.equals("li")) {
			pos += 2;
			return new Leaf("operator\"\" " + parseSourceName().text(), false);
		}
		if (code.length() == 2 && code.charAt(0) == 'v' && Character.isDigit(code.charAt(1))) {
			pos += 2;
			return new Leaf("operator " + parseSourceName().text(), false);
		}
		String op = OPERATORS.get(code);
		if (op == null) {
			throw new Failure("unknown operator code '" + code + "'");
		}
		pos += 2;
		return new Leaf("operator" + (Character.isLetter(op.charAt(0)) ? " " : "") + op, false);
	}

	private int parseCvQualifiers() {
		int cv = 0;
		if (consume('r')) {
			cv |= Qualified.RESTRICT;
		}
		if (consume('V')) {
			cv |= Qualified.VOLATILE;
		}
		if (consume('K')) {
			cv |= Qualified.CONST;
		}
		return cv;
	}

	private Node parseSubstitution() {
		expect('S');
		char c = peek();
		String special = switch (c) {
			case 'a' -> "std::allocator";
			case 'b' -> "std::basic_string";
			case 's' -> "std::string";
			case 'i' -> "std::istream";
			case 'o' -> "std::ostream";
			case 'd' -> "std::iostream";
			default -> null;
		};
		if (special != null) {
			pos++;
			return new Leaf(special, false);
		}
		int index = 0;
		if (c != '_') {
			long seq = 0;
			while (Character.isDigit(peek()) || Character.isUpperCase(peek())) {
				char d = in.charAt(pos++);
				seq = seq * 36 + (Character.isDigit(d) ? d - '0' : d - 'A' + 10);
				if (seq > Integer.MAX_VALUE / 64) {
					throw new Failure("substitution index too large");
				}
			}
			index = (int) seq + 1;
		}
		expect('_');
		if (index >= subs.size()) {
			throw new Failure("substitution S" + (index == 0 ? "" : index - 1) + "_ refers to candidate " + index
					+ " of " + subs.size());
		}
		return subs.get(index);
	}

	private Node parseTemplateParam() {
		int start = pos;
		expect('T');
		int index = 0;
		if (peek() != '_') {
			index = Integer.parseInt(parseNumber(false)) + 1;
		}
		expect('_');
		String spelling = in.substring(start, pos);
		if (index < templateParams.size()) {
			return new TemplateParamRef(spelling, templateParams.get(index));
		}
		return new TemplateParamRef(spelling, new Leaf("auto", false));
	}

	private List<Node> parseTemplateArgs(boolean tag) {
		enter();
		try {
			expect('I');
			List<Node> args = new ArrayList<>();
			while (!consume('E')) {
				if (peek() == '\0') {
					throw new Failure("unterminated template arguments");
				}
				args.add(parseTemplateArg());
			}
			if (tag) {
				templateParams = new ArrayList<>(args);
			}
			return args;
		} finally {
			depth--;
		}
	}

	private Node parseTemplateArg() {
		char c = peek();
		if (c == 'X') {
			pos++;
			Node e = parseExpression();
			expect('E');
			return e;
		}
		if (c == 'J') {
			pos++;
			List<Node> elements = new ArrayList<>();
			while (!consume('E')) {
				if (peek() == '\0') {
					throw new Failure("unterminated argument pack");
				}
				elements.add(parseTemplateArg());
			}
			return new ArgPack(elements);
		}
		if (c == 'L') {
			return parseExprPrimary();
		}
		return parseType();
	}

	// ---------------------------------------------------------------- types

	private Node parseType() {
		enter();
		try {
			return parseTypeInner();
		} finally {
			depth--;
		}
	}

	private Node parseTypeInner() {
		char c = peek();
		String builtin = BUILTINS.get(c);
		if (builtin != null) {
			pos++;
			return new Leaf(builtin, true);
		}
		Node result;
		switch (c) {
			case 'u' -> {
				pos++;
				result = parseSourceName();
			}
			case 'D' -> {
				Node special = parseDType();
				if (!(special instanceof PackExpansion) && !(special instanceof Leaf l && !l.builtin)) {
					return special;
				}
				result = special;
			}
			case 'K', 'V', 'r' -> {
				int cv = parseCvQualifiers();
				result = new Qualified(parseType(), cv);
			}
			case 'P' -> {
				pos++;
				result = new Indirection(parseType(), "*");
			}
			case 'R' -> {
				pos++;
				result = new Indirection(parseType(), "&");
			}
			case 'O' -> {
				pos++;
				result = new Indirection(parseType(), "&&");
			}
			case 'F' -> result = parseFunctionType();
			case 'A' -> result = parseArrayType();
			case 'M' -> {
				pos++;
				Node cls = parseType();
				Node member = parseType();
				result = new MemberPointer(cls, member);
			}
			case 'T' -> {
				if (peek(1) == 's' || peek(1) == 'u' || peek(1) == 'e') {
					pos += 2;
					result = parseName(false);
				} else {
					result = parseTemplateParam();
					if (peek() == 'I') {
						subs.add(result);
						result = new TemplateId(result, parseTemplateArgs(false));
					}
				}
			}
			case 'S' -> {
				if (peek(1) == 't') {
					result = parseName(false);
				} else {
					Node sub = parseSubstitution();
					if (peek() != 'I') {
						return sub;
					}
					result = new TemplateId(sub, parseTemplateArgs(false));
				}
			}
			case 'N', 'Z', 'L', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> result = parseName(false);
			default -> throw new Failure("expected a type but found " + describe());
		}
		subs.add(result);
		return result;
	}

	private Node parseDType() {
		char d = peek(1);
		String simple = switch (d) {
			case 'n' -> "decltype(nullptr)";
			case 'i' -> "char32_t";
			case 's' -> "char16_t";
			case 'u' -> "char8_t";
			case 'a' -> "auto";
			case 'c' -> "decltype(auto)";
			case 'h' -> "half";
			default -> null;
		};
		if (simple != null) {
			pos += 2;
			return new Leaf(simple, true);
		}
		if (d == 'F') {
			pos += 2;
			String bits = parseNumber(false);
			if (consume('b')) {
				return new Leaf("std::bfloat" + bits + "_t", true);
			}
			expect('_');
			return new Leaf("_Float" + bits, true);
		}
		if (d == 'p') {
			pos += 2;
			return new PackExpansion(parseType());
		}
		if (d == 't' || d == 'T') {
			pos += 2;
			Node e = parseExpression();
			expect('E');
			return new Leaf("decltype(" + e.text() + ")", false);
		}
		throw new Failure("unsupported type code 'D" + d + "'");
	}

	private Node parseFunctionType() {
		expect('F');
		consume('Y');
		Node ret = parseType();
		List<Node> params = new ArrayList<>();
		String ref = "";
		if (peek() == 'v' && peek(1) == 'E') {
			pos++;
		}
		while (!consume('E')) {
			if (peek() == 'R' && peek(1) == 'E') {
				pos++;
				ref = " &";
				continue;
			}
			if (peek() == 'O' && peek(1) == 'E') {
				pos++;
				ref = " &&";
				continue;
			}
			if (peek() == '\0') {
				throw new Failure("unterminated function type");
			}
			params.add(parseType());
		}
		return new FunctionType(ret, params, 0, ref);
	}

	private Node parseArrayType() {
		expect('A');
		String dimension = "";
		if (Character.isDigit(peek())) {
			dimension = parseNumber(false);
		} else if (peek() != '_') {
			dimension = parseExpression().text();
		}
		expect('_');
		return new ArrayType(parseType(), dimension);
	}

	// ---------------------------------------------------------------- expressions (template arguments)

	private Node parseExprPrimary() {
		expect('L');
		if (peek() == '_' && peek(1) == 'Z') {
			pos += 2;
			List<Node> outer = templateParams;
			Node encoding = parseEncoding();
			templateParams = outer;
			expect('E');
			return encoding;
		}
		if (consume("Dn")) {
			if (peek() == '0') {
				pos++;
			}
			expect('E');
			return new Leaf("nullptr", true);
		}
		char code = peek();
		boolean isBuiltin = BUILTINS.containsKey(code);
		Node type = parseType();
		if (isBuiltin && (code == 'f' || code == 'd' || code == 'e' || code == 'g')) {
			int start = pos;
			while (peek() != 'E' && peek() != '\0') {
				pos++;
			}
			String hex = in.substring(start, pos);
			expect('E');
			return new Leaf("(" + type.text() + ")[" + hex + "]", true);
		}
		String value = parseNumber(true);
		expect('E');
		if (isBuiltin && code == 'b') {
			return new Leaf(value.equals("0") ? "false" : value.equals("1") ? "true" : "(bool)" + value, true);
		}
		String suffix = isBuiltin ? LITERAL_SUFFIX.get(code) : null;
		if (suffix != null) {
			return new Leaf(value + suffix, true);
		}
		return new Leaf("(" + type.text() + ")" + value, true);
	}

	/** {@code <source-name> [<template-args>]}. */
	private String parseSimpleId() {
		String id = parseSourceName().text();
		if (peek() == 'I') {
			id = new TemplateId(new Leaf(id, false), parseTemplateArgs(false)).text();
		}
		return id;
	}

	/** The part of an {@code sr} unresolved name after {@code sr}. */
	private String parseUnresolvedName() {
		StringBuilder text = new StringBuilder();
		if (consume('N')) {
			text.append(parseType().text());
			while (!consume('E')) {
				if (peek() == '\0') {
					throw new Failure("unterminated unresolved name");
				}
				text.append("::").append(parseSimpleId());
			}
		} else if (Character.isDigit(peek())) {
			text.append(parseSimpleId());
			while (!consume('E')) {
				if (peek() == '\0') {
					throw new Failure("unterminated unresolved name");
				}
				text.append("::").append(parseSimpleId());
			}
		} else {
			text.append(parseType().text());
		}
		text.append("::");
		if (consume("on")) {
			text.append(parseOperatorName().text());
		} else if (consume("dn")) {
			text.append('~').append(Character.isDigit(peek()) ? parseSimpleId() : parseType().text());
		} else {
			text.append(parseSimpleId());
		}
		return text.toString();
	}

	private Node parseExpression() {
		enter();
		try {
			return parseExpressionInner();
		} finally {
			depth--;
		}
	}

	private Node parseExpressionInner() {
		char c = peek();
		if (c == 'L') {
			return parseExprPrimary();
		}
		if (c == 'T') {
			return parseTemplateParam();
		}
		if (Character.isDigit(c)) {
			return new Leaf(parseSimpleId(), false);
		}
		String code = in.substring(pos, Math.min(pos + 2, in.length()));
		switch (code) {
			case "sp" -> {
				pos += 2;
				Node pattern = parseExpression();
				if (pattern.resolved() instanceof ArgPack pack) {
					return pack;
				}
				return new Leaf(pattern.text() + "...", false);
			}
			case "sr" -> {
				pos += 2;
				return new Leaf(parseUnresolvedName(), false);
			}
			case "fp" -> {
				pos += 2;
				parseCvQualifiers();
				String n = peek() == '_' ? "" : parseNumber(false);
				expect('_');
				return new Leaf("{parm#" + (n.isEmpty() ? 1 : Long.parseLong(n) + 2) + "}", false);
			}
			case "st" -> {
				pos += 2;
				return new Leaf("sizeof (" + parseType().text() + ")", false);
			}
			case "sz" -> {
				pos += 2;
				return new Leaf("sizeof (" + parseExpression().text() + ")", false);
			}
			case "at" -> {
				pos += 2;
				return new Leaf("alignof (" + parseType().text() + ")", false);
			}
			case "cv" -> {
				pos += 2;
				Node type = parseType();
				return new Leaf("(" + type.text() + ")(" + parseExpression().text() + ")", false);
			}
			case "qu" -> {
				pos += 2;
				String a = parseExpression().text();
				String b = parseExpression().text();
				String d = parseExpression().text();
				return new Leaf("(" + a + ")?(" + b + "):(" + d + ")", false);
			}
			default -> {
				// fall through to operators
			}
		}
		String op = OPERATORS.get(code);
		if (op == null) {
			throw new Failure("unsupported expression '" + code + "'");
		}
		pos += 2;
		if (UNARY_CODES.contains(code)) {
			Node operand = parseExpression();
			String text = operand.text();
			return new Leaf(op + (operand instanceof Leaf || operand instanceof Encoding ? text : "(" + text + ")"),
					false);
		}
		String left = parseExpression().text();
		String right = parseExpression().text();
		return new Leaf("(" + left + ")" + op + "(" + right + ")", false);
	}
}
