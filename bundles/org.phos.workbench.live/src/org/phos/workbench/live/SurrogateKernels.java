package org.phos.workbench.live;

/**
 * The kernels a live replay runs in place of a recorded launch whose code cannot run on this device (a library's
 * cubin not kept in the trace, PTX only for a newer GPU, a synthetic trace's made-up functions): a <b>surrogate</b>
 * spins for the recorded GPU duration ({@code phos_surrogate_spin}, on {@code %globaltimer}) and writes exactly the
 * launch's write ranges ({@code phos_surrogate_write}), so the replay keeps the recorded time and memory footprint.
 * The bytes written are {@link #pattern(long, long)} of the launch's event index and the byte's offset in its buffer,
 * never of a device address: two replays of one trace write the same bytes wherever their allocations land.
 * <p>
 * Source: {@code native-hooks/live/surrogate.cu}, compiled with {@code nvcc -ptx -arch=compute_90} (CUDA 13.0; PTX
 * ISA 9.0, which the 580 driver's JIT accepts).
 */
public final class SurrogateKernels {
	private SurrogateKernels() {
	}

	/** Function writing the pattern: (u8* dst, u64 bytes, u64 seed, u64 first index). */
	public static final String WRITE = "phos_surrogate_write";
	/** Function spinning for a number of nanoseconds: (u64 ns). */
	public static final String SPIN = "phos_surrogate_spin";

	/** The module, PTX 9.0 for sm_90. */
	public static final String PTX = """
.version 9.0
.target sm_90
.address_size 64

	// .globl	phos_surrogate_write

.visible .entry phos_surrogate_write(
	.param .u64 phos_surrogate_write_param_0,
	.param .u64 phos_surrogate_write_param_1,
	.param .u64 phos_surrogate_write_param_2,
	.param .u64 phos_surrogate_write_param_3
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<5>;
	.reg .b64 	%rd<24>;


	ld.param.u64 	%rd7, [phos_surrogate_write_param_0];
	ld.param.u64 	%rd8, [phos_surrogate_write_param_1];
	ld.param.u64 	%rd9, [phos_surrogate_write_param_2];
	ld.param.u64 	%rd10, [phos_surrogate_write_param_3];
	mov.u32 	%r1, %ntid.x;
	cvt.u64.u32 	%rd1, %r1;
	mov.u32 	%r2, %ctaid.x;
	mul.wide.u32 	%rd11, %r2, %r1;
	mov.u32 	%r3, %tid.x;
	cvt.u64.u32 	%rd12, %r3;
	add.s64 	%rd23, %rd11, %rd12;
	setp.ge.u64 	%p1, %rd23, %rd8;
	@%p1 bra 	$L__BB0_3;

	mov.u32 	%r4, %nctaid.x;
	cvt.u64.u32 	%rd13, %r4;
	mul.lo.s64 	%rd3, %rd13, %rd1;
	cvta.to.global.u64 	%rd4, %rd7;

$L__BB0_2:
	add.s64 	%rd14, %rd23, %rd10;
	mul.lo.s64 	%rd15, %rd14, -7046029254386353131;
	xor.b64  	%rd16, %rd15, %rd9;
	shr.u64 	%rd17, %rd16, 29;
	xor.b64  	%rd18, %rd17, %rd16;
	mul.lo.s64 	%rd19, %rd18, -4658895280553007687;
	shr.u64 	%rd20, %rd19, 32;
	xor.b64  	%rd21, %rd20, %rd19;
	add.s64 	%rd22, %rd4, %rd23;
	st.global.u8 	[%rd22], %rd21;
	add.s64 	%rd23, %rd23, %rd3;
	setp.lt.u64 	%p2, %rd23, %rd8;
	@%p2 bra 	$L__BB0_2;

$L__BB0_3:
	ret;

}
	// .globl	phos_surrogate_spin
.visible .entry phos_surrogate_spin(
	.param .u64 phos_surrogate_spin_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b64 	%rd<6>;


	ld.param.u64 	%rd2, [phos_surrogate_spin_param_0];
	// begin inline asm
	mov.u64 %rd3, %globaltimer;
	// end inline asm

$L__BB1_1:
	// begin inline asm
	mov.u64 %rd4, %globaltimer;
	// end inline asm
	sub.s64 	%rd5, %rd4, %rd3;
	setp.lt.u64 	%p1, %rd5, %rd2;
	@%p1 bra 	$L__BB1_1;

	ret;

}
			""";

	/**
	 * The byte a surrogate writes (the same function as the kernel's {@code phos_pattern}).
	 *
	 * @param seed the launch's seed (its trace event index)
	 * @param index the byte's offset in its buffer
	 */
	public static byte pattern(long seed, long index) {
		long h = seed ^ (index * 0x9E3779B97F4A7C15L);
		h ^= h >>> 29;
		h *= 0xBF58476D1CE4E5B9L;
		h ^= h >>> 32;
		return (byte) h;
	}
}
