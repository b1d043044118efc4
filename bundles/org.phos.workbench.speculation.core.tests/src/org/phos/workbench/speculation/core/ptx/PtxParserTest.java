package org.phos.workbench.speculation.core.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.speculation.core.ptx.PtxStatement.Instruction;
import org.phos.workbench.speculation.core.testdata.TestData;

class PtxParserTest {

	private static PtxModule forms() throws PtxParseException {
		return PtxParser.parse("forms.ptx", TestData.read("forms.ptx"));
	}

	private static Instruction find(PtxFunction f, String opcodePrefix) {
		return f.instructions().stream().filter(i -> i.opcode().startsWith(opcodePrefix)).findFirst().orElseThrow();
	}

	@Test
	void headerAndFunctions() throws PtxParseException {
		PtxModule m = forms();
		assertEquals("8.5", m.version());
		assertEquals("sm_90", m.target());
		assertEquals(64, m.addressSize());
		assertEquals(7, m.entries().size());
		assertTrue(m.globals().get(0).startsWith(".global .align 4 .b8 table[64];"));
	}

	@Test
	void structParameterLayoutFollowsAlignment() throws PtxParseException {
		PtxFunction f = forms().function("struct_param").orElseThrow();
		PtxParam s = f.params().get(0);
		assertTrue(s.isAggregate());
		assertEquals(8, s.align());
		assertEquals(24, s.size());
		assertEquals(0, s.offset());
		assertEquals(24, f.params().get(1).offset());
		assertEquals(28, f.paramBufferSize());
	}

	@Test
	void operandsPredicatesVectorsAndAddresses() throws PtxParseException {
		PtxModule m = forms();
		Instruction nc = find(m.function("vectors").orElseThrow(), "ld.global.nc");
		assertEquals(4, nc.vectorWidth());
		assertEquals(".f32", nc.elementType());
		PtxOperand.Group dst = (PtxOperand.Group) nc.operands().get(0);
		assertEquals(4, dst.elements().size());
		PtxOperand.Address a = (PtxOperand.Address) nc.operands().get(1);
		assertEquals(new PtxOperand.Register("%rd4"), a.base());
		assertEquals(16, a.offset());

		Instruction st = find(m.function("generic").orElseThrow(), "st.u32");
		assertEquals("%p1", st.guard());
		assertFalse(st.guardNegated());
		assertEquals("@%p1 st.u32 [%rd7], %r3;", st.toPtx());

		Instruction table = find(m.function("struct_param").orElseThrow(), "ld.global.u32");
		assertEquals(new PtxOperand.Symbol("table"), ((PtxOperand.Address) table.operands().get(1)).base());
		assertEquals(8, ((PtxOperand.Address) table.operands().get(1)).offset());

		Instruction tex = find(m.function("indirect_tex").orElseThrow(), "tex.2d");
		PtxOperand.Address texAddress = (PtxOperand.Address) tex.operands().get(1);
		assertEquals(1, texAddress.extra().size());

		Instruction bulk = find(m.function("async_forms").orElseThrow(), "cp.async.bulk.shared::cluster");
		assertTrue(bulk.has(".global"));
		assertEquals(4, bulk.operands().size());
	}

	@Test
	void reEmittedTextParsesToTheSameModel() throws PtxParseException {
		for (String name : List.of("forms.ptx", "flow_kernels.ptx", "demangle_kernels.ptx")) {
			PtxModule first = PtxParser.parse(name, TestData.read(name));
			PtxModule second = PtxParser.parse(name + " (re-emitted)", first.toPtx());
			assertEquals(first.functions().size(), second.functions().size());
			for (int i = 0; i < first.functions().size(); i++) {
				PtxFunction a = first.functions().get(i);
				PtxFunction b = second.functions().get(i);
				assertEquals(a.params(), b.params(), a.name());
				List<String> ia = a.instructions().stream().map(Instruction::toPtx).toList();
				List<String> ib = b.instructions().stream().map(Instruction::toPtx).toList();
				assertEquals(ia, ib, a.name());
			}
			assertEquals(first.toPtx(), second.toPtx());
		}
	}

	@Test
	void badInputNamesTheLine() {
		PtxParseException e = assertThrows(PtxParseException.class, () -> PtxParser.parse("bad.ptx",
				".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k(\n.param .u64 p\n)\n{\nld.param.u64 %rd1, [p;\n}\n"));
		assertEquals(8, e.line());
		assertTrue(e.getMessage().startsWith("bad.ptx:8: "), e.getMessage());
		assertThrows(PtxParseException.class, () -> PtxParser.parse("empty.ptx", "hello"));
		PtxParseException unterminated = assertThrows(PtxParseException.class,
				() -> PtxParser.parse("cut.ptx", ".version 8.5\n.target sm_90\n.entry k()\n{\nret;\n"));
		assertTrue(unterminated.getMessage().contains("closing k"), unterminated.getMessage());
	}
}
