package org.phos.workbench.speculation.core.instrument;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.speculation.core.ptx.PtxParseException;

/** The PTX rewriter on hand-written PTX covering every instruction form, checked by the emitted text and ptxas. */
class PtxInstrumenterTest {

	/** Every form: struct param, .ptr attribute, vectors, b128, ldu, generic (predicated), atomics, red, cp.async. */
	static final String FORMS = """
.version 8.7
.target sm_90
.address_size 64

.global .align 8 .u64 gcounter[4];

.visible .entry forms(
	.param .u64 forms_param_0,
	.param .u64 forms_param_1,
	.param .align 8 .b8 forms_param_2[16],
	.param .u64 .ptr .global .align 16 forms_param_3,
	.param .u64 forms_param_4
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<8>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<20>;
	.reg .b128 	%q<2>;
	.shared .align 16 .b8 smem[256];
	.shared .align 8 .b64 mbar;

	ld.param.u64 	%rd1, [forms_param_0];
	ld.param.u64 	%rd2, [forms_param_1];
	ld.param.u64 	%rd3, [forms_param_2];
	ld.param.u32 	%r1, [forms_param_2+8];
	ld.param.u64 	%rd4, [forms_param_3];
	ld.param.u64 	%rd14, [forms_param_4];
	mov.u32 	%r2, %tid.x;
	setp.lt.u32 	%p1, %r2, %r1;
	cvta.to.global.u64 	%rd5, %rd1;
	mul.wide.u32 	%rd6, %r2, 16;
	add.s64 	%rd7, %rd5, %rd6;
	ld.global.nc.v4.f32 	{%f1, %f2, %f3, %f4}, [%rd7+16];
	ldu.global.f32 	%f5, [%rd7];
	ld.global.b128 	%q1, [%rd7+32];
	ld.u32 	%r3, [%rd2];
	@!%p1 st.u32 	[%rd2+4], %r3;
	@%p1 st.global.v2.u64 	[%rd4], {%rd6, %rd6};
	atom.global.add.u32 	%r4, [%rd3], 1;
	atom.cas.b32 	%r5, [%rd3+4], %r4, 7;
	red.global.add.f32 	[%rd4+8], %f5;
	red.add.u32 	[%rd2+8], %r4;
	atom.global.add.u64 	%rd8, [gcounter+8], 1;
	mov.u32 	%r6, smem;
	cp.async.ca.shared.global 	[%r6], [%rd7], 4;
	cp.async.cg.shared.global 	[%r6+16], [%rd7+64], 16;
	cp.async.commit_group;
	cp.async.wait_all;
	mov.u32 	%r7, mbar;
	mov.u32 	%r8, 128;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes 	[%r6+128], [%rd5], %r8, [%r7];
	cp.async.bulk.global.shared::cta.bulk_group 	[%rd4+256], [%r6], 64;
	cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 	[%rd3+512], [%r6], %r8;
	cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes 	[%r6], [%rd14, {%r2}], [%r7];
	ld.shared.u32 	%r9, [%r6];
	st.local.u32 	[%rd14], %r9;
	prefetch.global.L2 	[%rd7];
	@%p1 bra 	$L_end;
	st.global.f32 	[%rd5], %f1;
$L_end:
	ret;
}
""";

	@TempDir
	Path tmp;

	private static InstrumentedModule forms() throws PtxParseException {
		return PtxInstrumenter.instrument("forms.ptx", FORMS, new AccessTableLayout(64));
	}

	/** The record sequence emitted before the first instruction line starting with {@code insn}. */
	private static String sequenceBefore(String ptx, String insn) {
		String[] lines = ptx.split("\n");
		for (int i = 0; i < lines.length; i++) {
			if (lines[i].trim().startsWith(insn)) {
				int open = i - 1;
				assertEquals("}", lines[open].trim(), "no record sequence before " + insn);
				while (!lines[open].trim().equals("{")) {
					open--;
				}
				List<String> seq = new ArrayList<>();
				for (int k = open + 1; k < i - 1; k++) {
					seq.add(lines[k].trim());
				}
				return String.join("\n", seq);
			}
		}
		throw new AssertionError(insn + " not in the instrumented PTX");
	}

