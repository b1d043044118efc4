/**
 * Java call sites of a JCuda program (docs/trace-format.md "Java call sites"): the JCuda agent
 * ({@code org.phos.workbench.live.agent}) writes one line per driver call to {@code <trace>.java-sites};
 * {@link org.phos.workbench.trace.core.javasites.JavaSiteLog} reads that file and
 * {@link org.phos.workbench.trace.core.javasites.JavaSites} pairs its lines with the trace's events by time, so a
 * launch links to the Java class, method and line that issued it, and a module to the name the program gave it.
 */
@NonNullByDefault
package org.phos.workbench.trace.core.javasites;

import org.eclipse.jdt.annotation.NonNullByDefault;
