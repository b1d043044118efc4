package org.phos.workbench.speculation.core.ptx;

/** Sizes of PTX fundamental types. */
public final class PtxTypes {

	private PtxTypes() {
	}

	/**
	 * @param type a type suffix such as {@code .u32}, {@code .f16x2}, {@code .b128} or {@code u32}
	 * @return its size in bytes, 0 when not a sized type ({@code .pred} is 0)
	 */
	public static int sizeOf(String type) {
		String t = type.startsWith(".") ? type.substring(1) : type;
		return switch (t) {
			case "b8", "u8", "s8", "e4m3x2", "e5m2x2" -> t.endsWith("x2") ? 2 : 1;
			case "b16", "u16", "s16", "f16", "bf16" -> 2;
			case "b32", "u32", "s32", "f32", "f16x2", "bf16x2", "tf32" -> 4;
			case "b64", "u64", "s64", "f64" -> 8;
			case "b128" -> 16;
			default -> 0;
		};
	}
}
