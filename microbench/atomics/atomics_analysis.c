#include "atomics_analysis.h"

#include "atomics.h"

size_t gp_atomics_slot(int lds, int mode, size_t gid, int block, int wave)
{
    if (lds) {
        size_t b = gid / (size_t)block, t = gid % (size_t)block;
        return b * (size_t)block + (mode == GP_ATOM_SPREAD ? t : mode == GP_ATOM_WAVE ? t / (size_t)wave : 0);
    }
    return mode == GP_ATOM_SPREAD ? gid * GP_ATOM_LINE_ELEMS
         : mode == GP_ATOM_WAVE   ? (gid / (size_t)wave) * GP_ATOM_LINE_ELEMS
         : mode == GP_ATOM_ALL    ? 0
                                  : gid;
}

double gp_atomics_adds_per_address(int lds, int mode, double grid, int block, int wave)
{
    switch (mode) {
    case GP_ATOM_WAVE: return (double)wave;
    case GP_ATOM_ALL: return lds ? (double)block : grid * block;
    default: return 1.0;
    }
}
