package org.phos.workbench.trace.core.export;

import org.phos.workbench.trace.core.Trace;

/**
 * The CUDA runtime API name that stands for a recorded operation in exported traces ({@code cudaLaunchKernel},
 * {@code cudaMemcpyAsync}, ...). The v1 format records the operation, not the entry point the process called
 * (runtime or driver API), so these are the familiar runtime names of the same operation.
 */
public final class HostApiNames {

	private HostApiNames() {
	}

	/** Every name {@link #of(Trace, int)} can return, so that exporters can encode them once. */
	public static final java.util.List<String> ALL = java.util.List.of("cudaLaunchKernelExC",
			"cudaLaunchCooperativeKernel", "cudaGraphLaunch (node)", "cudaLaunchKernel", "cudaMemcpyAsync",
			"cudaMemcpy", "cudaMemsetAsync", "cudaMemset", "cudaMallocAsync", "cudaMallocManaged", "cuMemMap",
			"cudaHostAlloc", "cudaMallocPitch", "cudaMalloc", "cudaFreeAsync", "cuMemUnmap", "cudaFreeHost",
			"cudaFree", "cudaStreamCreate", "cudaStreamDestroy", "cudaEventCreate", "cudaEventDestroy",
			"cudaEventRecord", "cudaStreamWaitEvent", "cudaStreamSynchronize", "cudaEventSynchronize",
			"cudaDeviceSynchronize", "cudaStreamBeginCapture", "cudaStreamEndCapture", "cuda sync operation",
			"cudaGraphLaunch", "unknown event",
			// i16-rec: begin
			"cudaLaunchHostFunc", "cudaStreamAddCallback", "cudaMallocArray", "cudaFreeArray", "cuTensorMapEncode",
			// i16-rec: end
			// i15-alloc: PyTorch's caching allocator (no CUDA call: its own block events)
			"CUDACachingAllocator alloc", "CUDACachingAllocator free", "CUDACachingAllocator segment",
			"CUDACachingAllocator event");

	public static String of(Trace trace, int i) {
		return switch (trace.kind(i)) {
		case LAUNCH -> switch (trace.launchKind(i)) {
			case EX -> "cudaLaunchKernelExC";
			case COOPERATIVE -> "cudaLaunchCooperativeKernel";
			case GRAPH_NODE -> "cudaGraphLaunch (node)";
			default -> "cudaLaunchKernel";
			};
		case MEMCPY -> trace.async(i) ? "cudaMemcpyAsync" : "cudaMemcpy";
		case MEMSET -> trace.async(i) ? "cudaMemsetAsync" : "cudaMemset";
		case ALLOC -> switch (trace.allocKind(i)) {
			case ASYNC -> "cudaMallocAsync";
			case MANAGED -> "cudaMallocManaged";
			case VMM -> "cuMemMap";
			case HOST_PINNED -> "cudaHostAlloc";
			case PITCHED -> "cudaMallocPitch";
			default -> "cudaMalloc";
			};
		case FREE -> switch (trace.allocKind(i)) {
			case ASYNC -> "cudaFreeAsync";
			case VMM -> "cuMemUnmap";
			case HOST_PINNED -> "cudaFreeHost";
			default -> "cudaFree";
			};
		case SYNC -> switch (trace.syncKind(i)) {
			case STREAM_CREATE -> "cudaStreamCreate";
			case STREAM_DESTROY -> "cudaStreamDestroy";
			case EVENT_CREATE -> "cudaEventCreate";
			case EVENT_DESTROY -> "cudaEventDestroy";
			case EVENT_RECORD -> "cudaEventRecord";
			case STREAM_WAIT_EVENT -> "cudaStreamWaitEvent";
			case STREAM_SYNCHRONIZE -> "cudaStreamSynchronize";
			case EVENT_SYNCHRONIZE -> "cudaEventSynchronize";
			case CONTEXT_SYNCHRONIZE -> "cudaDeviceSynchronize";
			case GRAPH_CAPTURE_BEGIN -> "cudaStreamBeginCapture";
			case GRAPH_CAPTURE_END -> "cudaStreamEndCapture";
			case HOST_FUNCTION -> "cudaLaunchHostFunc"; // i16-rec
			case STREAM_CALLBACK -> "cudaStreamAddCallback"; // i16-rec
			default -> "cuda sync operation";
			};
		case GRAPH_LAUNCH -> "cudaGraphLaunch";
		case ARRAY -> trace.cudaArray(i).op() == org.phos.workbench.trace.core.ArrayOp.DESTROY ? "cudaFreeArray"
				: "cudaMallocArray"; // i16-rec
		case TENSOR_MAP -> "cuTensorMapEncode"; // i16-rec
		case ALLOCATOR_BLOCK -> switch (trace.allocatorBlock(i).action()) { // i15-alloc
			case ALLOC -> "CUDACachingAllocator alloc";
			case FREE_REQUESTED, FREE_COMPLETED -> "CUDACachingAllocator free";
			case SEGMENT_ALLOC, SEGMENT_FREE, SEGMENT_MAP, SEGMENT_UNMAP -> "CUDACachingAllocator segment";
			default -> "CUDACachingAllocator event";
			};
		default -> "unknown event";
		};
	}
}
