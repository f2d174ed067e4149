/* Shared by the kernels (padding, batchnorm).  Division by a run-time constant as a multiply and a shift (the divisor is
 * fixed per launch, the dividend varies per thread).  For 1 <= d < 2^31 and
 * s = floor(log2 d), m = ceil(2^(32+s) / d) <= 2^32 and, for every
 * 0 <= x < 2^31, floor(x m / 2^(32+s)) = floor(x / d): the error of m is
 * e = m d - 2^(32+s) < d <= 2^(s+1), so x e < 2^(32+s) (Granlund and
 * Montgomery, "Division by invariant integers using multiplication", PLDI
 * 1994, the round-up method).  x m < 2^63 fits the 64-bit product. */
#ifndef GP_FASTDIV_H
#define GP_FASTDIV_H

typedef struct gp_fastdiv {
    unsigned long long mul;
    unsigned shift; /* 32 + s */
} gp_fastdiv;

static inline gp_fastdiv gp_fastdiv_make(unsigned d)
{
    gp_fastdiv r;
    unsigned s = 0;
    while (s < 31 && (2u << s) <= d)
        s++;
    unsigned long long num = 1ull << (32 + s);
    r.mul = (num + d - 1) / d;
    r.shift = 32 + s;
    return r;
}

/* floor(x / d) for 0 <= x < 2^31; on the host (tests) and the device. */
#if defined(__CUDACC__) || defined(__HIP__)
#define GP_FASTDIV_HD __host__ __device__ inline
#else
#define GP_FASTDIV_HD inline
#endif
static GP_FASTDIV_HD unsigned gp_fastdiv_apply(unsigned x, gp_fastdiv d)
{
    return (unsigned)(((unsigned long long)x * d.mul) >> d.shift);
}

#endif
