package org.phos.workbench.internal.speculation.core.demangle;

import java.util.ArrayList;
import java.util.List;

/**
 * A node of a demangled name. Types print in two halves, as C declarators need: {@link #printLeft} writes what
 * precedes a declarator name and {@link #printRight} what follows it, so that {@code float (*)[16]} and
 * {@code void (*)(int)} come out right. Parameter packs are expanded by {@link #packSize()} and {@link #atPackIndex}.
 */
abstract class Node {

	abstract void printLeft(StringBuilder out);

	void printRight(StringBuilder out) {
	}

	/** @return whether {@link #printRight} writes anything (arrays, functions) */
	boolean hasRight() {
		return false;
	}

	/** @return the node a template parameter reference stands for; the node itself otherwise */
	Node resolved() {
		return this;
	}

	/** @return the length of the argument pack this node expands over, or -1 when it contains none */
	int packSize() {
		return -1;
	}

	/** @return this node with every argument pack inside replaced by its element {@code index} */
	Node atPackIndex(int index) {
		return this;
	}

	final String text() {
		StringBuilder out = new StringBuilder();
		printLeft(out);
		printRight(out);
		return out.toString();
	}

	@Override
	public String toString() {
		return text();
	}

	static void printList(StringBuilder out, List<Node> nodes) {
		boolean first = true;
		for (Node n : expandPacks(nodes)) {
			if (!first) {
				out.append(", ");
			}
			int before = out.length();
			n.printLeft(out);
			n.printRight(out);
			first = out.length() == before && first;
		}
	}

	/** Flattens argument packs and pack expansions into one list. */
	static List<Node> expandPacks(List<Node> nodes) {
		List<Node> result = new ArrayList<>();
		for (Node n : nodes) {
			Node r = n.resolved();
			if (r instanceof ArgPack pack) {
				result.addAll(expandPacks(pack.elements));
			} else if (r instanceof PackExpansion exp && exp.pattern.packSize() >= 0) {
				for (int i = 0; i < exp.pattern.packSize(); i++) {
					result.add(exp.pattern.atPackIndex(i));
				}
			} else {
				result.add(n);
			}
		}
		return result;
	}

	static int packSizeOf(List<Node> nodes) {
		int size = -1;
		for (Node n : nodes) {
			size = Math.max(size, n.packSize());
		}
		return size;
	}

	static List<Node> atIndex(List<Node> nodes, int index) {
		List<Node> copy = new ArrayList<>(nodes.size());
		for (Node n : nodes) {
			copy.add(n.atPackIndex(index));
		}
		return copy;
	}

	/** A name or builtin type printed as is. */
	static final class Leaf extends Node {
		final String name;
		final boolean builtin;

		Leaf(String name, boolean builtin) {
			this.name = name;
			this.builtin = builtin;
		}

		@Override
		void printLeft(StringBuilder out) {
			out.append(name);
		}
	}

	/** {@code prefix::name}. */
	static final class Nested extends Node {
		final Node prefix;
		final Node name;

		Nested(Node prefix, Node name) {
			this.prefix = prefix;
			this.name = name;
		}

		@Override
		void printLeft(StringBuilder out) {
			prefix.printLeft(out);
			prefix.printRight(out);
			out.append("::");
			name.printLeft(out);
		}

		@Override
		int packSize() {
			return Math.max(prefix.packSize(), name.packSize());
		}

		@Override
		Node atPackIndex(int index) {
			return new Nested(prefix.atPackIndex(index), name.atPackIndex(index));
		}
	}

	/** {@code name<args>}. */
	static final class TemplateId extends Node {
		final Node name;
		final List<Node> args;

		TemplateId(Node name, List<Node> args) {
			this.name = name;
			this.args = args;
		}

		@Override
		void printLeft(StringBuilder out) {
			name.printLeft(out);
			out.append('<');
			printList(out, args);
			out.append('>');
		}

		@Override
		int packSize() {
			return Math.max(name.packSize(), packSizeOf(args));
		}

		@Override
		Node atPackIndex(int index) {
			return new TemplateId(name.atPackIndex(index), atIndex(args, index));
		}
	}

	/** A type with cv-qualifiers: GNU style {@code float const}, {@code int* const}. */
	static final class Qualified extends Node {
		static final int CONST = 1;
		static final int VOLATILE = 2;
		static final int RESTRICT = 4;
		final Node inner;
		final int cv;

		Qualified(Node inner, int cv) {
			this.inner = inner;
			this.cv = cv;
		}

