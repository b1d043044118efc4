package org.phos.workbench.live.agent.tests.program;

/** A program without JCuda on its class path: the agent must refuse in one line and leave it alone. */
public final class NoJCudaProgram {
    private NoJCudaProgram() {
    }

    public static void main(String[] args) {
        System.out.println("sum " + (args.length + 41));
    }
}
