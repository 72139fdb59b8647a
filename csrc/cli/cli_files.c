/*
 * cli_files.c — where the subcommands find the files the repository ships
 * (the committed PTX of GPUDIAG's and TEG's microbenchmarks), and the
 * temporary folders they write traces into.
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
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

int cli_temp_dir(const char *prefix, char *buf, size_t len)
{
    const char *base = getenv("TMPDIR");
    if (snprintf(buf, len, "%s/%s-XXXXXX", base && *base ? base : "/tmp", prefix) >= (int)len) return -1;
    return mkdtemp(buf) ? 0 : -1;
}

void cli_remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[PATH_MAX];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
                remove(path);
        }
        closedir(d);
    }
    rmdir(dir);
}
