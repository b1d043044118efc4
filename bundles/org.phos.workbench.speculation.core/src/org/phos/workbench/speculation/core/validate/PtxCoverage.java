package org.phos.workbench.speculation.core.validate;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.speculation.core.engines.FatbinContainer;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.Trace;

/**
 * Which launches of a trace have the PTX of their kernel, and why the others do not. PTX is what both the
 * {@code ptx-flow} analysis and the PTX instrumentation's truth (a GPU replay of the recorded launches) start from;
 * a researcher reading accuracy figures should know how many launches could not have had either, and whether that
 * could be changed (a library's image dropped by the recorder's size limit can be kept by raising
 * {@code PHOS_MODULE_IMAGE_LIMIT}; a library that ships cubins only cannot).
 * <p>
 * Per function, from its module as recorded: the PTX the recorder found beside the image (Triton's cache), else the
 * image's kind, whether its bytes were kept, the fatbin entries and whether an uncompressed PTX text declares the
 * kernel's {@code .entry}. The replay also needs PTX the device can
 * compile: PTX only for a newer architecture than the recorded device's is {@link Status#PTX_NEWER_ARCH} (the
 * analysis can read it, the replay cannot load it).
 */
public final class PtxCoverage {

	/** Why a launch has, or has not, the PTX of its kernel. */
	public enum Status {
		/** The kernel's PTX is in the trace (a PTX module, or an uncompressed PTX entry of a fatbin). */
		PTX("PTX in the trace"),
		/** PTX for the kernel, but only for a newer SM than the recorded device's: analysed, not replayable. */
		PTX_NEWER_ARCH("PTX only for a newer architecture than the device's"),
		/** The module's bytes were not written: larger than the recorder's module-image limit. */
		IMAGE_DROPPED("image dropped by the module-image limit (PHOS_MODULE_IMAGE_LIMIT)"),
		/** A cubin, or a fatbin with cubins only: the library ships no PTX. */
		CUBIN_ONLY("cubin only, no PTX shipped"),
		/** The fatbin's PTX entries are compressed in a way this reader cannot inflate. */
		PTX_COMPRESSED("PTX compressed (not readable)"),
		/** The module holds PTX, but none declares this kernel (its code is in a cubin only). */
		KERNEL_NOT_IN_PTX("module has PTX, not for this kernel"),
		/** No module known for the function, or an image of unknown kind. */
		NO_MODULE("no module image recorded"),
		/** The image could not be read (a damaged fatbin). */
		UNREADABLE("module image unreadable");

		private final String reason;

		Status(String reason) {
			this.reason = reason;
		}

		/** @return the reason in words, for tables */
		public String reason() {
			return reason;
		}

		/** @return whether {@code ptx-flow} can analyse the kernel */
		public boolean analysable() {
			return this == PTX || this == PTX_NEWER_ARCH;
		}

		/** @return the name as CSV and JSON write it ({@code image-dropped}) */
		public String label() {
			return name().toLowerCase(Locale.ROOT).replace('_', '-');
		}
	}

