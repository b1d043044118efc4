package org.phos.workbench.analysis.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Shortening of long C++ kernel names for table columns. */
class KernelNamesTest {

	@Test
	void shortNamesStay() {
		assertEquals("saxpy(int, float, float const*, float*)",
				KernelNames.shorten("saxpy(int, float, float const*, float*)", 64));
		assertEquals("void axpy_t<double, 2>(double const*)", KernelNames.shorten("void axpy_t<double, 2>(double const*)", 64));
	}

	@Test
	void templatesCollapseFromTheDeepestLevel() {
		String name = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
				+ "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)";
		assertEquals("at::native::vectorized_elementwise_kernel<...>(...)", KernelNames.shorten(name, 64));
		// the parameter list keeps its types while the width allows
		assertEquals("at::native::vectorized_elementwise_kernel<...>(int, at::native::FillFunctor<...>, "
				+ "at::detail::Array<...>)", KernelNames.shorten(name, 160));
		assertEquals("at::native::{anonymous}::max_pool<...>(...)", KernelNames.shorten(
				"void at::native::(anonymous namespace)::max_pool<float, float>(int, float const*, "
						+ "long, long, long, long, long, long, float*)", 48));
	}

	@Test
	void clipsWhenNothingIsLeftToCollapse() {
		assertEquals("aaaaaaa...", KernelNames.shorten("a".repeat(40), 10));
	}
}
