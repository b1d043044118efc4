/* .phos trace format v1: framing, CRC-32C, FNV-1a and a minimal protobuf writer (docs/trace-format.md). */
#ifndef PHOS_FORMAT_H
#define PHOS_FORMAT_H
#include <stddef.h>
#include <stdint.h>

#define PHOS_CHUNK_HEADER 1
#define PHOS_CHUNK_MODULE 2
#define PHOS_CHUNK_FUNCTION 3
#define PHOS_CHUNK_EVENTS 4
#define PHOS_CHUNK_OBSERVED 5
#define PHOS_CHUNK_END 6
#define PHOS_CHUNK_EVENT_GAP 7      /* live attach stream only (rec_stream.c) */
#define PHOS_CHUNK_STREAM_START 8
#define PHOS_CHUNK_OBSERVED_GAP 9   /* i14-liveacc: live attach stream only: observations dropped for this reader */
#define PHOS_MAX_CHUNK (256u << 20)

uint32_t phos_crc32c(uint32_t crc, const void *data, size_t n);
uint64_t phos_fnv1a64(const void *data, size_t n);

/* growable byte buffer */
typedef struct { uint8_t *p; size_t n, cap; } pbuf;
void pb_reset(pbuf *b);
void pb_free(pbuf *b);
int pb_reserve(pbuf *b, size_t extra);
void pb_raw(pbuf *b, const void *d, size_t n);
void pb_varint(pbuf *b, uint64_t v);
/* proto3 fields: zero/empty values are omitted as protobuf does */
void pb_u64(pbuf *b, uint32_t field, uint64_t v);
void pb_bool(pbuf *b, uint32_t field, int v);
void pb_fixed64(pbuf *b, uint32_t field, uint64_t v);
void pb_bytes(pbuf *b, uint32_t field, const void *d, size_t n);   /* omitted when n == 0 */
void pb_str(pbuf *b, uint32_t field, const char *s);
void pb_msg(pbuf *b, uint32_t field, const pbuf *sub);            /* always written (even empty) */

/* optional zstd compression (dlopen("libzstd.so.1")); returns 1 when available */
int phos_zstd_available(void);
/* frame one chunk into out: codec 1 when compress && zstd available && it helps, else 0 */
int phos_frame_chunk(pbuf *out, uint16_t type, const uint8_t *payload, size_t n, int compress);
void phos_file_header(pbuf *out);

/* settings shared by the recorder and the sanitizer tool */
/* an environment variable as a number (0x.. and k/M/G suffixes allowed), or d when unset or empty */
uint64_t phos_env_u64(const char *name, uint64_t d);
/* copies an output path pattern into dst (cap bytes), each "%p" replaced by the process id */
void phos_expand_pid(char *dst, size_t cap, const char *pattern);
#endif
