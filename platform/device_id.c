#include "device_id.h"

#include <stdio.h>
#include <string.h>

static void say(char *why, size_t n, const char *text)
{
    if (why && n)
        snprintf(why, n, "%s", text);
}

int gp_uuid_format(const unsigned char *raw, int amd, char *out, size_t n, char *why, size_t nwhy)
{
    if (n)
        out[0] = '\0';
    say(why, nwhy, "");
    if (!raw) {
        say(why, nwhy, "the runtime returned no UUID");
        return 0;
    }
    if (!amd) {
        int any = 0;
        for (int i = 0; i < GP_UUID_RAW_LEN; i++)
            any |= raw[i];
        if (!any) {
            say(why, nwhy, "the runtime's UUID is all zero (not reported)");
            return 0;
        }
        /* nvidia-smi's grouping: 4-2-2-2-6 bytes */
        char hex[40];
        int k = 0;
        for (int i = 0; i < GP_UUID_RAW_LEN; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10)
                hex[k++] = '-';
            k += snprintf(hex + k, sizeof hex - (size_t)k, "%02x", raw[i]);
        }
        snprintf(out, n, "GPU-%s", hex);
        return 1;
    }
    char text[GP_UUID_RAW_LEN + 1];
    size_t len = 0;
    while (len < GP_UUID_RAW_LEN && raw[len]) {
        if (raw[len] < 0x21 || raw[len] > 0x7e) {
            say(why, nwhy, "hipDeviceGetUuid returned bytes that are not text (not a unique id)");
            return 0;
        }
        text[len] = (char)raw[len];
        len++;
    }
    text[len] = '\0';
    if (!len || !strcmp(text, "XX")) {
        say(why, nwhy, "the runtime reports no unique id for this GPU (HSA's GPU-XX: the GPU exposes none)");
        return 0;
    }
    snprintf(out, n, "GPU-%s", text);
    return 1;
}

/* Copy src into dst (size n, at most max characters taken from src, dashes
 * left out when skip_dash), lower case, odd characters as '-'. */
static size_t safe_part(char *dst, size_t n, const char *src, size_t max, int skip_dash)
{
    size_t k = 0;
    for (size_t i = 0; src[i] && k < max && k + 1 < n; i++) {
        char c = src[i];
        if (skip_dash && c == '-')
            continue;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        int ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || (c == '.' && k > 0);
        dst[k++] = ok ? c : '-';
    }
    if (n)
        dst[k] = '\0';
    return k;
}

void gp_device_folder_name(const char *pci_bus_id, const char *uuid, int ordinal, char *out, size_t n)
{
    char bus[40], id[16];
    if (pci_bus_id && pci_bus_id[0])
        safe_part(bus, sizeof bus, pci_bus_id, sizeof bus - 1, 0);
    else
        snprintf(bus, sizeof bus, "nobus-dev%d", ordinal);
    const char *u = uuid ? uuid : "";
    if (!strncmp(u, "GPU-", 4))
        u += 4;
    if (!safe_part(id, sizeof id, u, 8, 1))
        snprintf(id, sizeof id, "nouuid");
    snprintf(out, n, "%s_%s", bus, id);
}
