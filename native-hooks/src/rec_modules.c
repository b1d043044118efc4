#include "recorder.h"

/* ------------------------------------------------------------------ modules */
static atomic_uint module_counter;

/* hook for the SASS-level tool (native-hooks/sanitizer): it learns the ring position of each recorded launch from the
   launching thread, and turns positions into event indices (positions minus the Module slots before them, which are
   not events). Set with phos_recorder_set_launch_hook; nothing happens while no hook is set. */
_Atomic(phos_launch_hook_fn) launch_hook;
uint64_t *module_pos;      /* ring positions of Module slots, under reg_mu */
size_t module_pos_n, module_pos_cap;

/* size of an image handed to the driver: fatbin wrapper, fatbin, ELF, or NUL-terminated PTX */
const uint8_t *image_extent(const void *img, uint64_t *size, int *kind) {
    const uint8_t *p = img;
    uint32_t m;
    memcpy(&m, p, 4);
    if (m == 0x466243B1u) { /* __fatBinC_Wrapper_t {int magic; int version; const void *data; void *filename} */
        const void *data;
        memcpy(&data, p + 8, sizeof data);
        p = data;
        memcpy(&m, p, 4);
    }
    if (m == 0xBA55ED50u) {
        uint16_t hs;
        uint64_t fs;
        memcpy(&hs, p + 6, 2);
        memcpy(&fs, p + 8, 8);
        *size = hs + fs;
        *kind = 3;
        return p;
    }
    if (p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F' && p[4] == 2) {
        uint64_t shoff, phoff;
        uint16_t phentsize, phnum, shentsize, shnum;
        memcpy(&phoff, p + 0x20, 8);
        memcpy(&shoff, p + 0x28, 8);
        memcpy(&phentsize, p + 0x36, 2);
        memcpy(&phnum, p + 0x38, 2);
        memcpy(&shentsize, p + 0x3A, 2);
        memcpy(&shnum, p + 0x3C, 2);
        uint64_t end = 64;
        if (shoff + (uint64_t)shentsize * shnum > end) end = shoff + (uint64_t)shentsize * shnum;
        if (phoff + (uint64_t)phentsize * phnum > end) end = phoff + (uint64_t)phentsize * phnum;
        for (unsigned i = 0; i < shnum && shentsize >= 64; i++) {
            const uint8_t *sh = p + shoff + (uint64_t)i * shentsize;
            uint32_t type;
            uint64_t off, sz;
            memcpy(&type, sh + 4, 4);
            memcpy(&off, sh + 0x18, 8);
            memcpy(&sz, sh + 0x20, 8);
            if (type != 8 /* NOBITS */ && off + sz > end) end = off + sz;
        }
        *size = end;
        *kind = 2;
        return p;
    }
    *size = strlen((const char *)p);
    *kind = 1;
    return p;
}

void emit_module(void *handle, const void *img, size_t known_size, int known_kind, const char *origin) {
    if (atomic_load(&g_state) == 3) return;
    module_rec *r = calloc(1, sizeof *r);
    if (!r) return;
    const uint8_t *p = img;
    uint64_t size = known_size;
    int kind = known_kind;
    if (img && !known_size) p = image_extent(img, &size, &kind);
    r->id = atomic_fetch_add(&module_counter, 1) + 1;
    r->kind = kind;
    r->image_size = size;
    r->hash = p ? phos_fnv1a64(p, size) : 0;
    r->origin = origin;
    if (p && size <= cfg.image_limit) {
        r->image = malloc(size ? size : 1);
        if (r->image) { memcpy(r->image, p, size); r->stored = size; }
    }
    pthread_mutex_lock(&reg_mu);
    kv_t *e = kv_put(&module_ids, (uint64_t)(uintptr_t)handle);
    if (e) e->val = r->id;
    if (!strncmp(origin, "cuLibrary", 9) && (e = kv_put(&library_ids, (uint64_t)(uintptr_t)handle))) e->val = r->id;
    pthread_mutex_unlock(&reg_mu);
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_MODULE, mono_ns());
    if (!s) { free(r->image); free(r); return; }
    s->ptr = r;
    slot_commit(pos, s);
    pthread_mutex_lock(&reg_mu);
    if (module_pos_n == module_pos_cap) {
        size_t nc = module_pos_cap ? module_pos_cap * 2 : 64;
        uint64_t *np = realloc(module_pos, nc * sizeof *np);
        if (np) { module_pos = np; module_pos_cap = nc; }
    }
    if (module_pos_n < module_pos_cap) module_pos[module_pos_n++] = pos;
    pthread_mutex_unlock(&reg_mu);
}

void *read_file(const char *path, size_t *n) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    size_t cap = 4096, len = 0;
    char *b = malloc(cap + 1);
    for (;;) {
        if (!b) break;
        if (len == cap) { char *nb = realloc(b, cap * 2 + 1); if (!nb) { free(b); b = NULL; break; } b = nb; cap *= 2; }
        ssize_t r = read(fd, b + len, cap - len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        len += (size_t)r;
    }
    close(fd);
    if (b) { b[len] = 0; *n = len; }
    return b;
}

void remember_handle(void *h, uint32_t module_id, const char *name) {
    pthread_mutex_lock(&reg_mu);
    kv_t *e = kv_put(&handle_info, (uint64_t)(uintptr_t)h);
    if (e) {
        e->val = module_id;
        if (!e->ptr && name) e->ptr = strdup(name);
    }
    pthread_mutex_unlock(&reg_mu);
}
uint32_t module_id_of(void *handle) {
    pthread_mutex_lock(&reg_mu);
    kv_t *e = kv_find(&module_ids, (uint64_t)(uintptr_t)handle);
    uint32_t id = e ? (uint32_t)e->val : 0;
    pthread_mutex_unlock(&reg_mu);
    return id;
}
