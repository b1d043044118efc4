package org.phos.workbench.trace.core.synthetic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ParamInfo;

/**
 * A made-up kernel: its function record, what each parameter slot holds (pointer, integer, float, or a struct
 * passed by value with pointers at some offsets), a few launch configurations and a typical GPU duration.
 */
final class SyntheticKernel {
    static final byte POINTER = 0, INT = 1, LONG = 2, FLOAT = 3, STRUCT = 4;

    private static final String[] NAMES = { "gemm_kernel", "softmax_fwd", "layernorm_fwd", "elementwise_add",
            "reduce_sum", "embedding_lookup", "attention_fwd", "gelu_fwd", "transpose_2d", "scatter_add",
            "rope_apply", "rmsnorm_fwd", "topk_select", "cross_entropy_fwd", "adam_update", "conv2d_implicit_gemm",
            "bias_relu", "dropout_fwd", "index_select", "cat_kernel", "paged_attention_v2", "copy_blocks",
            "rotary_embedding", "silu_and_mul", "fused_moe", "argmax", "histogram", "prefix_scan", "bfs_step",
            "spmv_csr" };

    final FunctionInfo function;
    final byte[] slotType;
    /** For STRUCT slots: byte offsets of pointers inside the struct. */
    final int[][] structPointers;
    final Dim3[] grids;
    final Dim3[] blocks;
    final int[] sharedMem;
    final long durationNs;
    final int paramBytes;

    private SyntheticKernel(FunctionInfo function, byte[] slotType, int[][] structPointers, Dim3[] grids,
            Dim3[] blocks, int[] sharedMem, long durationNs, int paramBytes) {
        this.function = function;
        this.slotType = slotType;
        this.structPointers = structPointers;
        this.grids = grids;
        this.blocks = blocks;
        this.sharedMem = sharedMem;
        this.durationNs = durationNs;
        this.paramBytes = paramBytes;
    }

    static SyntheticKernel create(SplittableRandom rnd, int id, int moduleId) {
        String base = NAMES[(id - 1) % NAMES.length] + ((id - 1) < NAMES.length ? "" : "_" + (id - 1) / NAMES.length);
        boolean externC = rnd.nextInt(5) == 0; // Triton/NVRTC style: no signature
        int n = 2 + rnd.nextInt(9);
        byte[] types = new byte[n];
        int[][] structPointers = new int[n][];
        List<ParamInfo> params = new ArrayList<>();
        StringBuilder mangled = new StringBuilder("_Z").append(base.length()).append(base);
        StringBuilder demangled = new StringBuilder(base).append('(');
        int offset = 0;
        for (int k = 0; k < n; k++) {
            int r = rnd.nextInt(100);
            byte t = r < 50 ? POINTER : r < 72 ? INT : r < 77 ? LONG : r < 88 ? FLOAT : STRUCT;
            types[k] = t;
            int size = switch (t) {
                case POINTER, LONG -> 8;
                case INT, FLOAT -> 4;
                default -> 16 + 8 * rnd.nextInt(13);
            };
            int align = size >= 8 ? 8 : 4;
            offset = (offset + align - 1) / align * align;
            params.add(new ParamInfo(offset, size));
            offset += size;
            if (k > 0) {
                demangled.append(", ");
            }
            switch (t) {
                case POINTER -> {
                    boolean isConst = rnd.nextBoolean();
                    mangled.append(isConst ? "PKf" : "Pf");
                    demangled.append(isConst ? "float const*" : "float*");
                }
                case INT -> { mangled.append('i'); demangled.append("int"); }
                case LONG -> { mangled.append('l'); demangled.append("long"); }
                case FLOAT -> { mangled.append('f'); demangled.append("float"); }
                default -> {
                    String s = "Args" + size;
                    mangled.append(s.length()).append(s);
                    demangled.append(s);
                    int slots = size / 8;
                    int pointers = 1 + rnd.nextInt(Math.min(4, slots));
                    int[] at = new int[pointers];
                    for (int p = 0; p < pointers; p++) {
                        at[p] = 8 * rnd.nextInt(slots);
                    }
                    structPointers[k] = at;
                }
            }
        }
        demangled.append(')');
        String mangledName = externC ? "triton_" + base + "_" + id : mangled.toString();
        FunctionInfo f = new FunctionInfo(id, moduleId, mangledName, externC ? "" : demangled.toString(), params);
        int configs = 1 + rnd.nextInt(3);
        Dim3[] grids = new Dim3[configs];
        Dim3[] blocks = new Dim3[configs];
        int[] shm = new int[configs];
        for (int c = 0; c < configs; c++) {
            int b = rnd.nextInt(6);
            blocks[c] = switch (b) {
                case 0 -> new Dim3(128, 1, 1);
                case 1 -> new Dim3(256, 1, 1);
                case 2 -> new Dim3(512, 1, 1);
                case 3 -> new Dim3(1024, 1, 1);
                case 4 -> new Dim3(32, 8, 1);
                default -> new Dim3(16, 16, 1);
            };
            grids[c] = rnd.nextInt(4) == 0 ? new Dim3(1 + rnd.nextInt(256), 1 + rnd.nextInt(64), 1 + rnd.nextInt(2))
                    : new Dim3(1 + rnd.nextInt(65535), 1, 1);
            shm[c] = rnd.nextInt(3) == 0 ? 1024 * (1 + rnd.nextInt(48)) : 0;
        }
        long duration = (long) (2_000 * Math.pow(1000, rnd.nextDouble())); // 2 us .. 2 ms
        return new SyntheticKernel(f, types, structPointers, grids, blocks, shm, duration, offset);
    }
}
