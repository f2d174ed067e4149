/* Launchers of atomics.hip. */
#ifndef GP_ATOMICS_H
#define GP_ATOMICS_H

#include <stddef.h>
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where each thread's atomicAdds go. */
enum {
    GP_ATOM_SPREAD = 0,    /* global: own address, one per 128-byte line; LDS: own address (own bank) */
    GP_ATOM_WAVE = 1,      /* all lanes of a wave on one address */
    GP_ATOM_ALL = 2,       /* global: every thread of the grid on one address; LDS: every thread of a block */
    GP_ATOM_COALESCED = 3, /* global only: own address, consecutive addresses (32 per wave in 128 bytes) */
    GP_ATOM_MODES = 4
};

#define GP_ATOM_LINE_ELEMS 32 /* spread mode: one counter every 32 x 4 = 128 bytes */

/* Global atomics: every thread adds 1 (int32) or 1.0f (fp32) `iters` times to
 * counters[index(mode)].  counters must hold grid x block x 32 elements. */
gp_status gp_atom_global_launch(gp_stream s, int is_float, int mode, unsigned grid, int block, void *counters,
                                int iters);
/* LDS atomics: the same in a per-block shared array of `block` elements,
 * which each block then writes to out[blockIdx * block + t]. */
gp_status gp_atom_lds_launch(gp_stream s, int is_float, int mode, unsigned grid, int block, void *out, int iters);

#ifdef __cplusplus
}
#endif
#endif
