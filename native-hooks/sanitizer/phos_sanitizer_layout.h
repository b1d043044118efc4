/* Device-side layout shared by the tool (phos_sanitizer.c) and its patches (phos_sanitizer_patch.cu).
   A launch record lives in the tool's device pool: a 16-byte header written by the tool before the launch, then
   n + 1 zero-initialised accumulators (one per allocation of the table, the last one for accesses outside all of
   them). Minima are stored complemented so that zero means "none" and every field folds with atomicMax/atomicAdd. */
#ifndef PHOS_SANITIZER_LAYOUT_H
#define PHOS_SANITIZER_LAYOUT_H
typedef struct { unsigned long long base, end; } PhosRange;   /* [base, end), sorted by base, disjoint */
typedef struct {
    unsigned long long rmin_inv, rmax, wmin_inv, wmax;          /* ~lowest address, highest end address */
    unsigned long long rcount, wcount;                          /* accesses (per thread and instruction) */
} PhosAcc;
typedef struct {
    unsigned long long table;   /* device address of the PhosRange table */
    unsigned n, flags;
    PhosAcc acc[1];             /* n + 1 of them */
} PhosLaunchRec;
#define PHOS_REC_BYTES(n) (16u + 48u * ((unsigned)(n) + 1u))
#endif
