/* The library's context: the kernels in an application, with their
 * parameters from the device's measured table for each call's shape.
 *
 * Open one context per device, once; it finds the device's tuning table, in
 * this order, and says which it took and why (gp_context_table_said):
 *   1. the table given (gp_context_opts.table), else $GP_TABLE;
 *   2. the device's own measured table in the per-device cache that
 *      `gpuprobe characterize` fills:
 *      <cache>/gpuprobe/<bus>_<uuid8>/table.txt, <cache> being
 *      opts.cache_dir, else $XDG_CACHE_HOME, else ~/.cache;
 *   3. the shipped table of the device's architecture (tables/<arch>, found
 *      as common/tables_dir.h says);
 *   4. the shipped generic table.
 * A table given (1) that does not load, or any table written for another
 * architecture, is an error naming it, not a reason to fall through.
 *
 * Each kernel's call (gp_ssim, gp_reduce_sum_f32, ...: the kernels' headers)
 * takes the context, device pointers and a stream; it is asynchronous,
 * allocates nothing and never synchronizes; it refuses bad arguments before
 * anything is launched and returns a gp_status, never aborts.  The
 * parameters of a call come from the one shape path (gp_kernel_params,
 * kernel.h) for the call's shape, computed once per shape and kept in the
 * context.  A context may be used from several threads at once, each on its
 * own stream. */
#ifndef GP_CONTEXT_H
#define GP_CONTEXT_H

#include "gp_status.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gp_kernel;
struct gp_shape;
struct gp_table;

typedef struct gp_context gp_context;

typedef struct gp_context_opts {
    int device;              /* device ordinal (0: the first) */
    const char *table;       /* a tuning table to use (NULL: $GP_TABLE, then the lookup above) */
    const char *tables_dir;  /* the shipped tables (NULL: $GP_TABLES_DIR, beside the library, ...) */
    const char *cache_dir;   /* the per-device cache's root (NULL: $XDG_CACHE_HOME, else ~/.cache) */
} gp_context_opts;

/* Where the table came from (the order above). */
typedef enum {
    GP_CONTEXT_TABLE_GIVEN,
    GP_CONTEXT_TABLE_ENV,
    GP_CONTEXT_TABLE_CACHE,
    GP_CONTEXT_TABLE_SHIPPED,
    GP_CONTEXT_TABLE_GENERIC
} gp_context_table_from;

/* Open device opts->device (opts NULL: device 0, the lookup above).
 * GP_ERR_NO_GPU without a GPU; GP_ERR_USAGE for a device this build has no
 * code for (naming the targets it has) or a table that does not load. */
gp_status gp_context_open(const gp_context_opts *opts, gp_context **ctx);
void gp_context_close(gp_context *ctx);
/* The same for the device described by dev, opened already (or a fake one
 * in the unit tests): the table lookup and the parameter sets, no device
 * call. */
gp_status gp_context_open_for(const gp_device_info *dev, const gp_context_opts *opts, gp_context **ctx);

const gp_device_info *gp_context_device(const gp_context *ctx);
/* The device index the context's calls make current (gp_context_open), or
 * -1 for a context made with gp_context_open_for, which switches nothing;
 * plans made for a context keep it for their runs. */
int gp_context_bound_device(const gp_context *ctx);
const struct gp_table *gp_context_table(const gp_context *ctx);
gp_context_table_from gp_context_table_source(const gp_context *ctx);
/* "measured: the per-device cache /home/me/.cache/gpuprobe/0000-3b-00.0_8c5f1a2b/table.txt". */
const char *gp_context_table_said(const gp_context *ctx);

/* The parameters of kernel k for shape s (into p, k->params_size bytes):
 * the kept ones when this shape was seen before, else the one path's,
 * kept.  Thread-safe. */
gp_status gp_context_params(gp_context *ctx, const struct gp_kernel *k, const struct gp_shape *s, void *p);
/* The same for the kernels whose shape is a count and options (reduce,
 * scan, histogram: d[0] = n, opt[0] and opt[1]); GP_ERR_USAGE without a
 * context. */
gp_status gp_context_params_of_count(gp_context *ctx, const struct gp_kernel *k, size_t n, int opt0, int opt1,
                                     void *p);

/* How many shapes the context has parameters for (all kernels); past
 * GP_CONTEXT_MAX_SHAPES the kept sets are forgotten and derived again. */
#define GP_CONTEXT_MAX_SHAPES 65536
int gp_context_nshapes(const gp_context *ctx);

/* The per-device cache file of dev under cache_dir (NULL: $XDG_CACHE_HOME,
 * else $HOME/.cache), <root>/gpuprobe/<bus>_<uuid8>/table.txt, into out (n
 * bytes); GP_ERR_USAGE when neither cache_dir, XDG_CACHE_HOME nor HOME
 * says where. */
gp_status gp_context_cache_path(const char *cache_dir, const gp_device_info *dev, char *out, size_t n);

/* Copy the measured table at `table` into dev's per-device cache (under
 * cache_dir, NULL: as above), written whole or not at all; the path it went
 * to in stored (n bytes).  What `characterize` and `tune` do with the table
 * they end with (not with --quick, nor with GP_NO_CACHE set), so a context
 * opened later on this GPU finds it. */
gp_status gp_context_cache_store(const char *cache_dir, const gp_device_info *dev, const char *table, char *stored,
                                 size_t n);

#ifdef __cplusplus
}
#endif
#endif
