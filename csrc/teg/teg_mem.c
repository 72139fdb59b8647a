/*
 * teg_mem.c — TEG's memory: shared-memory bank passes and the global
 * memory's Little's-law queues (../shared/design/teg.md G9-G12).
 *
 * Shared memory (003 L1099, L1101; G9): lanes are served in groups
 * (smem.group, 16 on GT200: half-warps); a group takes as many passes as the
 * most distinct words that fall in one bank (one address read by many lanes
 * is a broadcast). Every pass beyond one per group adds smem.pass_cycles to
 * the access's latency and to the LD/ST unit's accept interval.
 *
 * Global memory (003 L969, L1075-1109; G10, G11): a group of lanes
 * (gmem.group) moves one sector per distinct gmem.sector_bytes block it
 * touches. Each sector is a transaction; an access's transactions join the
 * FIFO of its SM's group (gmem.sms_per_group SMs, a TPC) and depart, in
 * order, when the group has room under gmem.inflight_bytes and the sector's
 * channel ((address / gmem.channel_bytes) mod gmem.channels) under
 * gmem.channel_inflight_bytes: Eq. 3.1's cap on outstanding transactions,
 * read as Little's law in bytes. A transaction completes gmem.latency after
 * it departs; the access completes with its last one. Latency being one
 * constant, transactions complete in the order they depart, so the ones in
 * flight are a FIFO too.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "teg_internal.h"

#define NEVER UINT64_MAX

static int q_push(teg_txq *q, const teg_tx *tx)
{
    if (q->n == q->cap) {
        uint32_t nc = q->cap ? q->cap * 2 : 64;
        teg_tx *nq = malloc(nc * sizeof *nq);
        if (!nq) return -1;
        for (uint32_t i = 0; i < q->n; i++) nq[i] = q->q[(q->head + i) % q->cap];
        free(q->q);
        q->q = nq;
        q->head = 0;
        q->cap = nc;
    }
    q->q[(q->head + q->n) % q->cap] = *tx;
    q->n++;
    return 0;
}

static teg_tx *q_head(teg_txq *q) { return q->n ? &q->q[q->head] : NULL; }
static void q_pop(teg_txq *q) { q->head = (q->head + 1) % q->cap; q->n--; }

int teg_mem_init(teg_mem *m, const teg_params *p, void *run, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->p = p;
    m->run = run;
    m->groups = (p->sms + p->gmem_sms_per_group - 1) / p->gmem_sms_per_group;
    m->wait = calloc(m->groups, sizeof *m->wait);
    m->group_bytes = calloc(m->groups, sizeof *m->group_bytes);
    m->channel_bytes = calloc(p->gmem_channels, sizeof *m->channel_bytes);
    m->free_acc = UINT32_MAX;
    if (!m->wait || !m->group_bytes || !m->channel_bytes) {
        teg_mem_free(m);
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    return 0;
}

void teg_mem_free(teg_mem *m)
{
    if (m->wait)
        for (uint32_t g = 0; g < m->groups; g++) free(m->wait[g].q);
    free(m->wait);
    free(m->inflight.q);
    free(m->group_bytes);
    free(m->channel_bytes);
    free(m->acc);
    memset(m, 0, sizeof *m);
}

/* Depart, at t, every transaction at the head of a group's FIFO that fits.
 * 0, or -1 when out of host memory. */
static int depart(teg_mem *m, uint64_t t)
{
    const teg_params *p = m->p;
    for (uint32_t g = 0; g < m->groups; g++) {
        teg_tx *tx;
        while ((tx = q_head(&m->wait[g])) != NULL) {
            uint64_t gb = m->group_bytes[g], cb = m->channel_bytes[tx->channel];
            /* an empty pipe always takes one (a sector larger than a cap) */
            int fits = (gb == 0 || gb + tx->bytes <= p->gmem_inflight_bytes) &&
                       (m->no_channel_cap || cb == 0 ||
                        cb + tx->bytes <= p->gmem_channel_inflight_bytes);
            if (!fits) break;
            teg_tx d = *tx;
            d.when = t + p->gmem_latency;
            if (q_push(&m->inflight, &d) != 0) return -1;
            q_pop(&m->wait[g]);
            m->group_bytes[g] += d.bytes;
            m->channel_bytes[d.channel] += d.bytes;
            teg_access *a = &m->acc[d.rec];
            if (--a->left == 0) {
                teg_model_load_done(m->run, &a->rec, d.when);
                a->next_free = m->free_acc;
                m->free_acc = d.rec;
            }
        }
    }
    return 0;
}

