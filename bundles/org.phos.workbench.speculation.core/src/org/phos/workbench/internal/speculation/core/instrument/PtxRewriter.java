package org.phos.workbench.internal.speculation.core.instrument;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.instrument.AccessTableLayout;
import org.phos.workbench.speculation.core.instrument.InstrumentedFunction;
import org.phos.workbench.speculation.core.instrument.InstrumentedModule;
import org.phos.workbench.speculation.core.ptx.PtxFunction;
import org.phos.workbench.speculation.core.ptx.PtxModule;
import org.phos.workbench.speculation.core.ptx.PtxOperand;
import org.phos.workbench.speculation.core.ptx.PtxParseException;
import org.phos.workbench.speculation.core.ptx.PtxParser;
import org.phos.workbench.speculation.core.ptx.PtxStatement;
import org.phos.workbench.speculation.core.ptx.PtxStatement.Instruction;

/**
 * Rewrites one module: adds the access table and the record routine, and before every global access of every
 * function with a body inserts
 *
 * <pre>
 * {
 * .param .b64 __phos_pa;
 * .param .b32 __phos_pi;
 * add.s64 %phos_a, %rd4, 16;          // address: base register (widened if 32-bit) + offset
 * st.param.b64 [__phos_pa], %phos_a;
 * st.param.b32 [__phos_pi], 129;      // size << 3 | kind
 * &#64;%p1 call __phos_record, (__phos_pa, __phos_pi);   // the access's own guard
 * }
 * </pre>
 *
 * Registers {@code %phos_a} (b64) and {@code %phos_s} (b32) are declared once per function.
 */
public final class PtxRewriter {

	private static final String ADDR_REG = "%phos_a";
	private static final String SIZE_REG = "%phos_s";
	private static final String PARAM_ADDR = "__phos_pa";
	private static final String PARAM_INFO = "__phos_pi";
	private static final Pattern GLOBAL_VAR = Pattern.compile("\\.global\\b.*?([A-Za-z_$][\\w$]*)\\s*(\\[|=|;)");

	private final PtxModule module;
	private final AccessTableLayout layout;
	private final Set<String> globalVariables = new HashSet<>();

	/**
	 * @param module the module to rewrite
	 * @param layout the table layout
	 */
	public PtxRewriter(PtxModule module, AccessTableLayout layout) {
		this.module = module;
		this.layout = layout;
		for (String g : module.globals()) {
			Matcher m = GLOBAL_VAR.matcher(g);
			if (!g.startsWith(".extern .func") && m.find()) {
				globalVariables.add(m.group(1));
			}
		}
	}

	/**
	 * @return the instrumented module
	 * @throws PtxParseException when the module cannot be instrumented
	 */
	public InstrumentedModule rewrite() throws PtxParseException {
		if (module.addressSize() != 64) {
			throw new PtxParseException("module", 1, "only 64-bit PTX (.address_size 64) can be instrumented");
		}
		for (PtxFunction f : module.functions()) {
			if (f.name().equals(AccessTableLayout.RECORD_FUNCTION)) {
				throw new PtxParseException("module", f.line(), "the module is already instrumented ("
						+ AccessTableLayout.RECORD_FUNCTION + " is defined)");
			}
		}
		List<InstrumentedFunction> reports = new ArrayList<>();
		List<PtxFunction> functions = new ArrayList<>();
		String routineText = ".version " + module.version() + "\n.target " + module.target()
				+ "\n.address_size 64\n" + RecordRoutine.table(layout) + "\n" + RecordRoutine.function(layout);
		PtxModule routine = PtxParser.parse("record routine", routineText);
		functions.add(routine.functions().get(0));
		for (PtxFunction f : module.functions()) {
			if (f.body().isEmpty()) {
				functions.add(f);
				continue;
			}
			Counts c = new Counts();
			List<PtxStatement> body = rewriteBody(f, c);
			functions.add(new PtxFunction(f.name(), f.entry(), f.linkage(), f.returnParams(), f.params(),
					f.performanceDirectives(), body, f.line()));
			reports.add(new InstrumentedFunction(f.name(), f.entry(), c.reads, c.writes, c.readWrites, c.generic,
					c.untracked));
		}
		List<String> globals = new ArrayList<>(module.globals());
		globals.add(RecordRoutine.table(layout));
		PtxModule out = new PtxModule(module.version(), module.target(), 64, globals, functions);
		return new InstrumentedModule(out.toPtx(), layout, reports);
	}

	private static final class Counts {
		int reads;
		int writes;
		int readWrites;
		int generic;
		final List<String> untracked = new ArrayList<>();
	}

