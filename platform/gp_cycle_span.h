/* Cycle counts over intervals longer than the counter can count.
 *
 * gfx11 has no s_memtime: clock64 there reads HW_REG_SHADER_CYCLES, a 20-bit
 * counter (s_getreg_b32 ..., hwreg(HW_REG_SHADER_CYCLES, 0, 20) in the ISA)
 * that wraps every 2^20 cycles, about 0.4 ms at 2.5 GHz.  A latency pass of
 * 65,536 dependent loads at 30 cycles is about 2M cycles: read once before
 * and once after, the pass wraps at least once and the difference of the two
 * reads is short by whole wraps, which nothing after can recover.
 *
 * A pass is therefore timed in laps: the counter is read after every block
 * of GP_CYCLE_LAP_WORK dependent operations (16 loads) and the masked
 * difference from the previous read is added to the total.  Each lap is far
 * shorter than a wrap (16 loads at 65,535 cycles each would still fit), and
 * the laps add up to the whole pass exactly, so the reads in between cost
 * nothing but their issue (SALU, not waited on).  Where the counter has 64
 * bits the kernels take no laps inside the loop (GP_CYCLE_LAP below): their
 * code is what it was, one read before and one after.
 *
 * Pure C with host and device qualifiers, so the unit tests drive the same
 * arithmetic with a fake counter that wraps (tests/unit/test_clock.c). */
#ifndef GP_CYCLE_SPAN_H
#define GP_CYCLE_SPAN_H

#if defined(__HIP__) || defined(__CUDACC__)
#define GP_CYCLE_HD __host__ __device__
#else
#define GP_CYCLE_HD
#endif

/* Dependent operations a kernel times between two reads of a narrow counter. */
#define GP_CYCLE_LAP_WORK 16

typedef struct gp_cycle_span {
    long long last;  /* the counter at the previous read */
    long long total; /* cycles summed over the laps so far */
} gp_cycle_span;

/* c1 - c0 for a counter of `bits` bits (64: a plain difference). */
static GP_CYCLE_HD inline long long gp_counter_delta(long long c0, long long c1, int bits)
{
    return bits < 64 ? (c1 - c0) & ((1ll << bits) - 1) : c1 - c0;
}

static GP_CYCLE_HD inline void gp_span_start(gp_cycle_span *s, long long now)
{
    s->last = now;
    s->total = 0;
}

/* Close a lap at counter value `now`: right while each lap is shorter than
 * 2^bits cycles. */
static GP_CYCLE_HD inline void gp_span_lap(gp_cycle_span *s, long long now, int bits)
{
    s->total += gp_counter_delta(s->last, now, bits);
    s->last = now;
}

#endif
