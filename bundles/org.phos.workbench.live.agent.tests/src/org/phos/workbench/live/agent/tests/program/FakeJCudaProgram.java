package org.phos.workbench.live.agent.tests.program;

import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoad;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.Arrays;

import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;

/**
 * A JCuda-style program run against the stand-in driver, with and without the agent. Each driver call is followed,
 * on the same source line, by {@code call(...)}, which prints the call's kind, source line and result: the test
 * compares those lines with what the agent wrote, and the whole output with and without the agent.
 * {@code FakeJCudaProgram wait PTX} loads one module, prints READY and waits for a line on stdin (the attach test).
 */
public final class FakeJCudaProgram {

    private FakeJCudaProgram() {
    }

    public static void main(String[] args) throws Exception {
        boolean wait = args[0].equals("wait");
        String ptx = args[1];
        CUmodule file = new CUmodule();
        call("M", cuModuleLoad(file, ptx), ptx);
        if (wait) {
            System.out.println("READY");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in)).readLine();
        }
        CUmodule data = new CUmodule();
        call("M", cuModuleLoadData(data, "// generated\n.version 8.0\n.entry other() { ret; }\n"), "");
        CUfunction f = new CUfunction();
        call("G", cuModuleGetFunction(f, file, "jacobi_step"), "jacobi_step");
        CUfunction g = new CUfunction();
        call("G", cuModuleGetFunction(g, data, "other"), "other");
        CUdeviceptr d = new CUdeviceptr();
        call("A", cuMemAlloc(d, 4096), "");
        call("C", cuMemcpyHtoD(d, Pointer.to(new float[4]), 16), "");
        for (int i = 1; i <= 3; i++) {
            step(f, i);
        }
        call("L", cuLaunchKernel(g, 2, 1, 1, 64, 1, 1, 0, null, null, null), "other");
        call("L", cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, null, null, null), "jacobi_step");
        float[] h = new float[4];
        call("C", cuMemcpyDtoH(Pointer.to(h), d, 16), "");
        System.out.println("result " + Arrays.toString(h));
        call("F", cuMemFree(d), "");
        call("F", cuMemFree(d), "");
        JCudaDriver.setExceptionsEnabled(true);
        try {
            cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, null, null, null);
        } catch (CudaException e) {
            System.out.println("caught " + e.getClass().getName() + ": " + e.getMessage() + " at " + line(e));
        }
        try {
            cuLaunchKernel(new CUfunction(), 1, 1, 1, 32, 1, 1, 0, null, null, null);
        } catch (IllegalArgumentException e) {
            System.out.println("caught " + e.getClass().getName() + ": " + e.getMessage() + " at " + line(e));
        }
        System.out.println("sync " + cuCtxSynchronize());
    }

    private static void step(CUfunction f, int i) {
        call("L", cuLaunchKernel(f, i, 1, 1, 128, 1, 1, 0, null, null, null), "jacobi_step");
    }

    /** Prints "call KIND METHOD LINE RESULT NAME": the caller's method and line are the driver call's. */
    private static void call(String kind, int result, String name) {
        StackWalker.StackFrame caller = StackWalker.getInstance().walk(s -> s.skip(1).findFirst()).orElseThrow();
        System.out.println("call " + kind + " " + caller.getMethodName() + " " + caller.getLineNumber() + " "
                + result + " " + name);
    }

    /** Where an exception came from, as the program sees it: the agent must not add or change frames. */
    private static String line(Throwable e) {
        StackTraceElement[] t = e.getStackTrace();
        return t[0].getClassName() + "." + t[0].getMethodName() + " (" + t.length + " frames)";
    }
}
