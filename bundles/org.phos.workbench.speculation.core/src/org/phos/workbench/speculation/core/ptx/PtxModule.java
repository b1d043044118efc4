package org.phos.workbench.speculation.core.ptx;

import java.util.List;
import java.util.Optional;

/**
 * One PTX translation unit.
 *
 * @param version the {@code .version} (for example {@code 9.0})
 * @param target the {@code .target} list as written (for example {@code sm_90})
 * @param addressSize 32 or 64
 * @param globals module-level directives other than functions ({@code .global}, {@code .const}, {@code .extern},
 *        {@code .file}...), verbatim without the trailing newline, kept for re-emission
 * @param functions kernels ({@code .entry}) and device functions ({@code .func}) in file order
 */
public record PtxModule(String version, String target, int addressSize, List<String> globals,
		List<PtxFunction> functions) {

	/** Copies the lists. */
	public PtxModule {
		globals = List.copyOf(globals);
		functions = List.copyOf(functions);
	}

	/** @return the kernels only */
	public List<PtxFunction> entries() {
		return functions.stream().filter(PtxFunction::entry).toList();
	}

	/**
	 * @param name a function's name as in the PTX (mangled)
	 * @return that function
	 */
	public Optional<PtxFunction> function(String name) {
		return functions.stream().filter(f -> f.name().equals(name)).findFirst();
	}

	/** @return the module as PTX text that {@code ptxas} accepts */
	public String toPtx() {
		StringBuilder out = new StringBuilder();
		out.append(".version ").append(version).append('\n');
		out.append(".target ").append(target).append('\n');
		out.append(".address_size ").append(addressSize).append("\n\n");
		for (String g : globals) {
			out.append(g).append('\n');
		}
		for (PtxFunction f : functions) {
			out.append('\n');
			f.appendPtx(out);
		}
		return out.toString();
	}
}