		static String qualifiers(int cv) {
			StringBuilder out = new StringBuilder();
			if ((cv & CONST) != 0) {
				out.append(" const");
			}
			if ((cv & VOLATILE) != 0) {
				out.append(" volatile");
			}
			if ((cv & RESTRICT) != 0) {
				out.append(" restrict");
			}
			return out.toString();
		}

		@Override
		void printLeft(StringBuilder out) {
			inner.printLeft(out);
			if (!(inner.resolved() instanceof FunctionType)) {
				out.append(qualifiers(cv));
			}
		}

		@Override
		void printRight(StringBuilder out) {
			inner.printRight(out);
			if (inner.resolved() instanceof FunctionType) {
				out.append(qualifiers(cv));
			}
		}

		@Override
		boolean hasRight() {
			return inner.hasRight();
		}

		@Override
		int packSize() {
			return inner.packSize();
		}

		@Override
		Node atPackIndex(int index) {
			return new Qualified(inner.atPackIndex(index), cv);
		}
	}

	/** Pointer ({@code *}), lvalue reference ({@code &}) or rvalue reference ({@code &&}). */
	static final class Indirection extends Node {
		final Node pointee;
		final String symbol;

		Indirection(Node pointee, String symbol) {
			this.pointee = pointee;
			this.symbol = symbol;
		}

		boolean isPointer() {
			return symbol.equals("*");
		}

		/** Reference collapsing: {@code T& &&} is {@code T&}, {@code T&& &&} is {@code T&&}. */
		Indirection collapsed() {
			if (!isPointer() && pointee.resolved() instanceof Indirection inner && !inner.isPointer()) {
				String symbol2 = symbol.equals("&&") && inner.symbol.equals("&&") ? "&&" : "&";
				return new Indirection(inner.pointee, symbol2).collapsed();
			}
			return this;
		}

		@Override
		void printLeft(StringBuilder out) {
			Indirection c = collapsed();
			if (c != this) {
				c.printLeft(out);
				return;
			}
			pointee.printLeft(out);
			if (pointee.hasRight()) {
				out.append(out.length() > 0 && out.charAt(out.length() - 1) == ' ' ? "(" : " (");
			}
			out.append(symbol);
		}

		@Override
		void printRight(StringBuilder out) {
			Indirection c = collapsed();
			if (c != this) {
				c.printRight(out);
				return;
			}
			if (pointee.hasRight()) {
				out.append(')');
				pointee.printRight(out);
			}
		}

		@Override
		boolean hasRight() {
			return pointee.hasRight();
		}

		@Override
		int packSize() {
			return pointee.packSize();
		}

		@Override
		Node atPackIndex(int index) {
			return new Indirection(pointee.atPackIndex(index), symbol);
		}
	}

	/** A function type {@code ret (params) cv ref}. */
	static final class FunctionType extends Node {
		final Node returnType;
		final List<Node> params;
		final int cv;
		final String refQualifier;

		FunctionType(Node returnType, List<Node> params, int cv, String refQualifier) {
			this.returnType = returnType;
			this.params = params;
			this.cv = cv;
			this.refQualifier = refQualifier;
		}

		@Override
		void printLeft(StringBuilder out) {
			returnType.printLeft(out);
			out.append(' ');
		}

		@Override
		void printRight(StringBuilder out) {
			out.append('(');
			printList(out, params);
			out.append(')');
			out.append(Qualified.qualifiers(cv)).append(refQualifier);
			returnType.printRight(out);
		}

		@Override
		boolean hasRight() {
			return true;
		}

		@Override
		int packSize() {
			return Math.max(returnType.packSize(), packSizeOf(params));
		}

		@Override
		Node atPackIndex(int index) {
			return new FunctionType(returnType.atPackIndex(index), atIndex(params, index), cv, refQualifier);
		}
	}

	/** {@code elem [dim]}. */
	static final class ArrayType extends Node {
		final Node element;
		final String dimension;

		ArrayType(Node element, String dimension) {
			this.element = element;
			this.dimension = dimension;
		}

		@Override
		void printLeft(StringBuilder out) {
			element.printLeft(out);
		}

		@Override
		void printRight(StringBuilder out) {
			if (out.length() > 0 && out.charAt(out.length() - 1) != ']') {
				out.append(' ');
			}
			out.append('[').append(dimension).append(']');
			element.printRight(out);
		}

		@Override
		boolean hasRight() {
			return true;
		}

		@Override
		int packSize() {
			return element.packSize();
		}

		@Override
		Node atPackIndex(int index) {
			return new ArrayType(element.atPackIndex(index), dimension);
		}
	}

