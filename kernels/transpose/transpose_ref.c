/* transpose CPU reference: out[c][r] = in[r][c], blocked so the large bench
 * matrices (8192 x 8192) transpose in a fraction of a second. */
#include "transpose.h"

#define REF_BLOCK 32

void gp_transpose_ref_f32(const float *in, float *out, size_t rows, size_t cols)
{
    for (size_t r0 = 0; r0 < rows; r0 += REF_BLOCK) {
        size_t r1 = r0 + REF_BLOCK < rows ? r0 + REF_BLOCK : rows;
        for (size_t c0 = 0; c0 < cols; c0 += REF_BLOCK) {
            size_t c1 = c0 + REF_BLOCK < cols ? c0 + REF_BLOCK : cols;
            for (size_t r = r0; r < r1; r++)
                for (size_t c = c0; c < c1; c++)
                    out[c * rows + r] = in[r * cols + c];
        }
    }
}
