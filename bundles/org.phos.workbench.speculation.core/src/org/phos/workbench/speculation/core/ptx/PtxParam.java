package org.phos.workbench.speculation.core.ptx;

/**
 * A {@code .param} of a kernel or device function with its place in the parameter buffer. Offsets follow the PTX
 * layout rule that {@code cuFuncGetParamInfo} reports: each parameter starts at the next multiple of its alignment.
 *
 * @param name the parameter's PTX name
 * @param type the element type ({@code .u64}, {@code .b8}...)
 * @param align the explicit {@code .align}, or the element size when none is written
 * @param arrayLength the array length for {@code name[N]} (structs by value), 0 for scalars
 * @param offset byte offset in the parameter buffer
 * @param size byte size
 * @param attributes extra attributes as written ({@code .ptr .global .align 4}), empty when none
 */
public record PtxParam(String name, String type, int align, int arrayLength, long offset, long size,
		String attributes) {

	/** @return whether the parameter is an array of bytes or elements (a struct passed by value) */
	public boolean isAggregate() {
		return arrayLength > 0;
	}

	/** @return the declaration as PTX text, without the {@code .param} keyword's trailing comma */
	public String toPtx() {
		StringBuilder out = new StringBuilder(".param ");
		boolean explicitAlign = arrayLength > 0 || align != PtxTypes.sizeOf(type);
		if (explicitAlign && attributes.isEmpty()) {
			out.append(".align ").append(align).append(' ');
		}
		out.append(type);
		if (!attributes.isEmpty()) {
			out.append(' ').append(attributes);
		}
		out.append(' ').append(name);
		if (arrayLength > 0) {
			out.append('[').append(arrayLength).append(']');
		}
		return out.toString();
	}
}
