package jcuda.driver;

/** Test stand-in for JCuda's handle class of the same name: a mutable native value. */
public class CUmodule extends jcuda.Pointer {
    public long handle;
}
