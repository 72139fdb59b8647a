/*
 * smc-memcfg — print a memory configuration after presets and overrides.
 *
 *   smc-memcfg [--markdown] [PRESET] [-f FILE] [key=value ...]
 *
 * PRESET defaults to kepler-k20x; -f FILE and key=value are applied in
 * order. Prints "key = value  # doc" lines (a valid config file), or with
 * --markdown the key table (without values) used in docs/memory-model.md. Exits 1 with a
 * message naming the key (and file:line) on any error.
 */
#include "mem.h"

#include <string.h>

int main(int argc, char **argv)
{
    mem_config cfg;
    char err[512];
    int markdown = 0, i = 1;
    if (i < argc && strcmp(argv[i], "--markdown") == 0) {
        markdown = 1;
        i++;
    }
    const char *preset = "kepler-k20x";
    if (i < argc && argv[i][0] != '-' && !strchr(argv[i], '='))
        preset = argv[i++];
    if (mem_config_preset(&cfg, preset, err, sizeof err) != 0) {
        fprintf(stderr, "smc-memcfg: %s\n", err);
        return 1;
    }
    for (; i < argc; i++) {
        int rc;
        if (strcmp(argv[i], "-f") == 0 && i + 1 < argc)
            rc = mem_config_load_file(&cfg, argv[++i], err, sizeof err);
        else if (strchr(argv[i], '='))
            rc = mem_config_apply(&cfg, argv[i], err, sizeof err);
        else {
            snprintf(err, sizeof err, "unexpected argument '%s' (usage: "
                     "smc-memcfg [--markdown] [PRESET] [-f FILE] [key=value ...])",
                     argv[i]);
            rc = -1;
        }
        if (rc != 0) {
            fprintf(stderr, "smc-memcfg: %s\n", err);
            return 1;
        }
    }
    if (mem_config_check(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "smc-memcfg: %s\n", err);
        return 1;
    }
    if (markdown)
        mem_config_markdown(NULL, stdout);   /* values: see the preset table */
    else
        mem_config_print(&cfg, stdout);
    return 0;
}