	@Test
	void countsEveryForm() throws Exception {
		InstrumentedFunction f = forms().functions().get(0);
		assertEquals("forms", f.name());
		// ld.global.nc.v4, ldu, ld.b128, generic ld, cp.async x2, cp.async.bulk from global
		assertEquals(7, f.reads());
		// generic st (predicated), st.global.v2.u64, bulk copy to global, st.global.f32
		assertEquals(4, f.writes());
		// atom.global, generic atom.cas, red.global, generic red, atom on a .global variable, cp.reduce.async.bulk
		assertEquals(6, f.readWrites());
		assertEquals(4, f.generic());
		assertEquals(1, f.untracked().size());
		assertTrue(f.untracked().get(0).contains("cp.async.bulk.tensor"), f.untracked().get(0));
	}

	@Test
	void emitsAddressSizeKindAndGuard() throws Exception {
		String ptx = forms().ptx();
		// vector load at [reg+16]: 16 bytes, read (16 << 3 | 1)
		assertEquals("""
				.param .b64 __phos_pa;
				.param .b32 __phos_pi;
				add.s64 %phos_a, %rd7, 16;
				st.param.b64 [__phos_pa], %phos_a;
				st.param.b32 [__phos_pi], 129;
				call __phos_record, (__phos_pa, __phos_pi);""".strip(), sequenceBefore(ptx, "ld.global.nc.v4.f32"));
		// ldu at [reg]: the register itself, 4 bytes read
		assertTrue(sequenceBefore(ptx, "ldu.global.f32").contains("st.param.b64 [__phos_pa], %rd7;"));
		assertTrue(sequenceBefore(ptx, "ldu.global.f32").contains("st.param.b32 [__phos_pi], 33;"));
		// b128: 16 bytes
		assertTrue(sequenceBefore(ptx, "ld.global.b128").contains("[__phos_pi], 129;"));
		// generic load: 4 bytes, read | generic = 37
		assertTrue(sequenceBefore(ptx, "ld.u32").contains("[__phos_pi], 37;"));
		// predicated generic store keeps @!%p1 on the call: write | generic = 38
		String st = sequenceBefore(ptx, "@!%p1 st.u32");
		assertTrue(st.contains("[__phos_pi], 38;") && st.contains("@!%p1 call __phos_record"), st);
		// predicated vector store of two u64: 16 bytes write = 130, guarded by @%p1
		String v2 = sequenceBefore(ptx, "@%p1 st.global.v2.u64");
		assertTrue(v2.contains("[__phos_pi], 130;") && v2.contains("@%p1 call __phos_record"), v2);
		// atomics and reductions: read | write = 3
		assertTrue(sequenceBefore(ptx, "atom.global.add.u32").contains("[__phos_pi], 35;"));
		assertTrue(sequenceBefore(ptx, "atom.cas.b32").contains("[__phos_pi], 39;"));
		assertTrue(sequenceBefore(ptx, "red.global.add.f32").contains("[__phos_pi], 35;"));
		assertTrue(sequenceBefore(ptx, "red.add.u32").contains("[__phos_pi], 39;"));
		// [var+imm] on a module .global variable: its address, 8 bytes, not generic
		String g = sequenceBefore(ptx, "atom.global.add.u64");
		assertTrue(g.contains("mov.u64 %phos_a, gcounter;") && g.contains("add.s64 %phos_a, %phos_a, 8;")
				&& g.contains("[__phos_pi], 67;"), g);
		// cp.async: the global source, cp-size bytes
		assertTrue(sequenceBefore(ptx, "cp.async.ca.shared.global").contains("[__phos_pi], 33;"));
		String cg = sequenceBefore(ptx, "cp.async.cg.shared.global");
		assertTrue(cg.contains("add.s64 %phos_a, %rd7, 64;") && cg.contains("[__phos_pi], 129;"), cg);
		// bulk copy from global with the size in a register: size << 3 | read
		String bulk = sequenceBefore(ptx, "cp.async.bulk.shared::cluster.global");
		assertTrue(bulk.contains("shl.b32 %phos_s, %r8, 3;") && bulk.contains("or.b32 %phos_s, %phos_s, 1;")
				&& bulk.contains("st.param.b64 [__phos_pa], %rd5;"), bulk);
		// bulk copy to global: destination, 64 bytes written
		String out = sequenceBefore(ptx, "cp.async.bulk.global.shared::cta");
		assertTrue(out.contains("add.s64 %phos_a, %rd4, 256;") && out.contains("[__phos_pi], 514;"), out);
		// bulk reduction into global: read | write
		String red = sequenceBefore(ptx, "cp.reduce.async.bulk.global");
		assertTrue(red.contains("or.b32 %phos_s, %phos_s, 3;") && red.contains("add.s64 %phos_a, %rd3, 512;"),
				red);
		// shared, local, param accesses and prefetches are left alone; the table and routine are added
		assertFalse(ptx.lines().anyMatch(l -> l.contains("__phos_pi], ") && l.contains("ld.shared")));
		assertTrue(ptx.contains(".visible .global .align 8 .u64 __phos_access_table[" + new AccessTableLayout(64).words() + "];"));
		assertTrue(ptx.contains(".func __phos_record("));
		// the parameter list is unchanged
		assertTrue(ptx.contains(".param .align 8 .b8 forms_param_2[16]"));
	}