	/**
	 * Launches and kernels per status.
	 *
	 * @param launches the trace's launches
	 * @param launchesByStatus launches per status (every status present, 0 when none)
	 * @param kernelsByStatus launched functions per status
	 * @param statusByFunction the status of every launched function
	 */
	public record Summary(long launches, Map<Status, Long> launchesByStatus, Map<Status, Long> kernelsByStatus,
			Map<Integer, Status> statusByFunction) {

		/** @return launches of kernels whose PTX the trace holds for the device's architecture or an older one */
		public long withPtx() {
			return launchesByStatus.getOrDefault(Status.PTX, 0L);
		}

		/** @return launches of kernels with PTX only for a newer architecture: analysed, not replayable */
		public long newerArchOnly() {
			return launchesByStatus.getOrDefault(Status.PTX_NEWER_ARCH, 0L);
		}

		/** @return launches that could have had neither PTX analysis nor PTX-replay truth (no PTX at all) */
		public long withoutPtx() {
			return launches - withPtx() - newerArchOnly();
		}

		/**
		 * @return one line: how many launches have their kernel's PTX, how many only for a newer architecture, and
		 *         for those without any the count per reason, largest first; for example {@code 12 of 637 launches
		 *         have their kernel's PTX (2 of 41 kernels); 625 without PTX (no PTX analysis, no PTX-replay truth):
		 *         600 image dropped by the module-image limit (PHOS_MODULE_IMAGE_LIMIT) (30 kernels), 25 cubin only}
		 */
		public String line() {
			StringBuilder b = new StringBuilder();
			b.append(withPtx()).append(" of ").append(launches).append(" launches have their kernel's PTX (")
					.append(kernels(Status.PTX)).append(" of ").append(statusByFunction.size()).append(" kernels)");
			if (newerArchOnly() > 0) {
				b.append("; ").append(newerArchOnly()).append(" have it only for a newer architecture than the "
						+ "device's (").append(kernels(Status.PTX_NEWER_ARCH)).append(kernels(Status.PTX_NEWER_ARCH) == 1
								? " kernel" : " kernels").append(": analysed by ptx-flow, not replayable)");
			}
			if (withoutPtx() > 0) {
				b.append("; ").append(withoutPtx()).append(" without PTX (no PTX analysis, no PTX-replay truth): ");
				List<Map.Entry<Status, Long>> reasons = new ArrayList<>();
				launchesByStatus.forEach((s, n) -> {
					if (!s.analysable() && n > 0) {
						reasons.add(Map.entry(s, n));
					}
				});
				reasons.sort((x, y) -> Long.compare(y.getValue(), x.getValue()));
				for (int i = 0; i < reasons.size(); i++) {
					Map.Entry<Status, Long> r = reasons.get(i);
					long k = kernels(r.getKey());
					b.append(i == 0 ? "" : ", ").append(r.getValue()).append(' ').append(r.getKey().reason()).append(" (")
							.append(k).append(k == 1 ? " kernel)" : " kernels)");
				}
			}
			return b.toString();
		}

		private long kernels(Status s) {
			return kernelsByStatus.getOrDefault(s, 0L);
		}
	}

	private final Trace trace;
	private final int deviceSm;
	private final Map<Integer, ModuleView> modules = new HashMap<>();

	/** What one module offers: its status when no PTX names a kernel, and the PTX texts with their SM. */
	private record ModuleView(Status fallback, List<String> ptx, int[] ptxSm) {
	}

	private PtxCoverage(Trace trace) {
		this.trace = trace;
		this.deviceSm = trace.header().ccMajor() * 10 + trace.header().ccMinor();
	}

	/**
	 * @param trace a trace
	 * @return launches and kernels per status
	 */
	public static Summary of(Trace trace) {
		PtxCoverage c = new PtxCoverage(trace);
		Map<Integer, Status> byFunction = new HashMap<>();
		Map<Status, Long> launches = new EnumMap<>(Status.class);
		Map<Status, Long> kernels = new EnumMap<>(Status.class);
		for (Status s : Status.values()) {
			launches.put(s, 0L);
			kernels.put(s, 0L);
		}
		int n = trace.launchCount();
		for (int l = 0; l < n; l++) {
			int function = trace.functionId(trace.launchEvent(l));
			Status s = byFunction.get(function);
			if (s == null) {
				s = c.status(trace.functionById(function));
				byFunction.put(function, s);
				kernels.merge(s, 1L, Long::sum);
			}
			launches.merge(s, 1L, Long::sum);
		}
		return new Summary(n, launches, kernels, byFunction);
	}

	/**
	 * @param trace a trace
	 * @param function one of its functions, or null (unknown)
	 * @return its status
	 */
	public static Status status(Trace trace, @Nullable FunctionInfo function) {
		return new PtxCoverage(trace).status(function);
	}

