/**
 * A Java agent (ASM) that records what the native recorder cannot see of a JCuda program: the Java call site of each
 * driver call and the names the program gives its modules, into a side file the workbench pairs with the trace
 * ({@code org.phos.workbench.trace.core.javasites}). Entry points: {@link org.phos.workbench.live.agent.JCudaAgent}
 * ({@code -javaagent}, Attach API), {@link org.phos.workbench.live.agent.AttachMain}
 * ({@code java -jar phos-jcuda-agent.jar attach PID}).
 */
package org.phos.workbench.live.agent;
