package org.phos.workbench.internal.speculation.core.engines;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.demangle.ItaniumDemangler;
import org.phos.workbench.speculation.core.demangle.KernelSignature;
import org.phos.workbench.speculation.core.demangle.ParameterType;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ParamInfo;

/**
 * A library table for cuBLAS's split-K GEMMs: what the parameters of its kernels say about the bytes of the
 * workspace (and of the output) a launch touches, the way PhoenixOS describes libraries by hand, per API.
 * <p>
 * cuBLAS (13.1, as the samples recorded it under PyTorch 2.11 and CuPy 14 on CUDA 13.0; other versions untested)
 * computes a GEMM {@code C[m,n] = A[m,k] B[k,n]} with a large {@code k} in two kernels: a CUTLASS 2 kernel
 * ({@code cutlass::Kernel2<cutlass_80_simt_sgemm_...>} and its tensor-core siblings) in GemmUniversal's
 * <em>parallel split-K</em> mode writes {@code splits} partial products of {@code m x n} fp32 values, {@code stride}
 * elements apart, into cuBLAS's workspace; then
 * {@code cublasLt::splitKreduce_kernel} reads them back and writes {@code C}. Both get the workspace's start (their
 * own allocation: cuBLAS's 32-64 MiB workspace), so a speculation that goes by allocations gives the whole workspace
 * where a launch touches {@code 4 * m * n * splits} bytes of it.
 * <p>
 * The layouts below were read from the parameter bytes of every such launch of the sample traces ({@code cupy-ops},
 * {@code triton-ops}, {@code pytorch-train}, {@code gpt-train}, {@code cublas-shapes}) and checked against their
 * observed accesses; {@code cublas-shapes-holdout} was recorded afterwards to test them (docs/accuracy.md,
 * i15-cublas):
 * <ul>
 * <li>{@link Family#CUTLASS_SPLIT_K}: one 360-byte {@code Params}: {@code m, n, k} (u32 at 0, 4, 8), the grid of
 * tiles {@code (tm, tn, splits)} (u32 at 12, 16, 20), the GemmUniversal mode (u32 at 28, 1 = parallel split-K),
 * {@code gemm_k_size} (u32 at 36), the partials' batch stride in elements (u64 at 40), pointers {@code A, B, C, D}
 * at 280, 288, 296, 304; in parallel split-K mode {@code D} is the workspace: {@code [D, D + 4 * splits * stride)}.
 * Only kernels accumulating in fp32 (CUTLASS's {@code simt_sgemm} and {@code tensorop_s...gemm} names).</li>
 * <li>{@link Family#SPLIT_K_REDUCE}: {@code cublasSplitKParams} by value (alpha, beta, then u32 {@code m, n} at 8,
 * 12, four leading dimensions at 16..28, a 1 at 32, the partials' stride at 36, {@code splits} at 40, a 1 at 56),
 * then the workspace pointer (parameter 1) and the output pointers (parameters 2-4, {@code C}, {@code D} and an
 * output of the compute type): the workspace gets {@code [W, W + splits * max(stride, ld * n) * size)} and each output
 * {@code [P, P + (ld * (n - 1) + m) * size)}, {@code ld} the largest of the four, {@code size} that of the parameter's
 * declared pointee ({@code float}, {@code __half}, {@code __nv_bfloat16}, ...).</li>
 * </ul>
 * A launch whose values are implausible (a mode other than parallel split-K, a grid that does not match the splits,
 * a stride shorter than {@code m * n}, a leading dimension shorter than {@code m}, an unknown element type, ...) gets
 * no bounds: the engine then passes the base engine's accesses unchanged, as for every kernel the table does not
 * know. Another cuBLAS version may lay its parameters out differently; these checks, and the engine's (workspace at
 * an allocation's start, extents inside the allocation), are what keeps a changed layout from narrowing anything,
 * and where they do not, {@code validate} shows the missed writes.
 */
public final class CublasKernels {

	/** The kernel families the table knows. */
	public enum Family {
		/** {@code cutlass::Kernel2<cutlass_NN_..._s...gemm...>}: CUTLASS 2 GEMMs in cuBLAS, fp32 accumulation. */
		CUTLASS_SPLIT_K,
		/** {@code cublasLt::splitKreduce_kernel<...>}: the reduction of split-K partials. */
		SPLIT_K_REDUCE,
		/** Another kernel of cuBLAS/cuBLASLt (by its name): not in the table, its accesses pass unchanged. */
		OTHER_CUBLAS,
		/** Not a cuBLAS kernel. */
		NOT_CUBLAS
	}

