package org.phos.workbench.speculation.core.demangle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.speculation.core.demangle.DemangledName.Status;
import org.phos.workbench.speculation.core.testdata.TestData;

class ItaniumDemanglerTest {

	/** c++filt separates closing template brackets with a space in some places; this demangler never does. */
	private static String normalise(String s) {
		return s.replaceAll("> (?=>)", ">").trim();
	}

	private static List<String[]> pairs(String resource) {
		List<String[]> result = new ArrayList<>();
		for (String line : TestData.read(resource).split("\n")) {
			if (!line.isBlank()) {
				result.add(line.split("\t", 2));
			}
		}
		return result;
	}

	@Test
	void everyRealKernelNameMatchesCxxFilt() {
		List<String[]> pairs = pairs("kernel-names.tsv");
		assertTrue(pairs.size() >= 50, "resource holds " + pairs.size() + " pairs");
		for (String[] p : pairs) {
			DemangledName d = ItaniumDemangler.demangle(p[0]);
			assertEquals(Status.DEMANGLED, d.status(), p[0] + ": " + d.problem());
			assertEquals(normalise(p[1]), normalise(d.text()), p[0]);
			assertTrue(d.kernelSignature().isPresent(), p[0]);
		}
	}

	@Test
	void hostNamesFromThrustAndCubMostlyMatchAndNeverThrow() {
		List<String[]> pairs = pairs("host-names.tsv");
		int exact = 0;
		int unknown = 0;
		for (String[] p : pairs) {
			DemangledName d = ItaniumDemangler.demangle(p[0]);
			if (d.status() == Status.UNKNOWN) {
				unknown++;
				assertEquals(p[0], d.text());
				assertFalse(d.problem().isEmpty());
			} else if (normalise(p[1]).equals(normalise(d.text()))) {
				exact++;
			}
		}
		assertTrue(exact >= pairs.size() * 95 / 100,
				exact + " of " + pairs.size() + " exact, " + unknown + " unknown");
	}

	@Test
	void templatedKernelSignatureFlagsConstPointers() {
		KernelSignature s = ItaniumDemangler.demangle("_ZN4phos4demo12scale_kernelIfLi256EEEvPKT_PS2_iS2_")
				.kernelSignature().orElseThrow();
		assertEquals("phos::demo::scale_kernel<float, 256>", s.qualifiedName());
		assertEquals(4, s.size());
		assertTrue(s.parameter(0).isDataPointer());
		assertTrue(s.parameter(0).pointeeConst());
		assertFalse(s.parameter(0).isWritablePointer());
		assertTrue(s.parameter(1).isWritablePointer());
		assertFalse(s.parameter(2).pointer());
		assertFalse(s.parameter(2).classType());
		assertEquals("float", s.parameter(3).text());
	}

	@Test
	void structsByValueAreClassTypes() {
		KernelSignature s = ItaniumDemangler.demangle("_Z13struct_kernel4Pair6Params").kernelSignature()
				.orElseThrow();
		assertEquals(2, s.size());
		assertTrue(s.parameter(0).classType());
		assertFalse(s.parameter(0).pointer());
		KernelSignature deep = ItaniumDemangler
				.demangle("_ZN5outer11deep_kernelENS_5Inner4DeepENS_6HolderIS1_EENS2_INS2_IfEEEEPKS1_")
				.kernelSignature().orElseThrow();
		assertTrue(deep.parameter(0).classType());
		assertTrue(deep.parameter(1).classType());
		assertEquals("outer::Holder<outer::Holder<float>>", deep.parameter(2).text());
		assertTrue(deep.parameter(3).pointeeConst());
	}

