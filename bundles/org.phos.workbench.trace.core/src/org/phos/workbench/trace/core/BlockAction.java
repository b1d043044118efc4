package org.phos.workbench.trace.core;

/**
 * What an {@link EventKind#ALLOCATOR_BLOCK} event says a caching allocator did (the v1 {@code BlockAction} enum,
 * docs/trace-format.md, block i15-alloc). PyTorch's caching allocator reports these to the tracker the recorder
 * attaches with {@code PHOS_TORCH_ALLOC=1}; the codes are its {@code TraceEntry::Action} plus one. A number this
 * reader does not know (a newer recorder) reads as {@link #UNRECOGNIZED}.
 */
public enum BlockAction {
	/** Not known. Wire name {@code BLOCK_UNKNOWN}. */
	UNKNOWN(0),
	/** A block handed out: {@code [address, address + size)} of the requested size. Wire name {@code BLOCK_ALLOC}. */
	ALLOC(1),
	/**
	 * The program freed the block; it stays reserved until {@link #FREE_COMPLETED} (other streams may still use it).
	 * Wire name {@code BLOCK_FREE_REQUESTED}.
	 */
	FREE_REQUESTED(2),
	/** The block went back to the allocator's pool; it may be merged and handed out again. */
	FREE_COMPLETED(3),
	/** The allocator took a segment from the driver ({@code cudaMalloc}). */
	SEGMENT_ALLOC(4),
	/** The allocator gave a segment back ({@code cudaFree}, {@code empty_cache}). */
	SEGMENT_FREE(5),
	/** Expandable segments: physical memory mapped into a segment. */
	SEGMENT_MAP(6),
	/** Expandable segments: physical memory unmapped from a segment. */
	SEGMENT_UNMAP(7),
	/** The allocator ran out of memory ({@code address} is the free bytes the driver reported). */
	OOM(8),
	/** A wire number this reader does not know. Cannot be written. */
	UNRECOGNIZED(-1);

	private final int code;

	BlockAction(int code) {
		this.code = code;
	}

	/** The wire number of this constant ({@code -1} for {@link #UNRECOGNIZED}). */
	public int code() {
		return code;
	}

	/** The constant with the given wire number, or {@link #UNRECOGNIZED}. */
	public static BlockAction ofCode(int code) {
		BlockAction[] all = values();
		return code >= 0 && code < all.length - 1 ? all[code] : UNRECOGNIZED;
	}
}
