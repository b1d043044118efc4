package jcuda.driver;

/** Stand-in for JCuda's handle class of the same name (i14-jsites): the native value in {@code handle}. */
public class CUstream extends jcuda.Pointer {
}