	@Test
	void ptxasAcceptsEveryInstrumentedModule() throws Exception {
		Path ptxas = findPtxas();
		assumeTrue(ptxas != null, "ptxas not found (PATH, /usr/local/cuda*/bin): skipping the assembler check");
		assemble(ptxas, "forms", forms().ptx());
		Path repo = Path.of(System.getProperty("phos.repo", "."));
		for (String sample : List.of("sample-traces/programs/ptx/ptx_kernels.ptx",
				"sample-traces/programs/jcuda/jacobi.ptx")) {
			Path p = repo.resolve(sample);
			assumeTrue(Files.exists(p), p + " missing (set -Dphos.repo to the repository root)");
			InstrumentedModule m = PtxInstrumenter.instrument(sample, Files.readString(p), AccessTableLayout.DEFAULT);
			assertTrue(m.sites() > 0, sample);
			for (InstrumentedFunction f : m.functions()) {
				assertTrue(f.untracked().isEmpty(), f.toString());
			}
			assemble(ptxas, p.getFileName().toString(), m.ptx());
		}
	}

	@Test
	void refusesBadModules() throws Exception {
		String ptx32 = FORMS.replace(".address_size 64", ".address_size 32");
		PtxParseException e = assertThrows(PtxParseException.class,
				() -> PtxInstrumenter.instrument("m32", ptx32, AccessTableLayout.DEFAULT));
		assertTrue(e.getMessage().contains("64-bit"), e.getMessage());
		String twice = forms().ptx();
		e = assertThrows(PtxParseException.class,
				() -> PtxInstrumenter.instrument("again", twice, AccessTableLayout.DEFAULT));
		assertTrue(e.getMessage().contains("already instrumented"), e.getMessage());
	}

	private void assemble(Path ptxas, String name, String ptx) throws IOException, InterruptedException {
		Path in = tmp.resolve(name + ".instrumented.ptx");
		Files.writeString(in, ptx);
		Process p = new ProcessBuilder(ptxas.toString(), "-arch=sm_90", in.toString(), "-o",
				tmp.resolve(name + ".cubin").toString()).redirectErrorStream(true).start();
		String log = new String(p.getInputStream().readAllBytes());
		assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ptxas timed out on " + name);
		assertEquals(0, p.exitValue(), "ptxas rejected instrumented " + name + ":\n" + log);
	}

	static Path findPtxas() {
		List<Path> candidates = new ArrayList<>();
		for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
			if (!dir.isEmpty()) {
				candidates.add(Path.of(dir, "ptxas"));
			}
		}
		candidates.add(Path.of("/usr/local/cuda/bin/ptxas"));
		candidates.add(Path.of("/usr/local/cuda-13.0/bin/ptxas"));
		for (Path c : candidates) {
			if (Files.isExecutable(c)) {
				return c;
			}
		}
		return null;
	}
}
