/* Device-side layout shared by the tool (phos_sanitizer.c) and its patches (phos_sanitizer_patch.cu).
   The tool's device pool is cut into chunks. A chunk belongs to one stream and one version of the allocation table;
   its size is a power of two 2^k and it starts at a multiple of its size. It holds a 16-byte header, the table
   (n ranges), PHOS_HINTS lookup hints (zero at first), then launch records: n + 1 zero-initialised accumulators each (one per allocation of the table, the
   last one for accesses outside all of them). The tool writes a chunk's header, table and zeroes once, on the chunk's
   stream, when it opens the chunk; a launch then only gets a record slot, so the common path issues no copy and no
   synchronisation. The callback data of a launch is PHOS_UD(slot address, k): the patch finds the accumulators in the
   low 56 bits and the chunk header by rounding that address down to a multiple of 2^k (k in the top 8 bits; device
   addresses use fewer than 56 bits, the tool checks). Minima are stored complemented so that zero means "none" and
   every field folds with atomicMax/atomicAdd. */
#ifndef PHOS_SANITIZER_LAYOUT_H
#define PHOS_SANITIZER_LAYOUT_H
typedef struct { unsigned long long base, end; } PhosRange;   /* [base, end), sorted by base, disjoint */
typedef struct {
    unsigned long long rmin_inv, rmax, wmin_inv, wmax;          /* ~lowest address, highest end address */
    unsigned long long rcount, wcount;                          /* accesses (per thread and instruction) */
} PhosAcc;
typedef struct {
    unsigned long long table;   /* device address of the chunk's PhosRange table (right after this header) */
    unsigned n, flags;
} PhosChunkHdr;
#define PHOS_UD_ADDR_BITS 56
#define PHOS_UD_ADDR_MASK ((1ull << PHOS_UD_ADDR_BITS) - 1ull)
#define PHOS_UD(slot, k) ((unsigned long long)(slot) | ((unsigned long long)(k) << PHOS_UD_ADDR_BITS))
#define PHOS_HINTS 256           /* lookup hints after the table: hint[(address >> 16) % PHOS_HINTS] = allocation index + 1 */
#define PHOS_HINT_OFF(n) (16ull + 16ull * (unsigned long long)(n))
#define PHOS_CHUNK_HDR_BYTES(n) (PHOS_HINT_OFF(n) + 4ull * PHOS_HINTS)      /* header + table + hints, a multiple of 16 */
#define PHOS_REC_BYTES(n) (48ull * ((unsigned long long)(n) + 1ull))             /* one launch record, a multiple of 16 */
#endif
