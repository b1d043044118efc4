package org.phos.workbench.internal.speculation.core.demangle;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.speculation.core.demangle.Node.Closure;
import org.phos.workbench.internal.speculation.core.demangle.Node.Encoding;
import org.phos.workbench.internal.speculation.core.demangle.Node.FunctionType;
import org.phos.workbench.internal.speculation.core.demangle.Node.Indirection;
import org.phos.workbench.internal.speculation.core.demangle.Node.Leaf;
import org.phos.workbench.internal.speculation.core.demangle.Node.Local;
import org.phos.workbench.internal.speculation.core.demangle.Node.Nested;
import org.phos.workbench.internal.speculation.core.demangle.Node.Qualified;
import org.phos.workbench.internal.speculation.core.demangle.Node.TemplateId;
import org.phos.workbench.speculation.core.demangle.KernelSignature;
import org.phos.workbench.speculation.core.demangle.ParameterType;

/** Reads the per-parameter facts of a demangled function out of its node tree. */
final class SignatureBuilder {

	private SignatureBuilder() {
	}

	static @Nullable KernelSignature signatureOf(Node node) {
		if (!(node instanceof Encoding encoding)) {
			return null;
		}
		List<ParameterType> params = new ArrayList<>();
		for (Node p : Node.expandPacks(encoding.params)) {
			params.add(parameterOf(p));
		}
		return new KernelSignature(encoding.name.text(), params);
	}

	static ParameterType parameterOf(Node declared) {
		Node t = stripQualifiers(declared.resolved());
		if (t instanceof Indirection found) {
			Indirection ind = found.collapsed();
			Node pointee = ind.pointee.resolved();
			boolean pointeeConst = pointee instanceof Qualified q && (q.cv & Qualified.CONST) != 0;
			int depth = 1;
			Node inner = stripQualifiers(pointee);
			while (inner instanceof Indirection next) {
				depth++;
				inner = stripQualifiers(next.pointee.resolved());
			}
			return new ParameterType(declared.text(), true, !ind.isPointer(), pointeeConst, depth,
					inner instanceof FunctionType, false);
		}
		return new ParameterType(declared.text(), false, false, false, 0, false, isClassType(t));
	}

	private static Node stripQualifiers(Node n) {
		Node t = n;
		while (t instanceof Qualified q) {
			t = q.inner.resolved();
		}
		return t;
	}

	private static boolean isClassType(Node t) {
		if (t instanceof Leaf leaf) {
			return !leaf.builtin;
		}
		return t instanceof Nested || t instanceof TemplateId || t instanceof Local || t instanceof Closure;
	}
}
