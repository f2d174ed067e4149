/* Nominal rate of AMD's constant-rate timer (s_memrealtime, read by HIP's
 * wall_clock64 and gp_timer) by target, for HIP versions whose runtime does
 * not report it (hipDeviceAttributeWallClockRate).  Pure C: no vendor API. */
#ifndef GP_TIMER_RATE_H
#define GP_TIMER_RATE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Rate in Hz for an AMD target name ("gfx900", "gfx90a", "gfx1100"), and in
 * *source where that figure comes from.  0 with a reason in *source for a
 * target the table does not know. */
double gp_amd_timer_hz(const char *arch, const char **source);

#ifdef __cplusplus
}
#endif
#endif
