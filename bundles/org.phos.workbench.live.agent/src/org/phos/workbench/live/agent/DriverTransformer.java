package org.phos.workbench.live.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.function.Consumer;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * Rewrites {@code jcuda.driver.JCudaDriver} so that each method named by {@link DriverCall} reports to
 * {@link JavaSiteHook}. The body of a wrapped method becomes
 *
 * <pre>
 * long t0 = JavaSiteHook.enter();
 * try {
 *     ...original body...; on each `return r`: JavaSiteHook.exit(r, t0, call, arg0?, arg1?, arg2?); return r;
 * } catch (Throwable t) {            // last in the exception table: the method's own handlers come first
 *     JavaSiteHook.threw(t, t0, call); throw t;
 * }
 * </pre>
 *
 * No method or field is added, so the same rewrite serves a class being loaded ({@code -javaagent}) and one
 * retransformed in a running JVM (the Attach API). Before rewriting, the class must be a JCuda version this agent knows
 * and carry the exact launch and function-lookup signatures; otherwise it is left untouched and one line says why.
 */
public final class DriverTransformer implements ClassFileTransformer {

    static final String HOOK = Type.getInternalName(JavaSiteHook.class);
    static final String LAUNCH_KERNEL = "(Ljcuda/driver/CUfunction;IIIIIIILjcuda/driver/CUstream;Ljcuda/Pointer;Ljcuda/Pointer;)I";
    static final String GET_FUNCTION = "(Ljcuda/driver/CUfunction;Ljcuda/driver/CUmodule;Ljava/lang/String;)I";

    private final Consumer<String> refusal;
    private volatile boolean instrumented;

    /** @param refusal receives the one line that says why the class was left alone (the agent prints it) */
    public DriverTransformer(Consumer<String> refusal) {
        this.refusal = refusal;
    }

    /** Whether a {@code JCudaDriver} class was rewritten. */
    public boolean instrumented() {
        return instrumented;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain domain, byte[] classfile) {
        if (!DriverCall.DRIVER_CLASS.equals(className)) {
            return null;
        }
        try {
            String version = JCudaVersion.of(domain, loader);
            if (!JCudaVersion.SUPPORTED.contains(version)) {
                refusal.accept("JCuda " + version + " is not a version this agent knows " + JCudaVersion.SUPPORTED
                        + "; JCudaDriver left as it is, no Java call sites recorded");
                return null;
            }
            byte[] out = instrument(classfile, loader);
            if (out == null) {
                refusal.accept("JCudaDriver of JCuda " + version + " lacks cuLaunchKernel" + LAUNCH_KERNEL
                        + " or cuModuleGetFunction" + GET_FUNCTION
                        + "; left as it is, no Java call sites recorded");
                return null;
            }
            instrumented = true;
            return out;
        } catch (Throwable t) {
            // a failed rewrite must never break the program: JVM keeps the original class when we return null
            refusal.accept("could not instrument JCudaDriver (" + t + "); left as it is");
            return null;
        }
    }

    /**
     * The rewritten class, or null when {@code classfile} does not have JCuda 12's launch and function-lookup
     * signatures.
     *
     * @param loader resolves class hierarchy questions while frames are recomputed (may be null: the system loader)
     */
    public static byte[] instrument(byte[] classfile, ClassLoader loader) {
        ClassReader reader = new ClassReader(classfile);
        boolean[] found = new boolean[2];
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                boolean publicStatic = (access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC)) == (Opcodes.ACC_PUBLIC
                        | Opcodes.ACC_STATIC);
                if (publicStatic && name.equals("cuLaunchKernel") && descriptor.equals(LAUNCH_KERNEL)) {
                    found[0] = true;
                }
                if (publicStatic && name.equals("cuModuleGetFunction") && descriptor.equals(GET_FUNCTION)) {
                    found[1] = true;
                }
                return null;
            }
        }, ClassReader.SKIP_CODE);
        if (!found[0] || !found[1]) {
            return null;
        }
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return loader != null ? loader : ClassLoader.getSystemClassLoader();
            }

            @Override
            protected String getCommonSuperClass(String type1, String type2) {
                try {
                    return super.getCommonSuperClass(type1, type2);
                } catch (RuntimeException | LinkageError e) {
                    return "java/lang/Object";
                }
            }
        };
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                boolean publicStatic = (access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC)) == (Opcodes.ACC_PUBLIC
                        | Opcodes.ACC_STATIC) && (access & Opcodes.ACC_NATIVE) == 0;
                DriverCall call = publicStatic ? DriverCall.of(name, descriptor) : null;
                return call == null ? mv : new Wrap(mv, access, name, descriptor, call);
            }
        }, ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    /** The try/catch wrapper described in the class comment. */
    private static final class Wrap extends AdviceAdapter {
        private final DriverCall call;
        private final Label tryStart = new Label();
        private final Label handler = new Label();
        private int start;

        Wrap(MethodVisitor mv, int access, String name, String descriptor, DriverCall call) {
            super(Opcodes.ASM9, mv, access, name, descriptor);
            this.call = call;
        }

        @Override
        protected void onMethodEnter() {
            invokeStatic(Type.getObjectType(HOOK), new org.objectweb.asm.commons.Method("enter", "()J"));
            start = newLocal(Type.LONG_TYPE);
            storeLocal(start);
            visitLabel(tryStart);
        }

        @Override
        protected void onMethodExit(int opcode) {
            if (opcode != IRETURN) {
                return; // ATHROW: the handler below sees it
            }
            dup();
            loadLocal(start);
            push(call.ordinal());
            Type[] args = getArgumentTypes();
            for (int i = 0; i < 3; i++) {
                if (i < call.argumentsPassed() && i < args.length && args[i].getSort() >= Type.ARRAY) {
                    loadArg(i);
                } else {
                    visitInsn(ACONST_NULL);
                }
            }
            visitMethodInsn(INVOKESTATIC, HOOK, "exit",
                    "(IJILjava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)V", false);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            visitLabel(handler);
            dup();
            loadLocal(start);
            push(call.ordinal());
            visitMethodInsn(INVOKESTATIC, HOOK, "threw", "(Ljava/lang/Throwable;JI)V", false);
            visitInsn(ATHROW);
            // registered last: the exception table is searched in order, so the method's own handlers keep theirs
            visitTryCatchBlock(tryStart, handler, handler, "java/lang/Throwable");
            super.visitMaxs(maxStack, maxLocals);
        }
    }
}