	/** {@code member Class::*}. */
	static final class MemberPointer extends Node {
		final Node classType;
		final Node memberType;

		MemberPointer(Node classType, Node memberType) {
			this.classType = classType;
			this.memberType = memberType;
		}

		@Override
		void printLeft(StringBuilder out) {
			memberType.printLeft(out);
			out.append(memberType.hasRight() ? "(" : " ");
			classType.printLeft(out);
			out.append("::*");
		}

		@Override
		void printRight(StringBuilder out) {
			if (memberType.hasRight()) {
				out.append(')');
				memberType.printRight(out);
			}
		}

		@Override
		boolean hasRight() {
			return memberType.hasRight();
		}
	}

	/** A reference {@code T_}, {@code T0_}... to a template argument, printed as the argument. */
	static final class TemplateParamRef extends Node {
		final String spelling;
		final Node argument;

		TemplateParamRef(String spelling, Node argument) {
			this.spelling = spelling;
			this.argument = argument;
		}

		@Override
		Node resolved() {
			return argument.resolved();
		}

		@Override
		void printLeft(StringBuilder out) {
			argument.printLeft(out);
		}

		@Override
		void printRight(StringBuilder out) {
			argument.printRight(out);
		}

		@Override
		boolean hasRight() {
			return argument.hasRight();
		}

		@Override
		int packSize() {
			return argument.packSize();
		}

		@Override
		Node atPackIndex(int index) {
			return argument.atPackIndex(index);
		}
	}

	/** A template argument pack {@code J...E}. */
	static final class ArgPack extends Node {
		final List<Node> elements;

		ArgPack(List<Node> elements) {
			this.elements = elements;
		}

		@Override
		void printLeft(StringBuilder out) {
			printList(out, elements);
		}

		@Override
		int packSize() {
			return elements.size();
		}

		@Override
		Node atPackIndex(int index) {
			return index < elements.size() ? elements.get(index) : this;
		}
	}

	/** A pack expansion {@code Dp pattern}: prints as the pattern applied to each pack element. */
	static final class PackExpansion extends Node {
		final Node pattern;

		PackExpansion(Node pattern) {
			this.pattern = pattern;
		}

		@Override
		void printLeft(StringBuilder out) {
			int n = pattern.packSize();
			if (n < 0) {
				pattern.printLeft(out);
				pattern.printRight(out);
				out.append("...");
				return;
			}
			List<Node> elements = new ArrayList<>();
			for (int i = 0; i < n; i++) {
				elements.add(pattern.atPackIndex(i));
			}
			printList(out, elements);
		}
	}

	/** A local entity {@code function(args)::entity}. */
	static final class Local extends Node {
		final Node function;
		final Node entity;

		Local(Node function, Node entity) {
			this.function = function;
			this.entity = entity;
		}

		@Override
		void printLeft(StringBuilder out) {
			if (function instanceof Encoding encoding) {
				encoding.name.printLeft(out);
				encoding.printRight(out);
			} else {
				function.printLeft(out);
				function.printRight(out);
			}
			out.append("::");
			entity.printLeft(out);
		}
	}

	/** A lambda's closure type {@code {lambda(int)#1}}. */
	static final class Closure extends Node {
		final List<Node> params;
		final String number;

		Closure(List<Node> params, String number) {
			this.params = params;
			this.number = number;
		}

		@Override
		void printLeft(StringBuilder out) {
			out.append("{lambda(");
			printList(out, params);
			out.append(")#").append(number).append('}');
		}
	}

	/** A function's encoding: optional return type, name, parameters, member qualifiers. */
	static final class Encoding extends Node {
		final Node returnType;
		final Node name;
		final List<Node> params;
		final String memberQualifiers;

		Encoding(Node returnType, Node name, List<Node> params, String memberQualifiers) {
			this.returnType = returnType;
			this.name = name;
			this.params = params;
			this.memberQualifiers = memberQualifiers;
		}

		@Override
		void printLeft(StringBuilder out) {
			if (!(returnType instanceof Leaf leaf && leaf.name.isEmpty())) {
				returnType.printLeft(out);
				if (!returnType.hasRight()) {
					out.append(' ');
				}
			}
			name.printLeft(out);
		}

		@Override
		void printRight(StringBuilder out) {
			out.append('(');
			printList(out, params);
			out.append(')');
			returnType.printRight(out);
			out.append(memberQualifiers);
		}

		@Override
		boolean hasRight() {
			return true;
		}
	}
}
