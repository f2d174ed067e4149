/* Progress lines on stderr for long runs: "[probe] 12/80 what". */
#ifndef GP_PROGRESS_H
#define GP_PROGRESS_H

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void gp_progress(const char *probe, int done, int total, const char *fmt, ...);
/* Silence progress (tests). */
void gp_progress_enable(int on);

#endif
