/* The staged padding kernel's index math (planes_per_block > 0), shared by
 * the kernel (padding.hip) and the unit test's CPU emulation of every block
 * (tests/unit/test_padding.c).
 *
 * Block b owns planes [b P, b P + np), np = min(P, planes - b P).  Their
 * input is np h w contiguous floats and their output np ho wo contiguous
 * floats; with P a multiple of 4 both start on a 16-byte boundary (given 16-
 * byte aligned arrays).  Phase 1 reads the input into shared memory with
 * 16-byte loads (the last block's odd tail with 4-byte ones); after one
 * barrier phase 2 writes the output in groups of 4 (one 16-byte store each,
 * the last block's partial group element by element), each group's values
 * gathered from shared memory, zeros outside the input. */
#ifndef GP_PADDING_STAGED_H
#define GP_PADDING_STAGED_H

#include "fastdiv.h"

/* Shared memory a block's input planes may take: the 48 KiB every target
 * grants a block without opting in. */
#define GP_PADDING_STAGED_LDS 49152
#define GP_PADDING_MAX_PLANES 128
/* The plane the rule sizes planes_per_block for (padding_rule.c): the
 * headline problem's 7 x 7 fp32 input plane, 196 B (rows of 28 B, under a
 * 32 B sector).  The host stages a problem only when its input plane is at
 * most this: then P of its planes are at most the bytes in flight the rule
 * asked for and the shared memory the occupancy was modelled at; a larger
 * plane (56 x 56: 12544 B) runs flat, where the flat kernel's row gathers
 * already read whole sectors (measured: flat 0.998 of the copy, staged
 * 0.82-0.84 on 64x64x56x56, H200 2026-11-24). */
#define GP_PADDING_STAGED_REF_H 7
#define GP_PADDING_STAGED_REF_W 7
#define GP_PADDING_STAGED_PLANE_BYTES (GP_PADDING_STAGED_REF_H * GP_PADDING_STAGED_REF_W * 4)

typedef struct gp_padding_geom {
    unsigned h, w, ho, wo, howo;
    unsigned planes; /* n c */
    int top, left;
    gp_fastdiv by_howo, by_wo;
} gp_padding_geom;

/* Planes of block b. */
static GP_FASTDIV_HD unsigned gp_padding_staged_np(unsigned b, unsigned P, unsigned planes)
{
    const unsigned p0 = b * P;
    return planes - p0 < P ? planes - p0 : P;
}

/* The 4 outputs of the group starting at element e0 (a multiple of 4,
 * counted from the block's first output) from the block's input planes in
 * s; elements at or past nout (the block's outputs) are 0 and read nothing. */
static GP_FASTDIV_HD void gp_padding_staged_group(const float *s, unsigned e0, unsigned nout, const gp_padding_geom *g,
                                               float r[4])
{
    unsigned pl = gp_fastdiv_apply(e0, g->by_howo);
    const unsigned q = e0 - pl * g->howo;
    unsigned oy = gp_fastdiv_apply(q, g->by_wo), ox = q - oy * g->wo;
    for (int k = 0; k < 4; k++) {
        const int iy = (int)oy - g->top, ix = (int)ox - g->left;
        const int inside = (unsigned)iy < g->h && (unsigned)ix < g->w && e0 + (unsigned)k < nout;
        r[k] = inside ? s[(pl * g->h + (unsigned)iy) * g->w + (unsigned)ix] : 0.0f;
        if (++ox == g->wo) {
            ox = 0;
            if (++oy == g->ho)
                oy = 0, pl++;
        }
    }
}

#endif
