/* Launchers of math_functions.hip.  Op and precision ids are those of
 * common/math_functions_analysis.h. */
#ifndef GP_MATH_FUNCTIONS_H
#define GP_MATH_FUNCTIONS_H

#include "runtime.h"

int gp_math_lat_unroll(void);   /* chain steps per loop trip in the latency kernel */
int gp_math_tput_chains(void);  /* independent chains per thread in the throughput kernel */
int gp_math_tput_block(void);   /* threads per block of the throughput kernel */
/* One thread runs trips * gp_math_lat_unroll() dependent steps and writes the
 * elapsed core cycles to *cycles (device memory); out is device memory for
 * one double. */
gp_status gp_math_latency_launch(gp_stream s, int op, int prec, int trips, double x0, double c,
                                 double d, double k, void *out, long long *cycles);
/* grid blocks of gp_math_tput_block() threads, each trips * chains steps;
 * out is device memory for grid * block doubles. */
gp_status gp_math_throughput_launch(gp_stream s, int op, int prec, unsigned grid, int trips,
                                    double x0, double c, double d, double k, void *out);
gp_status gp_math_tput_blocks_per_cu(int op, int prec, int *blocks);

#endif
