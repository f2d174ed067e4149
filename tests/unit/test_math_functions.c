#include <string.h>

#include "gp_test.h"
#include "math_functions_analysis.h"

GP_TEST(math_functions_keys_and_ids)
{
    char buf[64];
    GP_CHECK(gp_math_key(buf, sizeof buf, GP_MF_SIN, GP_MF_F32, "latency_cycles") != NULL);
    GP_CHECK(strcmp(buf, "sin_f32_latency_cycles") == 0);
    GP_CHECK(gp_math_key(buf, sizeof buf, GP_MF_SIN, GP_MF_F32FAST, "per_cycle_per_cu") != NULL);
    GP_CHECK(strcmp(buf, "sin_f32fast_per_cycle_per_cu") == 0);
    GP_CHECK(gp_math_key(buf, sizeof buf, GP_MF_RSQRT, GP_MF_F64, "latency_cycles") != NULL);
    GP_CHECK(strcmp(buf, "rsqrt_f64_latency_cycles") == 0);
    GP_CHECK(gp_math_key(buf, sizeof buf, GP_MF_NOPS, GP_MF_F32, "x") == NULL);
    GP_CHECK(gp_math_key(buf, sizeof buf, GP_MF_SIN, 3, "x") == NULL);
    GP_CHECK(gp_math_key(buf, 8, GP_MF_SIN, GP_MF_F32, "latency_cycles") == NULL);
    GP_CHECK(strcmp(gp_math_op_name(GP_MF_DIV), "div") == 0);
    GP_CHECK(gp_math_op_name(-1) == NULL);
    return 0;
}

/* Run each chain on the CPU as the kernel does: it must stay finite and in the
 * function's domain (and, for sin/cos, away from large-argument reduction). */
static double apply(int op, double x, double k)
{
    switch (op) {
    case GP_MF_SIN: return sin(x);
    case GP_MF_COS: return cos(x);
    case GP_MF_EXP: return exp(x);
    case GP_MF_LOG: return log(x);
    case GP_MF_SQRT: return sqrt(x);
    case GP_MF_RSQRT: return 1.0 / sqrt(x);
    case GP_MF_DIV: return k / x;
    default: return x;
    }
}

GP_TEST(math_functions_chains_stay_in_domain)
{
    for (int op = 0; op < GP_MF_NOPS; op++) {
        double x0, c, d, k;
        GP_CHECK(gp_math_chain_params(op, &x0, &c, &d, &k));
        /* The throughput kernel offsets each chain's start a little. */
        for (int j = 0; j < 8; j++) {
            double x = x0 + 1e-3 * j;
            for (int i = 0; i < 100000; i++) {
                int positive_domain = op == GP_MF_LOG || op == GP_MF_SQRT || op == GP_MF_RSQRT ||
                                      op == GP_MF_DIV;
                GP_CHECK(isfinite(x));
                GP_CHECK(!positive_domain || x > 0.1);
                GP_CHECK(fabs(x) < 100.0);
                x = apply(op, x, k) * c + d;
            }
        }
    }
    double x0, c, d, k;
    GP_CHECK(!gp_math_chain_params(GP_MF_NOPS, &x0, &c, &d, &k));
    return 0;
}

GP_TEST(math_functions_latency_and_throughput_arithmetic)
{
    GP_CHECK_NEAR(gp_math_net_latency(24.0, 4.0), 20.0, 1e-12);
    GP_CHECK(isnan(gp_math_net_latency(NAN, 4.0)));
    GP_CHECK(isnan(gp_math_net_latency(0.0, 4.0)));
    /* 132 CUs at 1980 MHz doing 16 ops/cycle each for 10 ms. */
    double ops = 16.0 * 132 * 1980e6 * 10e-3;
    GP_CHECK_NEAR(gp_math_per_cycle_per_cu(ops, 10.0, 1980.0, 132), 16.0, 1e-9);
    GP_CHECK(isnan(gp_math_per_cycle_per_cu(ops, 0.0, 1980.0, 132)));
    GP_CHECK(isnan(gp_math_per_cycle_per_cu(ops, 10.0, 1980.0, 0)));
    return 0;
}

GP_TEST(math_functions_fast_vs_precise)
{
    /* Fast at 16/clk vs precise at 4/clk: fine. */
    GP_CHECK(!gp_math_fast_is_slower(16, 4, 18, 40, 0.2));
    /* Within 20%: not flagged (noise, or both the same instruction). */
    GP_CHECK(!gp_math_fast_is_slower(14, 16, 22, 20, 0.2));
    /* Throughput 30% lower, or latency 50% higher: flagged. */
    GP_CHECK(gp_math_fast_is_slower(10, 16, 20, 20, 0.2));
    GP_CHECK(gp_math_fast_is_slower(16, 16, 30, 20, 0.2));
    /* Missing numbers are "nothing detected", not a finding. */
    GP_CHECK(!gp_math_fast_is_slower(NAN, 16, NAN, 20, 0.2));
    return 0;
}
