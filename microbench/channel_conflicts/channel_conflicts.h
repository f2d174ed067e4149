/* Launchers of channel_conflicts.hip. */
#ifndef GP_CHANNEL_CONFLICTS_H
#define GP_CHANNEL_CONFLICTS_H

#include <stddef.h>
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Window read: the buffer is cut into rows of 2^row_log2 bytes and only the
 * first 2^win_log2 bytes of each row are read (16 bytes per thread access),
 * `rows` rows, `passes` times.  win_log2 >= 4, win_log2 <= row_log2. */
gp_status gp_chan_window_launch(gp_stream s, unsigned grid, int block, const void *buf, size_t rows,
                                int win_log2, int row_log2, int passes, unsigned magic, unsigned *out);

/* Column strips: a rows x ld float matrix, of which the first `cols` columns
 * are read a wave-wide strip at a time, each wave walking down the rows
 * (the grid reads the same strip of many rows at once).  cols must be a
 * multiple of the wave size. */
gp_status gp_chan_ld_launch(gp_stream s, unsigned grid, int block, const float *a, int rows, int cols,
                            int ld, int passes, float magic, float *out);

#ifdef __cplusplus
}
#endif
#endif
