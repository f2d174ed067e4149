/* UTF-8 as gpuprobe accepts it in text it shows: device names from the
 * runtime and tables ("Radeon™"), and anything a record or a CSV carries
 * into a page. */
#ifndef GP_UTF8_H
#define GP_UTF8_H

#include <stddef.h>
#include <stdio.h>

/* The length (1..4) of the well-formed UTF-8 sequence at s[0..n) (no
 * overlong form, no surrogate, nothing above U+10FFFF), or 0. */
size_t gp_utf8_seq(const char *s, size_t n);
/* 1 when s is well-formed UTF-8 without control characters (C0, DEL, C1;
 * a tab is allowed): text a table or a page may hold as it is. */
int gp_utf8_text_ok(const char *s);

/* Write the character at s (s[0] >= 0x7f) to f as a page may show it: a
 * well-formed sequence as it is, an ill-formed byte, DEL or a C1 control
 * as U+FFFD (the replacement character).  Returns the bytes of s it took
 * (>= 1).  The page writers call it for every byte above ASCII, so no
 * record, CSV or table can put bytes a browser or an editor chokes on into
 * report.html or report.md. */
size_t gp_utf8_put(FILE *f, const char *s);

#endif
