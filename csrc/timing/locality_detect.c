/*
 * locality_detect.c -- the locality type of a kernel from the address
 * streams of its first CTAs (issue 17, "beyond the thesis"; docs/locality.md,
 * "Automatic detection").
 *
 * The thesis's programmer picks the hint by reading the kernel (seed 000
 * §6.2: type 1 many lines shared among adjacent blocks, type 2 boundary
 * lines, type 3 some common data). Here the timing model watches the global
 * loads of the sample CTAs — the first S in linear order, S = min(CTAs,
 * max(3 * gridDim.x, 32)) (at least three rows of a 2-D grid) — and notes,
 * per 128-byte line, which blocks read it. A line read by a second block is
 * *shared*; the pair (first reader, later reader) is classified:
 *
 *   adjacent  |dx| <= 1 and |dy| <= 1 (a neighbour, diagonals included)
 *   far row/column  dy = 0 or dx = 0, not adjacent (2-D grids only)
 *   other     anything else (and every non-adjacent pair of a 1-D grid)
 *
 * and the line keeps one flag per class. At the end of the launch:
 *
 *   shared lines < 1 % of the lines read   -> 0 (no inter-block locality)
 *   2-D grid, lines with a far row/column reader >= those with only
 *     adjacent readers and >= those with other readers  -> 1 (rows of A /
 *     columns of B: many lines shared along a row or column, GEMM-like)
 *   2-D grid, lines with only adjacent readers >= other  -> 2 (boundary)
 *   otherwise                                            -> 3 (some data)
 *
 * The thresholds are ours (the thesis has no detection); not tuned to Table
 * 6.2 (docs/locality.md reports the agreement). The table of lines is
 * bounded (TM_DETECT_LINES); when it is full, later new lines are not
 * recorded (deterministic). Passive: it changes no timing.
 */
#include "timing_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TM_DETECT_LINES (1u << 16)          /* table slots (a power of two) */
#define TM_DETECT_KERNELS 64                /* kernels remembered per device */

enum { F_ADJ = 1, F_FAR = 2, F_OTHER = 4 };

typedef struct det_line {
    uint64_t line;                          /* line address + 1 (0 = empty) */
    uint32_t first;                         /* linear id of the first reader */
    uint8_t  flags;                         /* F_* of later readers */
} det_line;

struct tm_detect {
    det_line *t;                            /* TM_DETECT_LINES slots */
    uint32_t used, sample, gx, gy;
    int      on;
    /* per kernel name: the type detected at its first detected launch */
    char     name[TM_DETECT_KERNELS][96];
    int8_t   type[TM_DETECT_KERNELS];
    uint32_t nkern;
};

int tm_detect_known(const timing_gpu *g, const char *kernel)
{
    const tm_detect *d = g->det;
    if (!d)
        return -1;
    for (uint32_t i = 0; i < d->nkern; i++)
        if (strncmp(d->name[i], kernel, sizeof d->name[i] - 1) == 0)
            return d->type[i];
    return -1;
}

int tm_detect_begin(timing_gpu *g, uint32_t nctas)
{
    if (!g->det) {
        g->det = calloc(1, sizeof *g->det);
        if (!g->det)
            return -1;
    }
    tm_detect *d = g->det;
    if (!d->t) {
        d->t = calloc(TM_DETECT_LINES, sizeof *d->t);
        if (!d->t)
            return -1;
    } else {
        memset(d->t, 0, TM_DETECT_LINES * sizeof *d->t);
    }
    d->used = 0;
    d->gx = g->st->grid[0] ? g->st->grid[0] : 1;
    d->gy = g->st->grid[1] ? g->st->grid[1] : 1;
    uint32_t s = 3 * d->gx > 32 ? 3 * d->gx : 32;
    d->sample = nctas < s ? nctas : s;
    d->on = 1;
    return 0;
}

void tm_detect_access(timing_gpu *g, uint32_t cta, const uint64_t *addr, uint64_t active)
{
    tm_detect *d = g->det;
    if (!d || !d->on || cta >= d->sample)
        return;
    uint64_t last = UINT64_MAX;
    for (uint64_t m = active; m; m &= m - 1) {
        uint64_t line = addr[__builtin_ctzll(m)] >> 7;
        if (line == last)
            continue;                       /* coalesced lanes: one line */
        last = line;
        uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 48) & (TM_DETECT_LINES - 1);
        for (;; h = (h + 1) & (TM_DETECT_LINES - 1)) {
            det_line *e = &d->t[h];
            if (e->line == 0) {
                if (d->used >= TM_DETECT_LINES / 2)
                    break;                  /* full enough: new lines are not recorded */
                e->line = line + 1;
                e->first = cta;
                d->used++;
                break;
            }
            if (e->line != line + 1)
                continue;
            if (e->first != cta) {
                int64_t dx = (int64_t)(cta % d->gx) - (int64_t)(e->first % d->gx);
                int64_t dy = (int64_t)(cta / d->gx % d->gy) - (int64_t)(e->first / d->gx % d->gy);
                int64_t dz = (int64_t)(cta / d->gx / d->gy) - (int64_t)(e->first / d->gx / d->gy);
                if (dz == 0 && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
                    e->flags |= F_ADJ;
                else if (d->gy > 1 && dz == 0 && (dx == 0 || dy == 0))
                    e->flags |= F_FAR;
                else
                    e->flags |= F_OTHER;
            }
            break;
        }
    }
}

/* The rule of the header comment. */
static int classify(const tm_detect *d, double *shared_frac)
{
    uint64_t lines = 0, shared = 0, far = 0, adj_only = 0, other = 0;
    for (uint32_t i = 0; i < TM_DETECT_LINES; i++) {
        const det_line *e = &d->t[i];
        if (!e->line)
            continue;
        lines++;
        if (!e->flags)
            continue;
        shared++;
        if (e->flags & F_FAR)
            far++;
        else if (e->flags & F_OTHER)
            other++;
        else
            adj_only++;
    }
    *shared_frac = lines ? (double)shared / (double)lines : 0.0;
    if (shared * 100 < lines || shared == 0)
        return 0;
    if (d->gy > 1 && far >= adj_only && far >= other)
        return 1;
    if (d->gy > 1 && adj_only >= other)
        return 2;
    return 3;
}

void tm_detect_end(timing_gpu *g, const char *kernel)
{
    tm_detect *d = g->det;
    if (!d || !d->on)
        return;
    d->on = 0;
    double frac;
    int type = classify(d, &frac);
    g->st->locality_detected = type;
    g->st->locality_shared = frac;
    if (tm_detect_known(g, kernel) < 0 && d->nkern < TM_DETECT_KERNELS) {
        snprintf(d->name[d->nkern], sizeof d->name[d->nkern], "%s", kernel);
        d->type[d->nkern++] = (int8_t)type;
    }
}

void tm_detect_stop(timing_gpu *g)
{
    if (g->det)
        g->det->on = 0;
}

void tm_detect_free(timing_gpu *g)
{
    if (g->det)
        free(g->det->t);
    free(g->det);
    g->det = NULL;
}
