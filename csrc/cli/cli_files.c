/*
 * cli_files.c — where the subcommands find the files the repository ships
 * (the committed PTX of GPUDIAG's and TEG's microbenchmarks).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *cli_repo_file(const char *rel, char *buf, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        /* build/bin/smcosim, or build/asan/bin/smcosim */
        static const char *const ups[] = { "/../..", "/../../.." };
        for (size_t i = 0; i < sizeof ups / sizeof ups[0]; i++)
            if (snprintf(buf, len, "%s%s/%s", exe, ups[i], rel) < (int)len && access(buf, R_OK) == 0)
                return buf;
    }
    return rel;
}
