package org.phos.workbench.internal.speculation.core.instrument;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.phos.workbench.speculation.core.ptx.PtxStatement;
import org.phos.workbench.speculation.core.ptx.PtxTypes;

/**
 * Register widths of one function from its {@code .reg} declarations ({@code .reg .b64 %rd<8>;},
 * {@code .reg .u32 %r1, %r2;}), so an address or size held in a 32-bit register is widened or narrowed before it is
 * passed to the record routine. Registers not declared (special registers) count as 32-bit.
 */
final class RegisterWidths {

	private static final Pattern DECL = Pattern.compile("\\.reg\\s+(?:\\.v\\d\\s+)?(\\.\\w+)\\s+(.*);");
	private static final Pattern NAME = Pattern.compile("(%?[\\w$]+)\\s*(?:<\\s*(\\d+)\\s*>)?");

	private final Map<String, Integer> exact = new HashMap<>();
	private final Map<String, Integer> parameterized = new HashMap<>();

	RegisterWidths(Iterable<PtxStatement> body) {
		for (PtxStatement s : body) {
			if (s instanceof PtxStatement.Directive d && d.text().startsWith(".reg")) {
				Matcher m = DECL.matcher(d.text());
				if (!m.matches()) {
					continue;
				}
				int width = PtxTypes.sizeOf(m.group(1));
				for (String part : m.group(2).split(",")) {
					Matcher n = NAME.matcher(part.trim());
					if (n.matches()) {
						(n.group(2) != null ? parameterized : exact).put(n.group(1), width);
					}
				}
			}
		}
	}

	/** @return the register's width in bytes (0 for predicates), 4 when undeclared */
	int width(String register) {
		Integer w = exact.get(register);
		if (w != null) {
			return w;
		}
		int end = register.length();
		while (end > 0 && Character.isDigit(register.charAt(end - 1))) {
			end--;
		}
		w = end < register.length() ? parameterized.get(register.substring(0, end)) : null;
		return w != null ? w : 4;
	}
}