int teg_mem_advance(teg_mem *m, uint64_t t)
{
    teg_tx *tx;
    while ((tx = q_head(&m->inflight)) != NULL && tx->when <= t) {
        uint64_t c = tx->when;
        while ((tx = q_head(&m->inflight)) != NULL && tx->when == c) {
            m->group_bytes[tx->group] -= tx->bytes;
            m->channel_bytes[tx->channel] -= tx->bytes;
            q_pop(&m->inflight);
        }
        if (depart(m, c) != 0) return -1;
    }
    return 0;
}

uint64_t teg_mem_next_event(const teg_mem *m, uint64_t t)
{
    (void)t;
    return m->inflight.n ? m->inflight.q[m->inflight.head].when : NEVER;
}

static uint32_t access_bytes(const emu_exec_info *ex, const emu_inst_info *in)
{
    uint32_t b = ex->access_size ? ex->access_size : in->access_size;
    return b ? b : 4;
}

#define MAX_UNITS_PER_LANE 64   /* sectors or words one lane's access touches */
#define SET_SLOTS 4096          /* > 32 lanes x MAX_UNITS_PER_LANE, a power of two */

/* The distinct values of one group's accesses, in order of first sight
 * (s[0..*n)), through an open-addressing table of SET_SLOTS (used[] marks the
 * slots taken, cleared by set_clear for the next group). */
typedef struct uset {
    uint64_t key[SET_SLOTS];
    uint16_t used[SET_SLOTS];
    uint16_t taken[SET_SLOTS];  /* the slots in use, to clear them */
    uint32_t ntaken;
} uset;

static void set_add(uset *h, uint64_t *s, uint32_t *n, uint64_t a)
{
    uint32_t i = (uint32_t)((a * 0x9e3779b97f4a7c15ull) >> 52) & (SET_SLOTS - 1);
    while (h->used[i]) {
        if (h->key[i] == a) return;
        i = (i + 1) & (SET_SLOTS - 1);
    }
    h->used[i] = 1;
    h->key[i] = a;
    h->taken[h->ntaken++] = (uint16_t)i;
    s[(*n)++] = a;
}

static void set_clear(uset *h)
{
    for (uint32_t i = 0; i < h->ntaken; i++) h->used[h->taken[i]] = 0;
    h->ntaken = 0;
}

