package jcuda.driver;

/** Test stand-in for JCuda's handle class of the same name: a mutable native value. */
public class CUstream extends jcuda.Pointer {
    public long handle;
}
