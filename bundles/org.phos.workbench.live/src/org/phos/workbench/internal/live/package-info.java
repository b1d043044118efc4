/** JCuda implementation of the replay executor and the self-test trace of the instrumentation. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.live;