int teg_mem_global(teg_mem *m, const teg_params *p, const teg_mem_rec *rec,
                   const emu_exec_info *ex, const emu_inst_info *in, uint32_t whatif,
                   uint64_t t, teg_result *r)
{
    m->no_channel_cap = (whatif & TEG_WHATIF_NO_CHANNEL_SKEW) != 0;
    uint32_t size = access_bytes(ex, in), sb = p->gmem_sector_bytes;
    uint32_t per_lane = size / sb + 2;
    if (per_lane > MAX_UNITS_PER_LANE) per_lane = MAX_UNITS_PER_LANE;
    uint64_t sec[32 * MAX_UNITS_PER_LANE];
    static _Thread_local uset h;        /* 50 KB: not on the stack */
    uint32_t group = rec->sm / p->gmem_sms_per_group, ntx = 0;
    /* the access record */
    uint32_t ai;
    if (m->free_acc != UINT32_MAX) {
        ai = m->free_acc;
        m->free_acc = m->acc[ai].next_free;
    } else {
        if (m->nacc == m->capacc) {
            uint32_t nc = m->capacc ? m->capacc * 2 : 64;
            teg_access *na = realloc(m->acc, nc * sizeof *na);
            if (!na) return -1;
            m->acc = na;
            m->capacc = nc;
        }
        ai = m->nacc++;
    }
    m->acc[ai].rec = *rec;
    m->acc[ai].left = 0;
    for (uint32_t g0 = 0; g0 < 32; g0 += p->gmem_group) {
        uint32_t n = 0, lanes = 0;
        uint64_t lo = NEVER;
        for (uint32_t l = g0; l < g0 + p->gmem_group && l < 32; l++) {
            if (!((ex->active >> l) & 1)) continue;
            uint64_t a = ex->addr[l];
            lanes++;
            if (a < lo) lo = a;
            for (uint64_t s = a / sb; s <= (a + size - 1) / sb && n < 32 * MAX_UNITS_PER_LANE; s++)
                if (!n || sec[n - 1] != s)     /* neighbours mostly share a sector */
                    set_add(&h, sec, &n, s);
        }
        set_clear(&h);
        if (!lanes) continue;
        if (whatif & TEG_WHATIF_COALESCED) {
            /* the fewest sectors for these lanes and this width */
            n = (uint32_t)(((uint64_t)lanes * size + sb - 1) / sb);
            for (uint32_t i = 0; i < n; i++) sec[i] = lo / sb + i;
        }
        for (uint32_t i = 0; i < n; i++) {
            teg_tx tx = { 0, sb, group,
                          (uint32_t)((sec[i] * sb / p->gmem_channel_bytes) % p->gmem_channels), ai };
            if (q_push(&m->wait[group], &tx) != 0) return -1;
            m->acc[ai].left++;
            ntx++;
        }
    }
    r->gmem_bytes += (uint64_t)ntx * sb;
    if (ntx == 0) {            /* no lane moved anything */
        teg_model_load_done(m->run, rec, t);
        m->acc[ai].next_free = m->free_acc;
        m->free_acc = ai;
        return 0;
    }
    if (depart(m, t) != 0) return -1;
    /* still queued: those of this access that did not depart at once */
    for (uint32_t i = 0; i < m->wait[group].n; i++)
        if (m->wait[group].q[(m->wait[group].head + i) % m->wait[group].cap].rec == ai) r->gmem_queued++;
    return 0;
}

uint64_t teg_mem_smem_extra(const teg_params *p, const emu_exec_info *ex, const emu_inst_info *in,
                            uint32_t whatif, uint64_t *passes)
{
    if (whatif & TEG_WHATIF_SMEM_CONFLICT_FREE) return 0;
    uint32_t size = access_bytes(ex, in), wb = p->smem_bank_bytes;
    /* per bank, the distinct words the group touches: a list through next[]
     * (a bank rarely holds more than one or two, so the lookups are short) */
    uint64_t word[32 * MAX_UNITS_PER_LANE];
    int16_t next[32 * MAX_UNITS_PER_LANE], head[64];
    uint32_t count[64];
    uint64_t extra = 0;
    /* word and bank by shift and mask when the sizes are powers of two (every
     * machine's are; a division per lane was a tenth of TEG's time) */
    int pow2 = (wb & (wb - 1)) == 0 && (p->smem_banks & (p->smem_banks - 1)) == 0;
    uint32_t wshift = pow2 ? (uint32_t)__builtin_ctz(wb) : 0, bmask = p->smem_banks - 1;
    for (uint32_t g0 = 0; g0 < 32; g0 += p->smem_group) {
        uint32_t n = 0, any = 0, degree = 0;
        for (uint32_t b = 0; b < p->smem_banks; b++) {
            head[b] = -1;
            count[b] = 0;
        }
        for (uint32_t l = g0; l < g0 + p->smem_group && l < 32; l++) {
            if (!((ex->active >> l) & 1)) continue;
            any = 1;
            uint64_t a = ex->addr[l];
            uint64_t w0 = pow2 ? a >> wshift : a / wb, w1 = pow2 ? (a + size - 1) >> wshift : (a + size - 1) / wb;
            for (uint64_t w = w0; w <= w1 && n < 32 * MAX_UNITS_PER_LANE; w++) {
                uint32_t b = pow2 ? (uint32_t)w & bmask : (uint32_t)(w % p->smem_banks);
                int16_t i = head[b];
                while (i >= 0 && word[i] != w) i = next[i];
                if (i >= 0) continue;          /* the same word: a broadcast */
                word[n] = w;
                next[n] = head[b];
                head[b] = (int16_t)n++;
                if (++count[b] > degree) degree = count[b];
            }
        }
        if (any) extra += degree - 1;
    }
    *passes += extra;
    /* integer cycles: the product rounded up (6.4 x 30 = 192) */
    return (uint64_t)ceil((double)extra * p->smem_pass_cycles - 1e-9);
}
