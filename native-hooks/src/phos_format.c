/* .phos trace format v1: framing, CRC-32C, FNV-1a and a minimal protobuf writer. */
#include "phos_format.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint32_t crc_table[8][256];
static int crc_ready;

static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        crc_table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++) crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
    __atomic_store_n(&crc_ready, 1, __ATOMIC_RELEASE);
}

/* CRC-32C (Castagnoli), slicing-by-8; crc is the running value (0 to start). */
uint32_t phos_crc32c(uint32_t crc, const void *data, size_t n) {
    if (!__atomic_load_n(&crc_ready, __ATOMIC_ACQUIRE)) crc_init();
    const uint8_t *p = data;
    crc = ~crc;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        w ^= crc;
        crc = crc_table[7][w & 0xff] ^ crc_table[6][(w >> 8) & 0xff] ^ crc_table[5][(w >> 16) & 0xff] ^
              crc_table[4][(w >> 24) & 0xff] ^ crc_table[3][(w >> 32) & 0xff] ^ crc_table[2][(w >> 40) & 0xff] ^
              crc_table[1][(w >> 48) & 0xff] ^ crc_table[0][w >> 56];
        p += 8;
        n -= 8;
    }
    while (n--) crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
    return ~crc;
}

uint64_t phos_fnv1a64(const void *data, size_t n) {
    const uint8_t *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 0x100000001b3ull; }
    return h;
}

void pb_reset(pbuf *b) { b->n = 0; }
void pb_free(pbuf *b) { free(b->p); b->p = NULL; b->n = b->cap = 0; }
int pb_reserve(pbuf *b, size_t extra) {
    if (b->n + extra <= b->cap) return 0;
    size_t c = b->cap ? b->cap : 256;
    while (c < b->n + extra) c *= 2;
    uint8_t *q = realloc(b->p, c);
    if (!q) return -1;
    b->p = q;
    b->cap = c;
    return 0;
}
void pb_raw(pbuf *b, const void *d, size_t n) {
    if (!n || pb_reserve(b, n)) return;
    memcpy(b->p + b->n, d, n);
    b->n += n;
}
void pb_varint(pbuf *b, uint64_t v) {
    if (pb_reserve(b, 10)) return;
    while (v >= 0x80) { b->p[b->n++] = (uint8_t)(v | 0x80); v >>= 7; }
    b->p[b->n++] = (uint8_t)v;
}
static void tag(pbuf *b, uint32_t field, uint32_t wt) { pb_varint(b, ((uint64_t)field << 3) | wt); }
void pb_u64(pbuf *b, uint32_t field, uint64_t v) { if (v) { tag(b, field, 0); pb_varint(b, v); } }
void pb_bool(pbuf *b, uint32_t field, int v) { if (v) { tag(b, field, 0); pb_varint(b, 1); } }
void pb_fixed64(pbuf *b, uint32_t field, uint64_t v) {
    if (!v) return;
    tag(b, field, 1);
    uint8_t le[8];
    for (int i = 0; i < 8; i++) le[i] = (uint8_t)(v >> (8 * i));
    pb_raw(b, le, 8);
}
void pb_bytes(pbuf *b, uint32_t field, const void *d, size_t n) {
    if (!n) return;
    tag(b, field, 2);
    pb_varint(b, n);
    pb_raw(b, d, n);
}
void pb_str(pbuf *b, uint32_t field, const char *s) { if (s) pb_bytes(b, field, s, strlen(s)); }
void pb_msg(pbuf *b, uint32_t field, const pbuf *sub) {
    tag(b, field, 2);
    pb_varint(b, sub->n);
    pb_raw(b, sub->p, sub->n);
}

/* zstd through dlopen: no build-time dependency */
typedef size_t (*zcompress_t)(void *, size_t, const void *, size_t, int);
typedef size_t (*zbound_t)(size_t);
typedef unsigned (*ziserr_t)(size_t);
static zcompress_t z_compress;
static zbound_t z_bound;
static ziserr_t z_iserr;
static int z_state; /* 0 unknown, 1 ok, -1 none */

int phos_zstd_available(void) {
    if (z_state == 0) {
        void *h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
        if (h) {
            z_compress = (zcompress_t)dlsym(h, "ZSTD_compress");
            z_bound = (zbound_t)dlsym(h, "ZSTD_compressBound");
            z_iserr = (ziserr_t)dlsym(h, "ZSTD_isError");
        }
        z_state = (z_compress && z_bound && z_iserr) ? 1 : -1;
    }
    return z_state == 1;
}

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }

void phos_file_header(pbuf *out) {
    static const uint8_t magic[8] = {'P', 'H', 'O', 'S', '\r', '\n', 0x1a, '\n'};
    uint8_t h[16];
    memcpy(h, magic, 8);
    put32(h + 8, 1);
    put32(h + 12, 0);
    pb_raw(out, h, 16);
}

int phos_frame_chunk(pbuf *out, uint16_t type, const uint8_t *payload, size_t n, int compress) {
    if (n > PHOS_MAX_CHUNK) return -1;
    uint8_t codec = 0;
    const uint8_t *stored = payload;
    size_t stored_n = n;
    uint8_t *tmp = NULL;
    if (compress && n >= 512 && phos_zstd_available()) {
        size_t cap = z_bound(n);
        tmp = malloc(cap);
        if (tmp) {
            size_t c = z_compress(tmp, cap, payload, n, 3);
            if (!z_iserr(c) && c < n) { codec = 1; stored = tmp; stored_n = c; }
        }
    }
    uint8_t h[24];
    memcpy(h, "PCHK", 4);
    h[4] = (uint8_t)type;
    h[5] = (uint8_t)(type >> 8);
    h[6] = codec;
    h[7] = 0;
    put32(h + 8, (uint32_t)stored_n);
    put32(h + 12, (uint32_t)n);
    put32(h + 16, phos_crc32c(0, stored, stored_n));
    put32(h + 20, phos_crc32c(0, h, 20));
    if (pb_reserve(out, 24 + stored_n)) { free(tmp); return -1; }
    pb_raw(out, h, 24);
    pb_raw(out, stored, stored_n);
    free(tmp);
    return 0;
}

uint64_t phos_env_u64(const char *name, uint64_t d) {
    const char *v = getenv(name);
    if (!v || !*v) return d;
    char *e;
    unsigned long long x = strtoull(v, &e, 0);
    if (*e == 'k' || *e == 'K') x <<= 10;
    else if (*e == 'm' || *e == 'M') x <<= 20;
    else if (*e == 'g' || *e == 'G') x <<= 30;
    return x;
}

void phos_expand_pid(char *dst, size_t cap, const char *pattern) {
    size_t o = 0;
    for (const char *c = pattern; *c && o + 24 < cap; c++) {
        if (c[0] == '%' && c[1] == 'p') { o += (size_t)snprintf(dst + o, 24, "%d", (int)getpid()); c++; }
        else dst[o++] = *c;
    }
    dst[o] = 0;
}
