/*
 * trace_file.c — a line reader over a plain or xz-compressed file: traces
 * are large (gigabytes for real applications), so nothing is read whole;
 * compressed files go through Debian's liblzma (lzma_stream_decoder with
 * LZMA_CONCATENATED, as `xz -dc` reads them).
 */
#include "trace.h"

#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TF_CHUNK 65536

struct trace_file {
    FILE       *f;
    char       *path;
    int         xz;
    lzma_stream zs;
    uint8_t     in[TF_CHUNK];       /* compressed input (xz) */
    uint8_t     buf[TF_CHUNK];      /* bytes to split into lines */
    size_t      pos, len;           /* unread bytes of buf: [pos, len) */
    int         eof;                /* no more bytes will come into buf */
    char       *line;               /* the line being assembled */
    size_t      nline, capline;
    uint64_t    lineno;
    int         again;              /* trace_file_unread: return the line again */
};

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

trace_file *trace_file_open(const char *path, char *err, size_t errlen)
{
    trace_file *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(path))) {
        free(t);
        snprintf(err, errlen, "%s: out of host memory", path);
        return NULL;
    }
    t->f = fopen(path, "rb");
    if (!t->f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        free(t->path);
        free(t);
        return NULL;
    }
    t->xz = ends_with(path, ".xz");
    if (t->xz) {
        lzma_stream init = LZMA_STREAM_INIT;
        t->zs = init;
        if (lzma_stream_decoder(&t->zs, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
            snprintf(err, errlen, "%s: cannot start the xz decoder", path);
            fclose(t->f);
            free(t->path);
            free(t);
            return NULL;
        }
    }
    return t;
}

/* Refill buf: 0, or -1 with a message. Sets eof when nothing is left. */
static int refill(trace_file *t, char *err, size_t errlen)
{
    t->pos = t->len = 0;
    if (!t->xz) {
        t->len = fread(t->buf, 1, sizeof t->buf, t->f);
        if (t->len == 0) {
            if (ferror(t->f)) {
                snprintf(err, errlen, "%s: read error: %s", t->path, strerror(errno));
                return -1;
            }
            t->eof = 1;
        }
        return 0;
    }
    t->zs.next_out = t->buf;
    t->zs.avail_out = sizeof t->buf;
    while (t->zs.avail_out == sizeof t->buf) {
        lzma_action act = LZMA_RUN;
        if (t->zs.avail_in == 0) {
            size_t n = fread(t->in, 1, sizeof t->in, t->f);
            if (n == 0 && ferror(t->f)) {
                snprintf(err, errlen, "%s: read error: %s", t->path, strerror(errno));
                return -1;
            }
            t->zs.next_in = t->in;
            t->zs.avail_in = n;
            if (n == 0)
                act = LZMA_FINISH;
        }
        lzma_ret r = lzma_code(&t->zs, act);
        if (r == LZMA_STREAM_END) {
            t->len = sizeof t->buf - t->zs.avail_out;
            if (t->len == 0)
                t->eof = 1;
            return 0;
        }
        if (r != LZMA_OK) {
            snprintf(err, errlen, "%s: xz decompression failed (%s) after line %llu", t->path,
                     r == LZMA_FORMAT_ERROR ? "not in xz format" :
                     r == LZMA_DATA_ERROR ? "corrupt data" :
                     r == LZMA_BUF_ERROR ? "truncated file" :
                     r == LZMA_MEM_ERROR ? "out of memory" : "liblzma error",
                     (unsigned long long)t->lineno);
            return -1;
        }
    }
    t->len = sizeof t->buf - t->zs.avail_out;
    return 0;
}

void trace_file_unread(trace_file *t) { t->again = t->line != NULL; }

int trace_file_line(trace_file *t, const char **line, char *err, size_t errlen)
{
    if (t->again) {
        t->again = 0;
        *line = t->line;
        return 1;
    }
    t->nline = 0;
    for (;;) {
        if (t->pos == t->len) {
            if (t->eof)
                break;
            if (refill(t, err, errlen) != 0)
                return -1;
            if (t->eof)
                break;
        }
        const uint8_t *s = t->buf + t->pos;
        size_t avail = t->len - t->pos;
        const uint8_t *nl = memchr(s, '\n', avail);
        size_t take = nl ? (size_t)(nl - s) : avail;
        if (t->nline + take + 1 > t->capline) {
            size_t nc = t->capline ? t->capline : 256;
            while (nc < t->nline + take + 1)
                nc *= 2;
            char *n = realloc(t->line, nc);
            if (!n) {
                snprintf(err, errlen, "%s: line %llu: out of host memory", t->path,
                         (unsigned long long)t->lineno + 1);
                return -1;
            }
            t->line = n;
            t->capline = nc;
        }
        memcpy(t->line + t->nline, s, take);
        t->nline += take;
        t->pos += take + (nl ? 1 : 0);
        if (nl)
            goto done;
    }
    if (t->nline == 0)
        return 0;           /* end of file (a last line without '\n' counts) */
done:
    if (t->nline && t->line[t->nline - 1] == '\r')
        t->nline--;
    t->line[t->nline] = '\0';
    t->lineno++;
    *line = t->line;
    return 1;
}

uint64_t trace_file_lineno(const trace_file *t) { return t->lineno; }
const char *trace_file_path(const trace_file *t) { return t->path; }

void trace_file_close(trace_file *t)
{
    if (!t)
        return;
    if (t->xz)
        lzma_end(&t->zs);
    fclose(t->f);
    free(t->line);
    free(t->path);
    free(t);
}