	/** Size of CUTLASS 2's GemmUniversal {@code Params} as cuBLAS 13 passes it. */
	static final int CUTLASS_PARAMS_SIZE = 360;
	/** Offsets in it. */
	static final int M = 0, N = 4, K = 8, SPLITS = 20, MODE = 28, GEMM_K_SIZE = 36, BATCH_STRIDE = 40, PTR_A = 280,
			PTR_B = 288, PTR_C = 296, PTR_D = 304;
	/** Size of {@code cublasSplitKParams<float>}. */
	static final int SPLIT_K_PARAMS_SIZE = 60;
	/** GemmUniversalMode::kGemmSplitKParallel. */
	static final int MODE_SPLIT_K_PARALLEL = 1;
	/** Bytes of the partials: fp32 accumulators. */
	static final int PARTIAL_SIZE = 4;
	/** More splits than this is not a GEMM cuBLAS launched (its heuristics stop far below). */
	static final int MAX_SPLITS = 4096;

	/** {@code cutlass::Kernel2<Name>(Name::Params)} with an fp32-accumulating CUTLASS 2.x kernel name. */
	private static final Pattern CUTLASS_KERNEL2 = Pattern.compile(
			"_ZN7cutlass7Kernel2I\\d+(cutlass_\\d+_(?:wmma_)?(?:simt_sgemm|tensorop_s\\d*(?:tf32)?gemm)\\w*)EEvNT_6ParamsE");
	private static final String SPLIT_K_REDUCE_PREFIX = "_ZN8cublasLt19splitKreduce_kernel";
	private static final Pattern CUBLAS_NAME = Pattern.compile(
			"cublas|cutlass|_xmma_gemm|nvjet|gemm|gemv|splitK", Pattern.CASE_INSENSITIVE);

	private CublasKernels() {
	}

	/**
	 * @param mangledName a kernel's mangled name
	 * @return its family
	 */
	public static Family family(String mangledName) {
		if (CUTLASS_KERNEL2.matcher(mangledName).matches()) {
			return Family.CUTLASS_SPLIT_K;
		}
		if (mangledName.startsWith(SPLIT_K_REDUCE_PREFIX)) {
			return Family.SPLIT_K_REDUCE;
		}
		return CUBLAS_NAME.matcher(mangledName).find() && !mangledName.contains("cudnn") ? Family.OTHER_CUBLAS
				: Family.NOT_CUBLAS;
	}

	/**
	 * What the table decodes for one launch: one bound per parameter word (the pointer at {@code offset} is used for
	 * {@code [pointer, pointer + extent)} only), or no bounds and the reason.
	 *
	 * @param bounds the bounds, empty when the launch falls back to the base engine
	 * @param fallback why there are none (null when there are)
	 */
	public record Decoded(List<Bound> bounds, @Nullable String fallback) {
		static Decoded fallBack(String why) {
			return new Decoded(List.of(), why);
		}
	}

	/**
	 * @param offset the pointer's byte offset in the parameter buffer
	 * @param extent the bytes from the pointer on that the launch can touch through it
	 * @param atAllocationStart the pointer must be an allocation's start (a workspace of its own), else the launch
	 *        falls back
	 */
	public record Bound(int offset, long extent, boolean atAllocationStart) {
	}

	/**
	 * The table's entry for one function, computed once: its family and, for the reduction, the byte size of the
	 * pointees of its parameters 1-4 and their offsets.
	 *
	 * @param family the family
	 * @param offsets the offsets of parameters 1-4 (the reduction only)
	 * @param sizes the element sizes of parameters 1-4, 0 when unknown (the reduction only)
	 * @param params the size of parameter 0 (the reduction only)
	 */
	public record Entry(Family family, int[] offsets, int[] sizes, int params) {
	}

	/**
	 * @param function a kernel
	 * @return its entry in the table
	 */
	public static Entry entry(FunctionInfo function) {
		Family family = family(function.mangledName());
		if (family != Family.SPLIT_K_REDUCE) {
			return new Entry(family, new int[0], new int[0], 0);
		}
		int[] offsets = { -1, -1, -1, -1 };
		int[] sizes = new int[4];
		List<ParamInfo> layout = function.params();
		Optional<KernelSignature> signature = ItaniumDemangler.demangle(function.mangledName()).kernelSignature();
		if (layout.size() < 5 || signature.isEmpty() || signature.get().size() < 5) {
			return new Entry(family, offsets, sizes, 0);
		}
		for (int i = 1; i <= 4; i++) {
			ParameterType type = signature.get().parameter(i);
			offsets[i - 1] = layout.get(i).offset();
			sizes[i - 1] = type.pointerDepth() == 1 && layout.get(i).size() == 8 ? elementSize(type.text()) : 0;
		}
		return new Entry(family, offsets, sizes, layout.get(0).size());
	}

	/**
	 * @param pointerType a pointer type as the demangler writes it ({@code __half const*})
	 * @return the byte size of its pointee, 0 when the table does not know it
	 */
	static int elementSize(String pointerType) {
		String t = pointerType.replace("const", "").replace("*", "").trim();
		return switch (t) {
			case "float", "int", "unsigned int" -> 4;
			case "double", "long" -> 8;
			case "__half", "__nv_bfloat16", "short" -> 2;
			case "signed char", "unsigned char", "char", "__nv_fp8_e4m3", "__nv_fp8_e5m2" -> 1;
			default -> 0;
		};
	}

