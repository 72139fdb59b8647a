/*
 * cmd_config.c — `smcosim config [--config SPEC] [--set key=value]...
 * [--markdown]`: print the GPU configuration (a preset, a file, overrides)
 * as a valid config file, or as the Markdown key table of docs/config.md.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "../config/gpu_config.h"

#define CONFIG_USAGE \
    "usage: smcosim config [--config PRESET|FILE[,...]] [--set key=value]... [--markdown]\n" \
    "       smcosim config --list\n" \
    "  Prints the configuration (default preset " GPU_DEFAULT_PRESET ") as config-file text.\n"

int cli_config(int argc, char **argv)
{
    const char *spec = NULL;
    int markdown = 0;
    char err[512];
    /* First pass: the base configuration; second: overrides in order. */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc) spec = argv[++i];
        else if (!strcmp(argv[i], "--set") && i + 1 < argc) i++;
        else if (!strcmp(argv[i], "--markdown")) markdown = 1;
        else if (!strcmp(argv[i], "--list")) {
            for (size_t p = 0; gpu_preset_names[p]; p++) printf("%s\n", gpu_preset_names[p]);
            return 0;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(CONFIG_USAGE, stdout);
            return 0;
        } else {
            fprintf(stderr, "smcosim config: bad argument '%s'\n" CONFIG_USAGE, argv[i]);
            return 2;
        }
    }
    gpu_config cfg;
    if (gpu_config_load_spec(&cfg, spec, err, sizeof err) != 0) {
        fprintf(stderr, "smcosim config: %s\n", err);
        return 1;
    }
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--set") && gpu_config_apply(&cfg, argv[++i], err, sizeof err) != 0) {
            fprintf(stderr, "smcosim config: --set: %s\n", err);
            return 1;
        } else if (!strcmp(argv[i], "--config")) {
            i++;
        }
    if (gpu_config_check(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "smcosim config: %s\n", err);
        return 1;
    }
    if (markdown) gpu_config_markdown(&cfg, stdout);
    else gpu_config_print(&cfg, stdout);
    return 0;
}
