package org.phos.workbench.internal.speculation.core.engines;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.ptx.PtxFunction;
import org.phos.workbench.speculation.core.ptx.PtxModule;
import org.phos.workbench.speculation.core.ptx.PtxParseException;
import org.phos.workbench.speculation.core.ptx.PtxParser;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.Trace;

/**
 * Finds the PTX of a trace's kernels: the PTX the recorder stored beside a module (Triton's cache, i15-cost), a module
 * recorded as PTX text, or the PTX entries of a fatbin (uncompressed ones; compressed entries are skipped with a
 * note). A module of unknown kind is sniffed (fatbin magic, or text
 * holding {@code .version}). Each module is parsed once; a parse failure is a note and leaves its kernels without
 * PTX.
 */
final class PtxSource {

	private final Trace trace;
	private final Map<Integer, List<PtxModule>> parsed = new HashMap<>();
	private final List<String> notes;

	PtxSource(Trace trace, List<String> notes) {
		this.trace = trace;
		this.notes = notes;
	}

	/**
	 * @param moduleId the function's module
	 * @param name the function's mangled name
	 * @return its PTX kernel ({@code .entry}), or null when the module holds no readable PTX for it
	 */
	@Nullable
	PtxFunction kernel(int moduleId, String name) {
		PtxFunction best = null;
		for (PtxModule m : modules(moduleId)) {
			for (PtxFunction f : m.functions()) {
				if (f.entry() && f.name().equals(name) && !f.body().isEmpty()) {
					best = f; // later entries of a fatbin target newer SMs; keep the last one
				}
			}
		}
		return best;
	}

	private List<PtxModule> modules(int moduleId) {
		return parsed.computeIfAbsent(moduleId, this::load);
	}

	private List<PtxModule> load(int moduleId) {
		ModuleInfo module = trace.moduleById(moduleId);
		List<PtxModule> result = new ArrayList<>();
		if (module == null) {
			return result;
		}
		if (module.ptx().length > 0) {
			// i15-cost: the PTX the recorder found beside the loaded image (Triton's cache next to its cubin)
			parse(moduleId, "module " + moduleId + " PTX from " + module.ptxSource(), text(module.ptx()), result);
			return result;
		}
		byte[] image = module.image();
		if (image.length == 0) {
			if (module.kind() == ModuleKind.PTX || module.kind() == ModuleKind.FATBIN) {
				notes.add("module " + moduleId + ": image not captured (" + module.imageSize() + " bytes); no PTX");
			}
			return result;
		}
		ModuleKind kind = module.kind();
		if (kind == ModuleKind.UNKNOWN || kind == ModuleKind.UNRECOGNIZED) {
			kind = FatbinContainer.isFatbin(image) ? ModuleKind.FATBIN
					: looksLikePtx(image) ? ModuleKind.PTX : ModuleKind.UNKNOWN;
		}
		if (kind == ModuleKind.PTX) {
			parse(moduleId, "module " + moduleId, text(image), result);
		} else if (kind == ModuleKind.FATBIN) {
			FatbinContainer.Contents contents = FatbinContainer.read(image);
			for (String p : contents.problems()) {
				notes.add("module " + moduleId + ": fatbin: " + p);
			}
			for (FatbinContainer.Entry e : contents.entries()) {
				if (e.kind() != FatbinContainer.KIND_PTX) {
					continue;
				}
				if (e.compressed()) {
					notes.add("module " + moduleId + ": fatbin PTX entry at offset " + e.offset() + " (sm_"
							+ e.smVersion() + ") is compressed; skipped");
					continue;
				}
				parse(moduleId, "module " + moduleId + " fatbin entry at offset " + e.offset(), e.text(), result);
			}
		}
		return result;
	}

	private void parse(int moduleId, String source, String text, List<PtxModule> into) {
		try {
			into.add(PtxParser.parse(source, text));
		} catch (PtxParseException e) {
			notes.add(e.getMessage() + "; its kernels have no PTX analysis");
		} catch (RuntimeException e) {
			notes.add(source + ": PTX parser failed (" + e + "); its kernels have no PTX analysis");
		}
	}

	private static String text(byte[] image) {
		int end = image.length;
		while (end > 0 && image[end - 1] == 0) {
			end--;
		}
		return new String(image, 0, end, StandardCharsets.UTF_8);
	}

	private static boolean looksLikePtx(byte[] image) {
		String head = new String(image, 0, Math.min(image.length, 4096), StandardCharsets.ISO_8859_1);
		return head.contains(".version") && head.contains(".target");
	}
}