	private Status status(@Nullable FunctionInfo function) {
		if (function == null) {
			return Status.NO_MODULE;
		}
		ModuleView m = modules.computeIfAbsent(function.moduleId(), id -> {
			try {
				return view(id);
			} catch (RuntimeException e) { // a damaged image: say so rather than fail the command that asked
				return new ModuleView(Status.UNREADABLE, List.of(), new int[0]);
			}
		});
		String entry = ".entry " + function.mangledName();
		boolean found = false;
		boolean usable = false;
		for (int i = 0; i < m.ptx().size(); i++) {
			String text = m.ptx().get(i);
			int at = text.indexOf(entry);
			while (at >= 0) {
				int after = at + entry.length();
				if (after >= text.length() || !isNameChar(text.charAt(after))) {
					break;
				}
				at = text.indexOf(entry, after);
			}
			if (at >= 0) {
				found = true;
				usable |= m.ptxSm()[i] <= 0 || deviceSm <= 0 || m.ptxSm()[i] <= deviceSm;
			}
		}
		if (found) {
			return usable ? Status.PTX : Status.PTX_NEWER_ARCH;
		}
		return m.fallback();
	}

	private static boolean isNameChar(char c) {
		return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '.';
	}

	private ModuleView view(int moduleId) {
		ModuleInfo module = trace.moduleById(moduleId);
		if (module == null) {
			return new ModuleView(Status.NO_MODULE, List.of(), new int[0]);
		}
		if (module.ptx().length > 0) { // the PTX the recorder found beside the image (Triton's cache, i15-cost)
			return new ModuleView(Status.KERNEL_NOT_IN_PTX, List.of(text(module.ptx())),
					new int[] { targetSm(module.ptx()) });
		}
		byte[] image = module.image();
		if (module.kind() == ModuleKind.CUBIN) {
			return new ModuleView(Status.CUBIN_ONLY, List.of(), new int[0]); // kept or not, a cubin has no PTX
		}
		if (image.length == 0) {
			return new ModuleView(module.imageSize() > 0 ? Status.IMAGE_DROPPED : Status.NO_MODULE, List.of(),
					new int[0]);
		}
		ModuleKind kind = module.kind();
		if (kind == ModuleKind.UNKNOWN || kind == ModuleKind.UNRECOGNIZED) {
			kind = FatbinContainer.isFatbin(image) ? ModuleKind.FATBIN
					: looksLikePtx(image) ? ModuleKind.PTX : ModuleKind.UNKNOWN;
		}
		switch (kind) {
			case PTX:
				return new ModuleView(Status.KERNEL_NOT_IN_PTX, List.of(text(image)), new int[] { targetSm(image) });
			case CUBIN:
				return new ModuleView(Status.CUBIN_ONLY, List.of(), new int[0]);
			case FATBIN: {
				List<String> texts = new ArrayList<>();
				List<Integer> sms = new ArrayList<>();
				boolean compressed = false;
				for (FatbinContainer.Entry e : FatbinContainer.read(image).entries()) {
					if (e.kind() != FatbinContainer.KIND_PTX) {
						continue;
					}
					if (e.compressed()) {
						compressed = true;
						continue;
					}
					texts.add(e.text());
					sms.add(e.smVersion());
				}
				Status fallback = !texts.isEmpty() ? Status.KERNEL_NOT_IN_PTX
						: compressed ? Status.PTX_COMPRESSED : Status.CUBIN_ONLY;
				return new ModuleView(fallback, texts, sms.stream().mapToInt(Integer::intValue).toArray());
			}
			default:
				return new ModuleView(Status.NO_MODULE, List.of(), new int[0]);
		}
	}

	/** The SM of a PTX text's {@code .target sm_NN} directive, 0 when none is found. */
	private static int targetSm(byte[] image) {
		String head = new String(image, 0, Math.min(image.length, 4096), StandardCharsets.ISO_8859_1);
		int at = head.indexOf(".target sm_");
		if (at < 0) {
			return 0;
		}
		int i = at + ".target sm_".length();
		int sm = 0;
		while (i < head.length() && Character.isDigit(head.charAt(i))) {
			sm = sm * 10 + (head.charAt(i++) - '0');
		}
		return sm;
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
