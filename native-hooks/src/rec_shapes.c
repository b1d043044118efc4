/* i15-shapes: the parameter bytes of the launch in progress, for the SASS-level tool (libphos_sanitizer.so).
 *
 * The Compute Sanitizer API's launch callback carries the function, grid and block but no parameter values. It runs
 * inside the real launch call, in the launching thread; when the recorder is preloaded too, that call is made by the
 * recorder's wrapper (launch_common, rec_wrap_exec.c), which holds the application's kernelParams or parameter
 * buffer. The wrapper names them in a thread-local for the duration of the real call; the tool asks for them here
 * and builds the launch's argument shape from them (sanitizer/phos_sanitizer_shape.h). */
#include "recorder.h"

__thread cur_launch_t t_cur_launch;

/* Copies the parameter bytes of the launch this thread is making (of `function`; any when NULL) into buf (cap bytes)
 * and returns their length; 0 when this thread is not inside a launch the recorder wraps, the function differs, its
 * parameter layout is unknown or the bytes exceed cap. layout, when not NULL, receives up to layout_cap pairs
 * (offset, size) of the parameters in order, *nparams their number (0 when the launch passed one parameter buffer
 * through `extra`: its layout is then unknown). Parameter bytes not covered by a parameter are zero. */
EXPORT uint32_t phos_recorder_launch_params(const void *function, void *buf, uint32_t cap, uint32_t *layout,
                                            uint32_t layout_cap, uint32_t *nparams) {
    cur_launch_t c = t_cur_launch;
    if (nparams) *nparams = 0;
    if (!c.f || (function && function != c.f) || !buf) return 0;
    if (c.extra) {
        void *pb = NULL;
        size_t n = 0;
        for (int i = 0; c.extra[i] != CU_LAUNCH_PARAM_END && i < 64; i += 2) {
            if (c.extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) pb = c.extra[i + 1];
            else if (c.extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE && c.extra[i + 1]) n = *(size_t *)c.extra[i + 1];
        }
        if (pb && n) {
            if (n > cap) return 0;
            memcpy(buf, pb, n);
            return (uint32_t)n;
        }
    }
    func_rec *fr = c.fr;
    if (!c.kp || !fr || !fr->param_bytes || fr->param_bytes > cap) return 0;
    memset(buf, 0, fr->param_bytes);
    for (uint32_t i = 0; i < fr->nparams; i++) {
        if (c.kp[i]) memcpy((uint8_t *)buf + fr->off[i], c.kp[i], fr->size[i]);
        if (layout && i < layout_cap) { layout[2 * i] = fr->off[i]; layout[2 * i + 1] = fr->size[i]; }
    }
    if (nparams) *nparams = fr->nparams < layout_cap || !layout ? fr->nparams : layout_cap;
    return fr->param_bytes;
}
