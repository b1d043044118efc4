import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;

import java.io.BufferedReader;
import java.io.InputStreamReader;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;

/**
 * A JCuda program for the i14-jsites tests: it runs against the FFM stand-in {@code JCudaDriver} of this folder, so
 * under the phos recorder and native-hooks' fake libcuda its launches are recorded, and with the JCuda agent their
 * Java call sites are written. Driven like native-hooks' {@code fake_app live}: it prints {@code ready PID}, then per
 * line of stdin: {@code step N} (N launches from {@link #step}), {@code burst N} (N launches from {@link #main}),
 * {@code exit}; each answers {@code ok LAUNCHES}. The lines marked {@code site:NAME} are the launch sites the tests
 * expect.
 */
public final class LiveJCudaProgram {
    private static final String PTX = "// i14-jsites test module\n.version 9.0\n.target sm_90\n.visible .entry axpy() { ret; }\n";
    private static CUfunction axpy;
    private static Pointer args;
    private static long launches;

    private LiveJCudaProgram() {
    }

    public static void main(String[] argv) throws Exception {
        JCudaDriver.setExceptionsEnabled(true);
        cuInit(0);
        CUmodule module = new CUmodule();
        cuModuleLoadData(module, PTX);
        axpy = new CUfunction();
        cuModuleGetFunction(axpy, module, "axpy");
        int n = 16;
        CUdeviceptr x = new CUdeviceptr();
        CUdeviceptr y = new CUdeviceptr();
        CUdeviceptr scale = new CUdeviceptr();
        cuMemAlloc(x, 4L * n);
        cuMemAlloc(y, 4L * n);
        cuMemAlloc(scale, 8);
        cuMemcpyHtoD(scale, Pointer.to(new float[] { 1.0f }), 4);
        args = Pointer.to(x, y, new int[] { n }, new long[] { scale.handle, 0 });
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split(" ");
            if (w[0].equals("exit")) {
                break;
            }
            int count = w.length > 1 ? Integer.parseInt(w[1]) : 1;
            for (int i = 0; i < count; i++) {
                if (w[0].equals("step")) {
                    step();
                } else {
                    cuLaunchKernel(axpy, 2, 1, 1, 64, 1, 1, 0, null, args, null); // site:burst
                    launches++;
                }
            }
            System.out.println("ok " + launches);
            System.out.flush();
        }
        cuMemFree(x);
        cuMemFree(y);
        cuMemFree(scale);
    }

    private static void step() {
        cuLaunchKernel(axpy, 1, 1, 1, 32, 1, 1, 0, null, args, null); // site:step
        launches++;
    }
}
