/* Runs one unit test by name (as CTest does), or all with no argument. */
#include <string.h>

#include "gp_test.h"
#include "progress.h"

typedef struct {
    const char *name;
    int (*fn)(void);
} unit;

#define GP_UNIT(name) int test_##name(void);
#include "gp_unit_table.h"
#undef GP_UNIT

static const unit units[] = {
#define GP_UNIT(name) {#name, test_##name},
#include "gp_unit_table.h"
#undef GP_UNIT
};

int main(int argc, char **argv)
{
    size_t n = sizeof units / sizeof units[0];
    gp_progress_enable(0);
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < n; i++)
            printf("%s\n", units[i].name);
        return 0;
    }
    int failed = 0, ran = 0;
    for (size_t i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], units[i].name))
            continue;
        ran++;
        int rc = units[i].fn();
        printf("%s %s\n", rc ? "FAIL" : "ok  ", units[i].name);
        failed += rc != 0;
    }
    if (!ran) {
        fprintf(stderr, "no unit test named '%s'\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    return failed ? 1 : 0;
}
