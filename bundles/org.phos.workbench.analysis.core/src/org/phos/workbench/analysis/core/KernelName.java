package org.phos.workbench.analysis.core;

import org.phos.workbench.speculation.core.demangle.DemangledName;
import org.phos.workbench.speculation.core.demangle.ItaniumDemangler;
import org.phos.workbench.trace.core.FunctionInfo;

/** The name a table shows for a kernel: the recorder's demangled name, else the workbench's demangling, else mangled. */
final class KernelName {

	private KernelName() {
	}

	static String of(FunctionInfo f) {
		if (!f.demangledName().isBlank() && !f.demangledName().equals(f.mangledName())) {
			return f.demangledName();
		}
		DemangledName d = ItaniumDemangler.demangle(f.mangledName());
		return d.isDemangled() ? d.text() : f.mangledName();
	}
}
