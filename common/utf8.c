#define _POSIX_C_SOURCE 200809L
#include "utf8.h"

#include <string.h>

size_t gp_utf8_seq(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    if (n == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (len == 0 || s[0] > 0xf4 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if (len == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
        return 0; /* overlong, or a UTF-16 surrogate */
    if (len == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
        return 0; /* overlong, or above U+10FFFF */
    return len;
}

int gp_utf8_text_ok(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        const unsigned char c = (unsigned char)s[i];
        size_t k = gp_utf8_seq(s + i, n - i);
        if (k == 0 || (c < 0x20 && c != '\t') || c == 0x7f || (c == 0xc2 && (unsigned char)s[i + 1] < 0xa0))
            return 0; /* ill-formed, or a C0, DEL or C1 (U+0080..U+009F) control */
        i += k;
    }
    return 1;
}

size_t gp_utf8_put(FILE *f, const char *s)
{
    size_t k = gp_utf8_seq(s, strnlen(s, 4));
    unsigned char c = (unsigned char)s[0];
    if (k == 0 || c == 0x7f || (c == 0xc2 && (unsigned char)s[1] < 0xa0)) {
        fputs("\xef\xbf\xbd", f);
        return k ? k : 1;
    }
    fwrite(s, 1, k, f);
    return k;
}
