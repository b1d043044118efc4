#include "recorder.h"
#include <dirent.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ Triton's PTX beside a loaded cubin (i15-cost)
 * Triton compiles to PTX, then to a cubin, and loads the cubin (cuModuleLoadData): the driver never sees the PTX. Its
 * cache keeps both side by side (<cache>/<hash>/<kernel>.cubin and <kernel>.ptx). When a CUBIN module is written,
 * the writer looks for a cache file with the same size and FNV-1a 64 hash as the loaded image and, when one matches,
 * stores the .ptx of the same stem in the Module chunk (field 20, origin path in field 21), so PTX analysis can run
 * on Triton kernels. Cache: $TRITON_CACHE_DIR, else $TRITON_HOME/.triton/cache, else $HOME/.triton/cache;
 * PHOS_TRITON_PTX=0 turns the lookup off. Runs on the writer thread only (never on the program's threads). */

static uint64_t file_hash(const char *path, uint64_t size) {
    size_t n = 0;
    uint8_t *b = read_file(path, &n);
    if (!b) return 0;
    uint64_t h = n == size ? phos_fnv1a64(b, n) : 0;
    free(b);
    return h;
}

static int cache_dir(char *dir, size_t cap) {
    const char *e = getenv("TRITON_CACHE_DIR");
    if (e && *e) return snprintf(dir, cap, "%s", e) < (int)cap;
    e = getenv("TRITON_HOME");
    if (!e || !*e) e = getenv("HOME");
    if (!e || !*e) return 0;
    return snprintf(dir, cap, "%s/.triton/cache", e) < (int)cap;
}

/* the PTX of a loaded cubin from Triton's cache, or NULL; *src gets the .ptx path (caller frees both) */
uint8_t *triton_ptx_for(uint64_t image_size, uint64_t hash, size_t *len, char **src) {
    static int off = -1;
    if (off < 0) off = !phos_env_u64("PHOS_TRITON_PTX", 1);
    if (off || !image_size) return NULL;
    char root[PATH_MAX];
    if (!cache_dir(root, sizeof root)) return NULL;
    DIR *d = opendir(root);
    if (!d) return NULL;
    uint8_t *found = NULL;
    struct dirent *e;
    char sub[PATH_MAX], path[PATH_MAX];
    while (!found && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (snprintf(sub, sizeof sub, "%s/%s", root, e->d_name) >= (int)sizeof sub) continue;
        DIR *s = opendir(sub);
        if (!s) continue;
        struct dirent *f;
        while (!found && (f = readdir(s))) {
            size_t l = strlen(f->d_name);
            if (l < 7 || strcmp(f->d_name + l - 6, ".cubin")) continue;
            if (snprintf(path, sizeof path, "%s/%s", sub, f->d_name) >= (int)sizeof path) continue;
            struct stat st;
            if (stat(path, &st) || (uint64_t)st.st_size != image_size || file_hash(path, image_size) != hash) continue;
            memcpy(path + strlen(path) - 6, ".ptx", 5);
            size_t n = 0;
            uint8_t *p = read_file(path, &n);
            if (p && n) { found = p; *len = n; *src = strdup(path); }
            else free(p);
        }
        closedir(s);
    }
    closedir(d);
    return found;
}
