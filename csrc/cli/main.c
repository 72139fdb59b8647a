/* main.c — `smcosim SUBCOMMAND ...`: a dispatch table over cli.h. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct { const char *name; int (*fn)(int, char **); const char *help; } commands[] = {
#define X(fn, name, help) { name, cli_##fn, help },
    SMC_SUBCOMMANDS(X)
#undef X
};

static int usage(FILE *f) {
    fprintf(f, "usage: smcosim SUBCOMMAND [ARGS]\n\nsubcommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    return f == stderr ? 2 : 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage(stderr);
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) return usage(stdout);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "smcosim: unknown subcommand '%s'\n", argv[1]);
    return usage(stderr);
}