	private List<PtxStatement> rewriteBody(PtxFunction f, Counts c) {
		RegisterWidths widths = new RegisterWidths(f.body());
		List<PtxStatement> out = new ArrayList<>(f.body().size() * 2);
		out.add(new PtxStatement.Directive(".reg .b64 " + ADDR_REG + ";", f.line()));
		out.add(new PtxStatement.Directive(".reg .b32 " + SIZE_REG + ";", f.line()));
		for (PtxStatement s : f.body()) {
			if (s instanceof Instruction insn) {
				AccessClassifier.Classification k = AccessClassifier.classify(insn);
				AccessSite site = k.site();
				if (k.untracked() != null) {
					c.untracked.add("line " + insn.line() + ": " + k.untracked());
				} else if (site != null) {
					String why = emit(insn, site, widths, out);
					if (why != null) {
						c.untracked.add("line " + insn.line() + ": " + insn.opcode() + ": " + why);
					} else {
						int rw = site.kind() & (AccessSite.READ | AccessSite.WRITE);
						if (rw == AccessSite.READ) {
							c.reads++;
						} else if (rw == AccessSite.WRITE) {
							c.writes++;
						} else {
							c.readWrites++;
						}
						if ((site.kind() & AccessSite.GENERIC) != 0) {
							c.generic++;
						}
					}
				}
			}
			out.add(s);
		}
		return out;
	}

	/** Appends the record sequence for {@code site}; returns why it cannot, or null. */
	private @Nullable String emit(Instruction insn, AccessSite site, RegisterWidths widths, List<PtxStatement> out) {
		int line = insn.line();
		List<PtxStatement> seq = new ArrayList<>();
		seq.add(new PtxStatement.Directive("{", line));
		seq.add(new PtxStatement.Directive(".param .b64 " + PARAM_ADDR + ";", line));
		seq.add(new PtxStatement.Directive(".param .b32 " + PARAM_INFO + ";", line));
		PtxOperand.Address a = site.address();
		PtxOperand addr;
		int kind = site.kind();
		switch (a.base()) {
			case PtxOperand.Register r -> {
				int w = widths.width(r.name());
				if (w == 8 && a.offset() == 0) {
					addr = r;
				} else if (w == 8) {
					seq.add(insn("add.s64", reg(ADDR_REG), r, imm(a.offset()), line));
					addr = reg(ADDR_REG);
				} else {
					seq.add(insn("cvt.u64.u32", reg(ADDR_REG), r, null, line));
					if (a.offset() != 0) {
						seq.add(insn("add.s64", reg(ADDR_REG), reg(ADDR_REG), imm(a.offset()), line));
					}
					addr = reg(ADDR_REG);
				}
			}
			case PtxOperand.Symbol s -> {
				if (!globalVariables.contains(s.name())) {
					return "address of '" + s.name() + "' is not a module .global variable";
				}
				kind &= ~AccessSite.GENERIC;
				seq.add(insn("mov.u64", reg(ADDR_REG), s, null, line));
				if (a.offset() != 0) {
					seq.add(insn("add.s64", reg(ADDR_REG), reg(ADDR_REG), imm(a.offset()), line));
				}
				addr = reg(ADDR_REG);
			}
			case PtxOperand.Immediate i -> {
				Long v = i.integerValue();
				if (v == null) {
					return "address is not an integer";
				}
				seq.add(insn("mov.u64", reg(ADDR_REG), imm(v + a.offset()), null, line));
				addr = reg(ADDR_REG);
			}
			default -> {
				return "unsupported address form " + a.toPtx();
			}
		}
		PtxOperand info;
		if (site.sizeOperand() == null) {
			if (site.size() <= 0 || site.size() >= 1 << 28) {
				return "access size " + site.size() + " out of range";
			}
			info = imm((long) site.size() << 3 | kind);
		} else if (site.sizeOperand() instanceof PtxOperand.Register r && widths.width(r.name()) >= 4) {
			if (widths.width(r.name()) == 8) {
				seq.add(insn("cvt.u32.u64", reg(SIZE_REG), r, null, line));
				seq.add(insn("shl.b32", reg(SIZE_REG), reg(SIZE_REG), imm(3), line));
			} else {
				seq.add(insn("shl.b32", reg(SIZE_REG), r, imm(3), line));
			}
			seq.add(insn("or.b32", reg(SIZE_REG), reg(SIZE_REG), imm(kind), line));
			info = reg(SIZE_REG);
		} else {
			return "size operand " + site.sizeOperand().toPtx() + " is neither a constant nor a 32/64-bit register";
		}
		seq.add(insn("st.param.b64", new PtxOperand.Address(new PtxOperand.Symbol(PARAM_ADDR), 0, List.of()), addr,
				null, line));
		seq.add(insn("st.param.b32", new PtxOperand.Address(new PtxOperand.Symbol(PARAM_INFO), 0, List.of()), info,
				null, line));
		seq.add(new Instruction(insn.guard(), insn.guardNegated(), "call",
				List.of(new PtxOperand.Symbol(AccessTableLayout.RECORD_FUNCTION), new PtxOperand.Group(
						List.of(new PtxOperand.Symbol(PARAM_ADDR), new PtxOperand.Symbol(PARAM_INFO)), true)),
				line));
		seq.add(new PtxStatement.Directive("}", line));
		out.addAll(seq);
		return null;
	}

	private static Instruction insn(String opcode, PtxOperand a, PtxOperand b, @Nullable PtxOperand c, int line) {
		return new Instruction(null, false, opcode, c == null ? List.of(a, b) : List.of(a, b, c), line);
	}

	private static PtxOperand.Register reg(String name) {
		return new PtxOperand.Register(name);
	}

	private static PtxOperand.Immediate imm(long v) {
		return new PtxOperand.Immediate(Long.toString(v));
	}
}