	@Test
	void pointerDepthReferencesAndFunctionPointers() {
		KernelSignature pp = ItaniumDemangler.demangle("_Z7ptr_ptrPPfPKPKfi").kernelSignature().orElseThrow();
		assertEquals(2, pp.parameter(0).pointerDepth());
		assertFalse(pp.parameter(0).pointeeConst());
		assertTrue(pp.parameter(1).pointeeConst());
		KernelSignature refs = ItaniumDemangler.demangle("_Z13refs_and_moreRK4PairPVihxlPh").kernelSignature()
				.orElseThrow();
		assertTrue(refs.parameter(0).reference());
		assertTrue(refs.parameter(0).pointeeConst());
		assertEquals("int volatile*", refs.parameter(1).text());
		assertFalse(refs.parameter(1).pointeeConst());
		KernelSignature f = ItaniumDemangler.demangle("_Z11fptr_kernelPFviEPvPKv").kernelSignature().orElseThrow();
		assertTrue(f.parameter(0).functionPointer());
		assertFalse(f.parameter(0).isDataPointer());
		assertTrue(f.parameter(1).isWritablePointer());
		assertTrue(f.parameter(2).pointeeConst());
	}

	@Test
	void parameterPacksExpandIntoParameters() {
		KernelSignature s = ItaniumDemangler.demangle("_Z15variadic_kernelIN3ops3AddIfEEJiPKfdEEvT_PfDpT0_")
				.kernelSignature().orElseThrow();
		assertEquals(5, s.size());
		assertTrue(s.parameter(0).classType());
		assertEquals("int", s.parameter(2).text());
		assertTrue(s.parameter(3).pointeeConst());
		KernelSignature empty = ItaniumDemangler.demangle("_Z15variadic_kernelIN3ops3AddIiEEJEEvT_PfDpT0_")
				.kernelSignature().orElseThrow();
		assertEquals(2, empty.size());
	}

	@Test
	void lambdasAnonymousNamespacesAndLiterals() {
		DemangledName lambda = ItaniumDemangler.demangle("_Z12apply_kernelIZ13launch_lambdaPfEUliE_EvT_S0_");
		assertEquals("void apply_kernel<launch_lambda(float*)::{lambda(int)#1}>(launch_lambda(float*)::{lambda(int)#1}, float*)",
				lambda.text());
		assertTrue(lambda.kernelSignature().orElseThrow().parameter(0).classType());
		assertEquals("(anonymous namespace)::anon_kernel(float*, int const*)", ItaniumDemangler
				.demangle("_ZN43_GLOBAL__N__2db48e43_10_kernels_cu_090bb2d811anon_kernelEPfPKi").text());
		assertEquals("void ints_kernel<0, -1, 4000000000u, -5l, 18446744073709551615ull>(int*)", ItaniumDemangler
				.demangle("_Z11ints_kernelILi0ELin1ELj4000000000ELln5ELy18446744073709551615EEvPi").text());
		assertEquals("void phos::demo::flag_kernel<true, int>(int*, unsigned long long)",
				ItaniumDemangler.demangle("_ZN4phos4demo11flag_kernelILb1EiEEvPT0_y").text());
	}

	@Test
	void externCNamesAreNotMangled() {
		DemangledName d = ItaniumDemangler.demangle("saxpy");
		assertEquals(Status.NOT_MANGLED, d.status());
		assertNull(d.signature());
		assertEquals("saxpy", d.text());
	}

	@Test
	void malformedNamesAreUnknownNeverExceptions() {
		for (String bad : new String[] { "_Z", "_Z3fo", "_ZN3foo", "_Z3fooX", "_Z1aS5_", "_ZN3fooIiE",
				"_Z3fooILi", "_Z" + "P".repeat(20000) + "i", "_Z3fooPFvv", "_Z99999999999foo", "_Z3fooJ", "_Z4main\u0000" }) {
			DemangledName d = ItaniumDemangler.demangle(bad);
			assertEquals(Status.UNKNOWN, d.status(), bad + " -> " + d.text());
			assertTrue(d.problem().startsWith("cannot demangle at offset"), d.problem());
			assertNull(d.signature());
		}
	}

	@Test
	void cloneSuffixIsKept() {
		assertEquals("foo(int) [clone .constprop.0]", ItaniumDemangler.demangle("_Z3fooi.constprop.0").text());
	}
}