	/**
	 * Decodes one launch's parameters.
	 *
	 * @param entry the launched function's entry
	 * @param params the launch's parameter bytes (a buffer at least {@code length} long)
	 * @param length how many of them are the launch's
	 * @param gridZ the launch's grid depth
	 * @return the bounds, or the reason for none
	 */
	public static Decoded decode(Entry entry, byte[] params, int length, int gridZ) {
		if (length > params.length) {
			throw new IllegalArgumentException("parameter length " + length + " past a buffer of " + params.length);
		}
		ByteBuffer b = ByteBuffer.wrap(params, 0, length).slice().order(ByteOrder.LITTLE_ENDIAN);
		return switch (entry.family()) {
			case CUTLASS_SPLIT_K -> decodeCutlass(b, gridZ);
			case SPLIT_K_REDUCE -> decodeReduce(entry, b);
			default -> Decoded.fallBack("not in the table");
		};
	}

	private static Decoded decodeCutlass(ByteBuffer b, int gridZ) {
		if (b.limit() != CUTLASS_PARAMS_SIZE) {
			return Decoded.fallBack("Params of " + b.limit() + " bytes, not " + CUTLASS_PARAMS_SIZE);
		}
		long m = u32(b, M), n = u32(b, N), k = u32(b, K), splits = u32(b, SPLITS), mode = u32(b, MODE);
		long kSize = u32(b, GEMM_K_SIZE), stride = b.getLong(BATCH_STRIDE);
		if (mode != MODE_SPLIT_K_PARALLEL) {
			return Decoded.fallBack("mode " + mode + ", not parallel split-K (D is the output, not the workspace)");
		}
		if (m == 0 || n == 0 || k == 0 || splits < 2 || splits > MAX_SPLITS || splits != gridZ) {
			return Decoded.fallBack("m, n, k, splits " + m + ", " + n + ", " + k + ", " + splits + " with grid depth "
					+ gridZ);
		}
		if (kSize == 0 || kSize * splits < k || (splits - 1) * kSize >= k) {
			return Decoded.fallBack("gemm_k_size " + kSize + " does not split k " + k + " in " + splits);
		}
		if (stride < m * n || stride > (1L << 40)) {
			return Decoded.fallBack("partials' stride " + stride + " shorter than m * n = " + m * n);
		}
		long d = b.getLong(PTR_D);
		if (d == 0 || d == b.getLong(PTR_C) || d == b.getLong(PTR_A) || d == b.getLong(PTR_B)) {
			return Decoded.fallBack("D is null or another operand");
		}
		return new Decoded(List.of(new Bound(PTR_D, splits * stride * PARTIAL_SIZE, true)), null);
	}

	private static Decoded decodeReduce(Entry entry, ByteBuffer b) {
		int[] offsets = entry.offsets();
		if (offsets[0] < 0) {
			return Decoded.fallBack("no parameter layout or signature");
		}
		if (entry.params() != SPLIT_K_PARAMS_SIZE) { // cublasSplitKParams<double> has 8-byte alpha and beta
			return Decoded.fallBack("cublasSplitKParams of " + entry.params() + " bytes, not " + SPLIT_K_PARAMS_SIZE);
		}
		for (int i = 0; i < 4; i++) {
			if (entry.sizes()[i] == 0) {
				return Decoded.fallBack("unknown element type of parameter " + (i + 1));
			}
			if (offsets[i] + 8 > b.limit()) {
				return Decoded.fallBack("parameter buffer of " + b.limit() + " bytes");
			}
		}
		long m = u32(b, 8), n = u32(b, 12), one = u32(b, 32), stride = u32(b, 36), splits = u32(b, 40),
				batches = u32(b, 56);
		long ld = 0;
		for (int o = 16; o <= 28; o += 4) {
			long l = u32(b, o);
			if (l < m) {
				return Decoded.fallBack("leading dimension " + l + " shorter than m " + m);
			}
			ld = Math.max(ld, l);
		}
		if (m == 0 || n == 0 || splits < 2 || splits > MAX_SPLITS || one != 1 || batches != 1) {
			return Decoded.fallBack("m, n, splits " + m + ", " + n + ", " + splits + "; words at 32 and 56 " + one
					+ ", " + batches + " (1 and 1 in every launch the table was read from)");
		}
		if (stride < m * n || ld > (1L << 31)) {
			return Decoded.fallBack("partials' stride " + stride + " shorter than m * n = " + m * n);
		}
		List<Bound> bounds = new ArrayList<>();
		long w = b.getLong(offsets[0]);
		if (w == 0) {
			return Decoded.fallBack("null workspace");
		}
		bounds.add(new Bound(offsets[0], splits * Math.max(stride, ld * n) * entry.sizes()[0], true));
		for (int i = 1; i < 4; i++) {
			if (b.getLong(offsets[i]) != 0) {
				bounds.add(new Bound(offsets[i], (ld * (n - 1) + m) * entry.sizes()[i], false));
			}
		}
		return new Decoded(List.copyOf(bounds), null);
	}

	private static long u32(ByteBuffer b, int offset) {
		return Integer.toUnsignedLong(b.getInt(offset));
	}
}
