/* Division by a run-time constant as a multiply and a shift (the divisor is
 * fixed per launch, the dividend varies per thread).  For 1 <= d < 2^31 and
 * s = floor(log2 d), m = ceil(2^(32+s) / d) <= 2^32 and, for every
 * 0 <= x < 2^31, floor(x m / 2^(32+s)) = floor(x / d): the error of m is
 * e = m d - 2^(32+s) < d <= 2^(s+1), so x e < 2^(32+s) (Granlund and
 * Montgomery, "Division by invariant integers using multiplication", PLDI
 * 1994, the round-up method).  x m < 2^63 fits the 64-bit product. */
#ifndef GP_PADDING_DIV_H
#define GP_PADDING_DIV_H

typedef struct gp_padding_div {
    unsigned long long mul;
    unsigned shift; /* 32 + s */
} gp_padding_div;

static inline gp_padding_div gp_padding_divider(unsigned d)
{
    gp_padding_div r;
    unsigned s = 0;
    while (s < 31 && (2u << s) <= d)
        s++;
    unsigned long long num = 1ull << (32 + s);
    r.mul = (num + d - 1) / d;
    r.shift = 32 + s;
    return r;
}

#endif
