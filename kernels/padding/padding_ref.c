/* padding CPU reference: the definition, plane by plane. */
#include <string.h>

#include "padding.h"

void gp_padding_ref_f32(const float *in, float *out, const gp_padding_shape *s)
{
    const int ho = gp_padding_out_h(s), wo = gp_padding_out_w(s);
    const size_t planes = (size_t)s->n * (size_t)s->c;
    for (size_t p = 0; p < planes; p++) {
        const float *src = in + p * (size_t)s->h * s->w;
        float *dst = out + p * (size_t)ho * wo;
        memset(dst, 0, (size_t)ho * wo * sizeof(float));
        for (int y = 0; y < s->h; y++)
            memcpy(dst + (size_t)(y + s->top) * wo + s->left, src + (size_t)y * s->w, (size_t)s->w * sizeof(float));
    }
}
