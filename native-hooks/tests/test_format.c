/* Unit checks of the format primitives (CRC-32C, FNV-1a, varints, chunk framing) and a small trace written
 * with them; tests/run_tests.py parses that trace with tools/phos_read.py. Usage: test_format OUT.phos CODEC */
#include "phos_format.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails, passes;
#define EXPECT(c, msg) do { if (c) passes++; else { fails++; printf("FAIL %s\n", msg); } } while (0)

int main(int argc, char **argv) {
    EXPECT(phos_crc32c(0, "123456789", 9) == 0xE3069283u, "crc32c check value");
    EXPECT(phos_crc32c(phos_crc32c(0, "1234", 4), "56789", 5) == 0xE3069283u, "crc32c incremental");
    EXPECT(phos_fnv1a64("", 0) == 0xcbf29ce484222325ull, "fnv1a64 empty");
    EXPECT(phos_fnv1a64("a", 1) == 0xaf63dc4c8601ec8cull, "fnv1a64 'a'");
    pbuf b = {0};
    pb_varint(&b, 300);
    EXPECT(b.n == 2 && b.p[0] == 0xAC && b.p[1] == 0x02, "varint 300");
    pb_reset(&b);
    pb_u64(&b, 1, 0);
    EXPECT(b.n == 0, "proto3 zero omitted");
    pb_u64(&b, 2, 150);
    EXPECT(b.n == 3 && b.p[0] == 0x10 && b.p[1] == 0x96 && b.p[2] == 0x01, "field 2 = 150");
    pb_reset(&b);
    pb_fixed64(&b, 4, 0x0102030405060708ull);
    EXPECT(b.n == 9 && b.p[0] == 0x21 && b.p[1] == 0x08 && b.p[8] == 0x01, "fixed64 little-endian");
    pb_reset(&b);
    pb_varint(&b, UINT64_MAX);
    EXPECT(b.n == 10 && b.p[9] == 0x01, "varint max");

    /* a small trace: header, TraceHeader, Module, EventBatch of 3 launches, TraceEnd */
    int codec = argc > 2 ? atoi(argv[2]) : 0;
    pbuf out = {0}, m = {0}, ev = {0}, body = {0}, batch = {0};
    phos_file_header(&out);
    pb_u64(&m, 1, 1);
    pb_str(&m, 2, "test_format");
    pb_u64(&m, 5, 4242);
    pb_bytes(&m, 6, "prog", 4);
    pb_bytes(&m, 6, "arg", 3);
    pb_str(&m, 12, "CLOCK_MONOTONIC");
    EXPECT(phos_frame_chunk(&out, PHOS_CHUNK_HEADER, m.p, m.n, 0) == 0, "frame header");
    pb_reset(&m);
    static char img[4096];
    for (size_t i = 0; i < sizeof img; i++) img[i] = "ptx text "[i % 9];
    pb_u64(&m, 1, 1);
    pb_u64(&m, 2, 1);
    pb_bytes(&m, 3, img, sizeof img);
    pb_fixed64(&m, 4, phos_fnv1a64(img, sizeof img));
    pb_str(&m, 5, "cuModuleLoadData");
    pb_u64(&m, 6, sizeof img);
    EXPECT(phos_frame_chunk(&out, PHOS_CHUNK_MODULE, m.p, m.n, codec) == 0, "frame module");
    pb_u64(&batch, 1, 0);
    for (int i = 0; i < 3; i++) {
        pb_reset(&body);
        pb_u64(&body, 1, 7);
        pb_u64(&body, 2, (uint64_t)(i + 1));
        uint8_t params[12] = {1, 2, 3, 4, 5, 6, 7, 8, (uint8_t)i, 0, 0, 0};
        pb_bytes(&body, 10, params, sizeof params);
        pb_reset(&ev);
        pb_u64(&ev, 1, 1000u * (uint64_t)(i + 1));
        pb_u64(&ev, 2, 1);
        pb_msg(&ev, 14, &body);
        pb_msg(&batch, 2, &ev);
    }
    EXPECT(phos_frame_chunk(&out, PHOS_CHUNK_EVENTS, batch.p, batch.n, codec) == 0, "frame events");
    pb_reset(&m);
    pb_u64(&m, 1, 3);
    EXPECT(phos_frame_chunk(&out, PHOS_CHUNK_END, m.p, m.n, 0) == 0, "frame end");
    /* the chunk header CRC covers bytes 0..19 */
    uint32_t hc;
    memcpy(&hc, out.p + 16 + 20, 4);
    EXPECT(hc == phos_crc32c(0, out.p + 16, 20), "chunk header crc");
    if (codec) EXPECT(phos_zstd_available(), "zstd available for codec 1");
    FILE *f = fopen(argc > 1 ? argv[1] : "t.phos", "wb");
    fwrite(out.p, 1, out.n, f);
    fclose(f);
    printf("test_format: %d passed, %d failed\n", passes, fails);
    return fails != 0;
}
