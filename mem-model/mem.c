/*
 * mem.c — the cycle-level memory hierarchy: LD/ST unit, L1D + MSHRs, shared
 * memory, constant cache, interconnect, L2 slices with MSHRs, DRAM channels.
 *
 * Structure of one cycle (mem_cycle), in this order:
 *   1. DRAM: finished writes leave (finished reads wait for the L2 in their
 *      FIFO); the FR-FCFS scheduler starts at most one request per channel.
 *   2. L2: a slice handles at most one DRAM fill and one request per cycle.
 *   3. Interconnect: packets move L2 -> SM, then SM -> L2, each port moving
 *      icnt.bytes_per_cycle; a packet moves only when the receiving queue has
 *      room (backpressure).
 *   4. SMs: an SM takes at most one response (L1 fill / atomic reply) and its
 *      LD/ST unit processes at most one transaction.
 * Only components with work are visited: a partition at its next possible
 * event (part_wake, found through a timing wheel), a slice's output when its
 * front response may leave (a second wheel), an SM while its LD/ST unit
 * works or when a response reaches the front of its ejection queue (a third
 * wheel), and the interconnect only SMs with queued packets. With nothing in
 * flight a cycle only counts itself, and mem_skip_to jumps over idle cycles.
 * Lookups avoid scans: MSHR tables behind a counting filter, L2 ways by
 * one-byte fingerprints, DRAM completions in FIFOs already in order. What
 * an earlier event decided is not looked up again: a DRAM channel is
 * visited for scheduling only when a bank with a queued request is ready,
 * L1/L2 fills skip the lookup when the miss proved the line absent, and a
 * replayed load skips the hit and merge checks. The
 * results are bit-identical to visiting everything every cycle (make
 * mem-digest; docs/memory-model.md, "Speed").
 *
 * Requests and packets live in pools and fixed rings allocated at creation
 * (the instruction pool and completion queues grow by doubling); nothing is
 * allocated per request in the steady state.
 */
#include "mem_internal.h"
#include "fail.h"

#include <stdlib.h>
#include <string.h>

/* ---- small helpers -------------------------------------------------------- */

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
/* log2 of a power of two (sizes are checked to be powers of two) */
static uint32_t lg(uint32_t pow2) { return (uint32_t)__builtin_ctz(pow2); }
static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* Division and remainder by a divisor fixed at creation (partitions, DRAM
 * banks: often not powers of two) without a divide instruction on the hot
 * path: for numerators below 2^32, q = (M * x) >> 64 and r = ((M * x mod
 * 2^64) * d) >> 64 with M = ceil(2^64 / d) are exact (Lemire, Kaser and
 * Kurz, "Faster remainder by direct computation", 2019). Larger numerators
 * and powers of two take the ordinary way. */
typedef struct fastdiv {
    uint64_t magic;
    uint32_t d, shift;
    int      pow2;
} fastdiv;

static void fd_init(fastdiv *f, uint32_t d)
{
    f->d = d;
    f->pow2 = (d & (d - 1)) == 0;
    f->shift = (uint32_t)__builtin_ctz(d);
    f->magic = f->pow2 ? 0 : UINT64_MAX / d + 1;
}

static uint64_t fd_div(const fastdiv *f, uint64_t x)
{
    if (f->pow2)
        return x >> f->shift;
    if (x >> 32)
        return x / f->d;
    return (uint64_t)(((unsigned __int128)f->magic * x) >> 64);
}

static uint32_t fd_mod(const fastdiv *f, uint64_t x)
{
    if (f->pow2)
        return (uint32_t)(x & (f->d - 1));
    if (x >> 32)
        return (uint32_t)(x % f->d);
    return (uint32_t)(((unsigned __int128)(f->magic * x) * f->d) >> 64);
}

/* A set of small integers (SM or partition ids) iterated in ascending order. */
typedef struct bitset {
    uint64_t *w;
    uint32_t nwords;
} bitset;

static int bs_init(bitset *b, uint32_t n)
{
    b->nwords = (n + 63) / 64;
    b->w = calloc(b->nwords, sizeof *b->w);
    return b->w ? 0 : -1;
}
static void bs_set(bitset *b, uint32_t i) { b->w[i >> 6] |= 1ull << (i & 63); }
static void bs_clear(bitset *b, uint32_t i) { b->w[i >> 6] &= ~(1ull << (i & 63)); }

/* An MSHR table's index: block/line address -> entry, and a bitmap of
 * free entries so that the lowest free entry is found without scanning.
 * Tables of up to MI_SCAN_MAX entries (every preset) keep each entry's
 * address in ekey[] and compare all of them without data-dependent branches
 * (an address is in at most one entry): a few host cache lines and no
 * mispredicted probe loops. Larger tables use open addressing with linear
 * probing (at most half full). */
#define MI_SCAN_MAX 64
#define MI_NO_KEY   1ull     /* addresses are block-aligned, never odd */
#define MI_FILTER_BITS 256   /* > 4 x MI_SCAN_MAX: few false positives */

typedef struct mshr_index {
    uint64_t *ekey;      /* scan: address of each entry, MI_NO_KEY if free */
    uint32_t  entries;
    int       scan;
    /* scan: a counting filter over the held addresses. Bit h of filter is
     * set iff fcount[h] > 0, fcount[h] being the number of held addresses
     * whose filter hash is h; a clear bit proves an address absent, so most
     * lookups that miss (every new line of a streaming pattern) skip the
     * scan. */
    uint64_t  filter[MI_FILTER_BITS / 64];
    uint8_t   fcount[MI_FILTER_BITS];
    uint64_t *key;       /* hash: slots */
    uint32_t *val;       /* entry + 1; 0 = empty slot */
    uint32_t  mask;      /* slots - 1 */
    uint32_t  shift;     /* 64 - log2(slots) */
    uint64_t *free_bits; /* bit e set: entry e is free */
    uint32_t  nwords;
} mshr_index;

static int mi_init(mshr_index *x, uint32_t entries)
{
    uint32_t slots = 4;
    while (slots < 2 * entries)
        slots *= 2;
    x->entries = entries;
    x->scan = entries <= MI_SCAN_MAX;
    x->ekey = malloc(entries * sizeof *x->ekey);
    for (uint32_t e = 0; x->ekey && e < entries; e++)
        x->ekey[e] = MI_NO_KEY;
    x->key = calloc(slots, sizeof *x->key);
    x->val = calloc(slots, sizeof *x->val);
    x->mask = slots - 1;
    x->shift = 64 - lg(slots);
    x->nwords = (entries + 63) / 64;
    x->free_bits = calloc(x->nwords, sizeof *x->free_bits);
    if (!x->ekey || !x->key || !x->val || !x->free_bits)
        return -1;
    for (uint32_t e = 0; e < entries; e++)
        x->free_bits[e >> 6] |= 1ull << (e & 63);
    return 0;
}

static void mi_free(mshr_index *x)
{
    free(x->ekey);
    free(x->key);
    free(x->val);
    free(x->free_bits);
}

static uint32_t mi_slot(const mshr_index *x, uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> x->shift);
}

static uint32_t mi_filter_hash(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 56);   /* 0..255 */
}

/* The entry holding key, or -1. */
static int mi_find(const mshr_index *x, uint64_t key)
{
    if (x->scan) {
        uint32_t h = mi_filter_hash(key);
        if (!(x->filter[h >> 6] >> (h & 63) & 1))
            return -1;
        int found = -1;
        for (uint32_t e = 0; e < x->entries; e++)
            found = x->ekey[e] == key ? (int)e : found;
        return found;
    }
    for (uint32_t h = mi_slot(x, key); x->val[h]; h = (h + 1) & x->mask)
        if (x->key[h] == key)
            return (int)x->val[h] - 1;
    return -1;
}

/* Take the lowest free entry for key (the caller checked one is free). */
static uint32_t mi_take(mshr_index *x, uint64_t key)
{
    uint32_t w = 0;
    while (!x->free_bits[w])
        w++;
    uint32_t e = w * 64 + (uint32_t)__builtin_ctzll(x->free_bits[w]);
    x->free_bits[w] &= x->free_bits[w] - 1;
    if (x->scan) {
        uint32_t h = mi_filter_hash(key);
        x->fcount[h]++;      /* at most MI_SCAN_MAX < 256 addresses */
        x->filter[h >> 6] |= 1ull << (h & 63);
        x->ekey[e] = key;
        return e;
    }
    uint32_t h = mi_slot(x, key);
    while (x->val[h])
        h = (h + 1) & x->mask;
    x->key[h] = key;
    x->val[h] = e + 1;
    return e;
}

/* Release entry e holding key (backward-shift deletion keeps probing valid). */
static void mi_release(mshr_index *x, uint64_t key, uint32_t e)
{
    x->free_bits[e >> 6] |= 1ull << (e & 63);
    if (x->scan) {
        uint32_t h = mi_filter_hash(key);
        if (--x->fcount[h] == 0)
            x->filter[h >> 6] &= ~(1ull << (h & 63));
        x->ekey[e] = MI_NO_KEY;
        return;
    }
    uint32_t h = mi_slot(x, key);
    while (x->key[h] != key || x->val[h] != e + 1)
        h = (h + 1) & x->mask;
    for (uint32_t j = (h + 1) & x->mask; x->val[j]; j = (j + 1) & x->mask) {
        uint32_t home = mi_slot(x, x->key[j]);
        /* move j into the hole h unless its home lies cyclically in (h, j] */
        if (((j - home) & x->mask) >= ((j - h) & x->mask)) {
            x->key[h] = x->key[j];
            x->val[h] = x->val[j];
            h = j;
        }
    }
    x->val[h] = 0;
}

/* ---- packets and rings -------------------------------------------------- */

enum { PK_READ = 0, PK_WRITE = 1, PK_ATOMIC = 2 };

typedef struct packet {
    uint64_t addr;       /* block (L1 side) or line (DRAM side) address */
    uint64_t ready;      /* first cycle it may leave the queue it is in */
    uint32_t sm;
    uint32_t inst;       /* instruction (atomics) or L1 MSHR entry (reads) */
    uint32_t bytes;      /* payload */
    uint8_t  kind;
} packet;

typedef struct ring {
    packet  *buf;
    uint32_t cap, head, count;
} ring;

static int ring_init(ring *r, uint32_t cap)
{
    r->buf = calloc(cap, sizeof *r->buf);
    r->cap = cap;
    r->head = r->count = 0;
    return r->buf ? 0 : -1;
}
static int ring_full(const ring *r) { return r->count == r->cap; }
static packet *ring_front(ring *r) { return &r->buf[r->head]; }
static void ring_push(ring *r, const packet *p)
{
    uint32_t tail = r->head + r->count;   /* no division: tail < 2 * cap */
    r->buf[tail >= r->cap ? tail - r->cap : tail] = *p;
    r->count++;
}
static void ring_pop(ring *r)
{
    r->head = r->head + 1 == r->cap ? 0 : r->head + 1;
    r->count--;
}

/* ---- instructions in flight ------------------------------------------- */

typedef struct inst_rec {
    mem_completion c;
    uint64_t ready;      /* latest data-ready cycle seen so far */
    uint32_t pending;    /* responses still expected */
    uint32_t next_free;
    uint8_t  issuing;    /* still has transactions in the LD/ST unit */
} inst_rec;

typedef struct done_item {
    uint64_t cycle;
    uint32_t inst;
} done_item;

/* ---- per SM ------------------------------------------------------------- */

/* The tag of a way with neither valid nor reserved sectors (line addresses
 * are multiples of l1d.line_bytes >= 16), so that a lookup compares
 * addresses only. */
#define L1_NO_LINE 1ull

/* A way's state; its line address is in the SM's tag array (sets * ways,
 * the same index), which lookups scan without touching the rest. */
typedef struct l1_line {
    uint64_t lru;        /* last use stamp */
    uint32_t valid;      /* valid sectors */
    uint32_t reserved;   /* sectors reserved by allocate-on-miss */
} l1_line;

typedef struct mshr_entry {
    uint64_t block;
    uint32_t ntargets;
    uint8_t  used;
} mshr_entry;

typedef struct sm_state {
    /* LD/ST unit */
    uint8_t  busy;
    uint8_t  space;
    uint8_t  op;
    uint32_t inst;
    uint32_t ntx, next;
    uint32_t remaining;  /* shared/const: cycles left */
    uint8_t  blocked;    /* replaying: asleep until an MSHR frees or the
                            injection queue drains (see sm_block) */
    uint8_t  blocked_kind;   /* 0: MSHR stall, 1: interconnect stall */
    uint64_t blocked_since;  /* cycle of the failed attempt */
    uint8_t  known_miss; /* the transaction at tx[next] was replayed after
                            finding its sector invalid in the L1 and no MSHR
                            for its block (see ldst_transaction) */
    mem_tx   tx[MEM_MAX_TX];
    /* L1D */
    l1_line *lines;      /* sets * ways */
    uint64_t *ltag;      /* line address of each way; L1_NO_LINE while its
                            valid and reserved are both 0 (outside
                            l1_take_line) */
    uint64_t lru_clock;
    mshr_entry *mshr;
    mshr_index mshr_ix;
    uint32_t *targets;   /* mshr_entries * max_merge instruction ids */
    uint32_t mshr_used;
    /* interconnect ends */
    ring     out, in;
    uint64_t out_port_free, in_port_free;
    /* completions in the order they are collected, (cycle, order of
     * completion): done[done_head .. done_head + done_n) */
    done_item *done;
    uint32_t done_head, done_n, done_cap;
} sm_state;

/* ---- per partition: L2 slice + DRAM channel --------------------------- */

#define PW_SLOTS 256
#define PW_MASK  (PW_SLOTS - 1)

/* An L2 tag: the partition-local line address, or'ed with L2_VALID and
 * L2_DIRTY (line addresses are multiples of l2.line_bytes >= 16). */
#define L2_VALID 1u
#define L2_DIRTY 2u
#define L2_NONE  0xffu

typedef struct l2_mshr {
    uint64_t line;
    uint32_t ntargets;
    uint8_t  used;
    uint8_t  maybe_cached;   /* a write allocated the line in the L2 after
                                this entry was taken (it missed then) */
} l2_mshr;

typedef struct dram_req {
    uint64_t line;       /* partition-local byte address of the line */
    uint64_t arrival;    /* FCFS order */
    uint64_t done;
    uint64_t row;        /* 64 bits: row numbers of high addresses exceed 32 */
    uint32_t bank;
    uint32_t mshr;       /* reads: the L2 MSHR entry waiting for it */
    uint8_t  is_write;
} dram_req;

/* No row number reaches it: a row is at least 64 bytes, so row numbers are
 * below 2^58. */
#define DRAM_ROW_CLOSED UINT64_MAX

typedef struct dram_bank {
    uint64_t open_row;   /* DRAM_ROW_CLOSED: closed */
    uint64_t ready;      /* next column command possible */
    uint64_t act;        /* last activate */
    uint64_t pre_ok;     /* earliest precharge */
    uint64_t wr_end;     /* end of the last write burst */
    uint8_t  activated;
} dram_bank;

typedef struct part_state {
    /* L2 slice */
    ring     in, out;
    uint64_t in_port_free, out_port_free;
    uint64_t out_try;    /* the output queue's front may move at this cycle
                            at the earliest: max(out_port_free, its ready);
                            UINT64_MAX when the queue is empty */
    /* Each set's tags are contiguous (a lookup compares the set's ways, a
     * couple of host cache lines), and so is its LRU state: lru[set *
     * lru_stride ...] holds next[ways] (towards the LRU end), prev[ways],
     * then the MRU way, the LRU way and the number of valid ways (the L2
     * fills ways in order and never invalidates, so ways 0..nvalid-1 are
     * the valid ones). Way numbers are bytes (ways <= 64), L2_NONE = end. */
    uint64_t *tag;
    /* A one-byte fingerprint of each valid way's line (0x80 | 7 hash bits;
     * 0 for a way never used), fp_words 64-bit words per set, way w in bits
     * 8*(w%8) of word w/8: a lookup compares eight ways per word and reads
     * the tags only of ways whose fingerprint matches. */
    uint64_t *fp;
    uint8_t  *lru;
    l2_mshr *mshr;
    mshr_index mshr_ix;
    packet  *targets;    /* l2_mshr_entries * max_merge */
    uint32_t mshr_used;
    uint64_t last_resp_ready;  /* keeps the output queue in ready order */
    /* DRAM channel */
    dram_req *queue;     /* FR-FCFS queue, arrival order */
    uint32_t qn;
    /* Started requests. The data bus serialises all bursts, so the end of
     * each burst is later than the previous one's: reads finish (done =
     * end + dram.latency) in start order, and so do writes (done = end).
     * Two FIFOs in start order therefore hold them sorted by done cycle. */
    uint64_t *rd_done;   /* reads, until the L2 takes the fill */
    uint32_t *rd_mshr;   /* ... and the L2 MSHR entry waiting for each */
    uint32_t rd_head, rd_n;
    uint64_t *wr_done;   /* writes, until their burst ends */
    uint32_t wr_head, wr_n;
    uint32_t fcap;       /* capacity of each FIFO; rd_n + wr_n <= fcap */
    dram_bank *banks;
    uint64_t bus_free;
    uint64_t last_act;
    uint8_t  any_act;
    uint64_t arrivals;
    uint64_t sched_wait; /* no bank with a queued request is ready before */
    uint64_t wake;       /* neither the channel nor the slice has anything to
                            do before this cycle (see part_wake) */
} part_state;

/* ---- duplicate-MSHR detection (seed 000 §6.1) ---------------------------- */

typedef struct dup_slot {
    uint64_t line;       /* line address | 1 (lines are aligned) */
    uint64_t t_last;     /* most recent allocation */
    uint64_t t_other;    /* most recent allocation by an SM other than sm_last */
    uint32_t gen;        /* the slot is in use iff gen == its table's gen */
    uint16_t sm_last;    /* (mem.num_sms <= MEM_MAX_SMS = 256) */
    uint8_t  has_other;
} dup_slot;

/* An open-addressing table (linear probing, at most half full). Clearing it
 * advances gen, which empties every slot at once. filter has bit
 * dup_filter_bit(key) set for every key in the table (and maybe others): a
 * clear bit proves a key absent without touching the slots, which are far
 * larger than the host's L1. */
#define DUP_FILTER_BITS 16384

typedef struct dup_table {
    dup_slot *slot;
    uint32_t  cap, used, shift, gen;
    uint64_t *filter;    /* DUP_FILTER_BITS bits */
} dup_table;

struct mem_system {
    mem_config cfg;
    uint64_t   now;
    mem_stats  st;
    sm_state  *sm;
    part_state *part;
    bitset     sm_active;      /* to visit this cycle: LD/ST unit working,
                                  or a response at the ejection-queue front
                                  is due (or may be) */
    /* Timing wheel of SMs whose ejection-queue front becomes due at a given
     * cycle: slot t & wheel_mask holds them until cycle t, when they join
     * sm_active. Every packet arrives at most wheel_mask cycles ahead. */
    uint64_t  *wheel;          /* (wheel_mask + 1) * sm_active.nwords words */
    uint32_t   wheel_mask;
    bitset     sm_out_busy;    /* injection queue not empty */
    bitset     sm_ldst_busy;   /* LD/ST unit holds an instruction */
    bitset     sm_has_done;    /* completion queue not empty */
    uint64_t   done_min;       /* <= the earliest completion cycle queued in
                                  any SM's queue (UINT64_MAX: none) */
    /* Hashed timing wheels of partitions (bit i = partition i): pwheel[t &
     * PW_MASK] holds the partitions to visit at cycle t (a partition's wake),
     * owheel[t & PW_MASK] those whose front response may leave at cycle t
     * (its out_try). A slot is checked against the partition's current
     * value when its cycle comes: a bit for a value PW_SLOTS or more
     * cycles ahead stays in the slot, a bit left by a value since changed
     * is dropped. out_ready holds the partitions whose out_try <= now. */
    uint64_t   pwheel[PW_SLOTS], owheel[PW_SLOTS];
    uint64_t   out_ready;
    uint32_t   rr_up, rr_down;
    inst_rec  *inst;
    uint32_t   ninst, free_inst;
    uint64_t   outstanding;    /* submitted, not yet collected */
    uint64_t   live;           /* packets / DRAM requests alive anywhere */
    uint64_t   mshr_used_all;
    uint32_t   sectors_per_line;
    uint32_t   l2_in_cap, l2_out_cap;
    fastdiv    div_parts;      /* by l2.partitions */
    fastdiv    div_banks;      /* by dram.banks */
    uint32_t   dram_burst;     /* data-bus cycles of one line */
    uint32_t   l2_lru_stride;  /* bytes of LRU state per L2 set */
    uint32_t   l2_fp_words;    /* fingerprint words per L2 set */
    uint32_t  *ser;            /* ser[payload]: interconnect cycles of a
                                  packet, payload 0..l1d.sector_bytes */
    dup_table  dup_cur, dup_prev;  /* lines allocated in this epoch and in
                                     the previous one (see dup_record) */
    uint64_t   dup_epoch_end;  /* first cycle of the next epoch */
    double    *series;         /* MSHR occupancy samples */
    size_t     nseries, series_cap;
    uint64_t   series_last_sum;
    uint32_t   series_countdown;
};

/* ---- instruction pool, completion queues ----------------------------------- */

static int inst_alloc(mem_system *m, uint32_t *out)
{
    if (m->free_inst == UINT32_MAX) {
        uint32_t n = m->ninst ? m->ninst * 2 : 256;
        inst_rec *bigger = realloc(m->inst, (size_t)n * sizeof *bigger);
        if (!bigger)
            return -1;
        m->inst = bigger;
        for (uint32_t i = n; i-- > m->ninst;) {
            m->inst[i].next_free = m->free_inst;
            m->free_inst = i;
        }
        m->ninst = n;
    }
    *out = m->free_inst;
    m->free_inst = m->inst[*out].next_free;
    return 0;
}

static void inst_free(mem_system *m, uint32_t i)
{
    m->inst[i].next_free = m->free_inst;
    m->free_inst = i;
}

/* The first completion an SM will hand out. */
static done_item *done_front(sm_state *s) { return &s->done[s->done_head]; }

/* The instruction is done: queue its completion for the SM. Completions are
 * handed out by cycle, and in the order they were queued within a cycle; a
 * new one goes after every queued one of its cycle or earlier, so it is put
 * in place from the back (most are due one cycle ahead, later than nothing
 * queued: no move; L1 hits and shared/const accesses, due a latency ahead,
 * pass a few). Growth of the queue can only fail on memory exhaustion,
 * which the model reports by aborting the process cleanly (nothing else
 * sensible can be done mid-cycle). */
static void complete(mem_system *m, uint32_t i)
{
    inst_rec *r = &m->inst[i];
    sm_state *s = &m->sm[r->c.sm];
    r->c.cycle = max64(r->ready, m->now + 1);
    if (s->done_head + s->done_n == s->done_cap) {
        if (s->done_n <= s->done_cap / 2 && s->done_n) {
            /* slide the queue to the front (at least cap/2 pushes since the
             * last slide or growth: amortised O(1)) */
            memmove(s->done, s->done + s->done_head, s->done_n * sizeof *s->done);
            s->done_head = 0;
        } else {
            uint32_t n = s->done_cap ? s->done_cap * 2 : 64;
            done_item *bigger = realloc(s->done, (size_t)n * sizeof *bigger);
            if (!bigger) {
                fprintf(stderr, "smcosim mem-model: out of memory\n");
                exit(1);
            }
            s->done = bigger;
            s->done_cap = n;
        }
    }
    uint32_t k = s->done_head + s->done_n++;
    while (k > s->done_head && s->done[k - 1].cycle > r->c.cycle) {
        s->done[k] = s->done[k - 1];
        k--;
    }
    s->done[k].cycle = r->c.cycle;
    s->done[k].inst = i;
    bs_set(&m->sm_has_done, r->c.sm);
    if (r->c.cycle < m->done_min)
        m->done_min = r->c.cycle;
    m->st.completions++;
    if (r->c.op == MEM_LOAD) {
        uint64_t lat = r->c.cycle - r->c.submit_cycle;
        m->st.load_insts_done++;
        m->st.load_latency_sum += lat;
        if (lat > m->st.load_latency_max)
            m->st.load_latency_max = lat;
    }
}

/* A response for instruction i arrived (or a hit's data will be ready) at
 * cycle `ready`; complete it when nothing else is outstanding. */
static void inst_data(mem_system *m, uint32_t i, uint64_t ready, int was_pending)
{
    inst_rec *r = &m->inst[i];
    r->ready = max64(r->ready, ready);
    if (was_pending)
        r->pending--;
    if (!r->pending && !r->issuing)
        complete(m, i);
}

/* ---- duplicate table ---------------------------------------------------- */

/* Time is cut into epochs of W + 1 cycles. dup_cur holds the latest record
 * of every line allocated in the current epoch, dup_prev those of the
 * previous epoch; at an epoch change the previous table is cleared and the
 * two swap. A record that matters (its last allocation within W cycles) is
 * in one of the two; an older one decides nothing (both of its times are
 * out of the window), so losing it changes no answer. Lookups look in
 * dup_cur first (the newer record), then in dup_prev; an update always
 * writes dup_cur. No per-entry expiry: a clear of one table per epoch. */

static uint32_t dup_home(const dup_table *t, uint64_t key)
{
    /* Fibonacci hashing: keys are line addresses, the top bits of the
     * product mix all of them */
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> t->shift);
}

static int dup_in_use(const dup_table *t, const dup_slot *d) { return d->gen == t->gen; }

/* The slot holding key, or the free slot where it would go. */
static dup_slot *dup_probe(const dup_table *t, uint64_t key)
{
    uint32_t mask = t->cap - 1, h = dup_home(t, key);
    while (t->slot[h].gen == t->gen && t->slot[h].line != key)
        h = (h + 1) & mask;
    return &t->slot[h];
}

static uint32_t dup_filter_bit(uint64_t key)
{
    return (uint32_t)((key * 0xc2b2ae3d27d4eb4full) >> 50);   /* 14 bits */
}

static int dup_filter_has(const dup_table *t, uint64_t key)
{
    uint32_t b = dup_filter_bit(key);
    return (int)(t->filter[b >> 6] >> (b & 63) & 1);
}

static int dup_init(dup_table *t, uint32_t cap)
{
    t->slot = calloc(cap, sizeof *t->slot);   /* gen 0: free */
    t->cap = cap;
    t->used = 0;
    t->shift = 64 - lg(cap);
    t->gen = 1;
    return t->slot ? 0 : -1;
}

static void dup_clear(dup_table *t)
{
    if (++t->gen == 0) {     /* wrapped: really clear, once in 2^32 epochs */
        memset(t->slot, 0, (size_t)t->cap * sizeof *t->slot);
        t->gen = 1;
    }
    t->used = 0;
    memset(t->filter, 0, DUP_FILTER_BITS / 8);
}

static void dup_grow(dup_table *t)
{
    dup_table bigger;
    if (dup_init(&bigger, t->cap * 2) != 0) {
        fprintf(stderr, "smcosim mem-model: out of memory\n");
        exit(1);
    }
    for (uint32_t i = 0; i < t->cap; i++)
        if (dup_in_use(t, &t->slot[i])) {
            dup_slot *d = dup_probe(&bigger, t->slot[i].line);
            *d = t->slot[i];
            d->gen = bigger.gen;
        }
    bigger.used = t->used;
    bigger.filter = t->filter;   /* the same keys */
    free(t->slot);
    *t = bigger;
}

/* Record an MSHR allocation of `line` by `sm`; returns 1 when another SM
 * allocated the same line within the window. */
static int dup_record(mem_system *m, uint64_t line, uint32_t sm)
{
    uint64_t key = line | 1;
    uint64_t w = m->cfg.dup_window;
    if (m->now >= m->dup_epoch_end) {
        uint64_t len = w + 1;
        if (m->now < m->dup_epoch_end + len) {
            /* the next epoch: the current table becomes the previous one,
             * the old previous one is cleared and reused */
            dup_table t = m->dup_prev;
            m->dup_prev = m->dup_cur;
            m->dup_cur = t;
            dup_clear(&m->dup_cur);
        } else {
            /* a whole epoch without allocations: both are out of date */
            dup_clear(&m->dup_cur);
            dup_clear(&m->dup_prev);
        }
        m->dup_epoch_end = (m->now / len + 1) * len;
    }
    dup_table *cur = &m->dup_cur;
    if ((cur->used + 1) * 2 > cur->cap)
        dup_grow(cur);
    dup_slot *d = dup_probe(cur, key);
    if (!dup_in_use(cur, d)) {
        dup_slot *old = dup_filter_has(&m->dup_prev, key) ? dup_probe(&m->dup_prev, key)
                                                          : NULL;
        uint32_t b = dup_filter_bit(key);
        cur->filter[b >> 6] |= 1ull << (b & 63);
        cur->used++;
        if (old && dup_in_use(&m->dup_prev, old)) {
            *d = *old;               /* continue the previous epoch's record */
            d->gen = cur->gen;
        } else {
            d->line = key;
            d->gen = cur->gen;
            d->t_last = m->now;
            d->sm_last = (uint16_t)sm;
            d->has_other = 0;
            d->t_other = 0;
            return 0;
        }
    }
    int is_dup;
    if (sm != d->sm_last)
        is_dup = m->now - d->t_last <= w;
    else
        is_dup = d->has_other && m->now - d->t_other <= w;
    if (sm != d->sm_last) {
        d->t_other = d->t_last;
        d->has_other = 1;
        d->sm_last = (uint16_t)sm;
    }
    d->t_last = m->now;
    return is_dup;
}

/* ---- creation ---------------------------------------------------------- */

const mem_config *mem_get_config(const mem_system *m) { return &m->cfg; }
uint64_t mem_now(const mem_system *m) { return m->now; }
const mem_stats *mem_get_stats(const mem_system *m) { return &m->st; }
uint64_t mem_outstanding(const mem_system *m) { return m->outstanding; }

void mem_destroy(mem_system *m)
{
    if (!m)
        return;
    if (m->sm) {
        for (uint32_t i = 0; i < m->cfg.num_sms; i++) {
            sm_state *s = &m->sm[i];
            free(s->lines);
            free(s->ltag);
            free(s->mshr);
            mi_free(&s->mshr_ix);
            free(s->targets);
            free(s->out.buf);
            free(s->in.buf);
            free(s->done);
        }
    }
    if (m->part) {
        for (uint32_t i = 0; i < m->cfg.l2_partitions; i++) {
            part_state *p = &m->part[i];
            free(p->in.buf);
            free(p->out.buf);
            free(p->tag);
            free(p->fp);
            free(p->lru);
            free(p->mshr);
            mi_free(&p->mshr_ix);
            free(p->targets);
            free(p->queue);
            free(p->rd_done);
            free(p->rd_mshr);
            free(p->wr_done);
            free(p->banks);
        }
    }
    free(m->sm);
    free(m->part);
    free(m->sm_active.w);
    free(m->wheel);
    free(m->sm_out_busy.w);
    free(m->sm_ldst_busy.w);
    free(m->sm_has_done.w);
    free(m->inst);
    free(m->dup_cur.slot);
    free(m->dup_prev.slot);
    free(m->dup_cur.filter);
    free(m->dup_prev.filter);
    free(m->ser);
    free(m->series);
    free(m);
}

mem_system *mem_create(const mem_config *cfg, char *err, size_t errlen)
{
    if (mem_config_check(cfg, err, errlen) != 0)
        return NULL;
    mem_system *m = calloc(1, sizeof *m);
    if (!m) {
        smc_fail(err, errlen, "out of memory");
        return NULL;
    }
    m->cfg = *cfg;
    m->free_inst = UINT32_MAX;
    fd_init(&m->div_parts, cfg->l2_partitions);
    fd_init(&m->div_banks, cfg->dram_banks);
    m->l2_lru_stride = 2 * cfg->l2_ways + 3;
    m->l2_fp_words = (cfg->l2_ways + 7) / 8;
    m->dram_burst = ceil_div(cfg->l2_line_bytes, cfg->dram_bytes_per_cycle);
    m->ser = malloc((cfg->l1d_sector_bytes + 1) * sizeof *m->ser);
    for (uint32_t b = 0; m->ser && b <= cfg->l1d_sector_bytes; b++)
        m->ser[b] = ceil_div(cfg->icnt_header_bytes + b, cfg->icnt_bytes_per_cycle);
    m->done_min = UINT64_MAX;
    m->series_countdown = cfg->sample_interval;
    m->sectors_per_line = cfg->l1d_line_bytes / cfg->l1d_sector_bytes;
    /* The slice input queue also holds the requests inside the L2 pipeline
     * (one enters per cycle, each stays l2.latency cycles); the output queue
     * can take all responses of one fill at once. */
    m->l2_in_cap = cfg->l2_queue_entries + cfg->l2_latency;
    m->l2_out_cap = cfg->l2_queue_entries + cfg->l2_mshr_max_merge;
    m->sm = calloc(cfg->num_sms, sizeof *m->sm);
    m->part = calloc(cfg->l2_partitions, sizeof *m->part);
    /* longest ejection-queue delay: icnt.latency + serialisation - 1 of a
     * packet carrying a whole line */
    uint32_t max_delay = cfg->icnt_latency +
                         ceil_div(cfg->icnt_header_bytes + cfg->l1d_line_bytes,
                                  cfg->icnt_bytes_per_cycle);
    uint32_t wheel_slots = 1;
    while (wheel_slots <= max_delay)
        wheel_slots *= 2;
    m->wheel_mask = wheel_slots - 1;
    int bad = !m->sm || !m->part || !m->ser || bs_init(&m->sm_active, cfg->num_sms) ||
              !(m->wheel = calloc((size_t)wheel_slots * ((cfg->num_sms + 63) / 64),
                                  sizeof *m->wheel)) ||
              bs_init(&m->sm_out_busy, cfg->num_sms) ||
              bs_init(&m->sm_ldst_busy, cfg->num_sms) ||
              bs_init(&m->sm_has_done, cfg->num_sms) || dup_init(&m->dup_cur, 1024) ||
              dup_init(&m->dup_prev, 1024) ||
              !(m->dup_cur.filter = calloc(DUP_FILTER_BITS / 64, sizeof (uint64_t))) ||
              !(m->dup_prev.filter = calloc(DUP_FILTER_BITS / 64, sizeof (uint64_t)));
    for (uint32_t i = 0; !bad && i < cfg->num_sms; i++) {
        sm_state *s = &m->sm[i];
        s->lines = calloc((size_t)cfg->l1d_sets * cfg->l1d_ways, sizeof *s->lines);
        s->ltag = malloc((size_t)cfg->l1d_sets * cfg->l1d_ways * sizeof *s->ltag);
        for (uint32_t w = 0; s->ltag && w < cfg->l1d_sets * cfg->l1d_ways; w++)
            s->ltag[w] = L1_NO_LINE;
        s->mshr = calloc(cfg->l1d_mshr_entries, sizeof *s->mshr);
        s->targets = calloc((size_t)cfg->l1d_mshr_entries * cfg->l1d_mshr_max_merge,
                            sizeof *s->targets);
        bad = !s->lines || !s->ltag || !s->mshr || !s->targets ||
              mi_init(&s->mshr_ix, cfg->l1d_mshr_entries) ||
              ring_init(&s->out, cfg->icnt_queue_entries) ||
              ring_init(&s->in, cfg->icnt_queue_entries);
    }
    for (uint32_t i = 0; !bad && i < cfg->l2_partitions; i++) {
        part_state *p = &m->part[i];
        p->tag = calloc((size_t)cfg->l2_sets * cfg->l2_ways, sizeof *p->tag);
        p->fp = calloc((size_t)cfg->l2_sets * m->l2_fp_words, sizeof *p->fp);
        p->lru = calloc((size_t)cfg->l2_sets * m->l2_lru_stride, 1);
        for (uint32_t st = 0; p->lru && st < cfg->l2_sets; st++) {
            uint8_t *l = &p->lru[(size_t)st * m->l2_lru_stride];
            l[2 * cfg->l2_ways] = l[2 * cfg->l2_ways + 1] = L2_NONE;
        }
        p->mshr = calloc(cfg->l2_mshr_entries, sizeof *p->mshr);
        p->targets = calloc((size_t)cfg->l2_mshr_entries * cfg->l2_mshr_max_merge,
                            sizeof *p->targets);
        p->queue = calloc(cfg->dram_queue_entries, sizeof *p->queue);
        /* room for every request that can be alive at once (queue, banks,
         * reads waiting for their L2 fill): the channel never blocks on it */
        p->fcap = cfg->dram_queue_entries + cfg->dram_banks + cfg->l2_mshr_entries;
        p->rd_done = calloc(p->fcap, sizeof *p->rd_done);
        p->rd_mshr = calloc(p->fcap, sizeof *p->rd_mshr);
        p->wr_done = calloc(p->fcap, sizeof *p->wr_done);
        p->banks = calloc(cfg->dram_banks, sizeof *p->banks);
        bad = !p->tag || !p->fp || !p->lru || !p->mshr || !p->targets || !p->queue || !p->rd_done ||
              !p->rd_mshr || !p->wr_done ||
              mi_init(&p->mshr_ix, cfg->l2_mshr_entries) ||
              !p->banks || ring_init(&p->in, m->l2_in_cap) ||
              ring_init(&p->out, m->l2_out_cap);
        p->out_try = UINT64_MAX;
        p->wake = UINT64_MAX;    /* nothing to do yet */
        for (uint32_t b = 0; !bad && b < cfg->dram_banks; b++)
            p->banks[b].open_row = DRAM_ROW_CLOSED;
    }
    if (bad) {
        mem_destroy(m);
        /* name the keys that size the two big arrays: per L1D way its state
         * and tag, per L2 way its tag, fingerprint byte and two LRU bytes */
        double l1 = (double)cfg->num_sms * cfg->l1d_sets * cfg->l1d_ways *
                    (sizeof(l1_line) + sizeof(uint64_t));
        double l2 = (double)cfg->l2_partitions * cfg->l2_sets * cfg->l2_ways *
                    (sizeof(uint64_t) + 3);
        smc_fail(err, errlen, "out of memory creating the memory model (L1D lines %.1f GiB: "
             "mem.num_sms x l1d.sets x l1d.ways; L2 lines %.1f GiB: l2.partitions x "
             "l2.sets x l2.ways)", l1 / (1 << 30), l2 / (1 << 30));
        return NULL;
    }
    return m;
}

/* ---- address mapping --------------------------------------------------- */

static uint32_t partition_of(const mem_system *m, uint64_t addr)
{
    return fd_mod(&m->div_parts, addr >> lg(m->cfg.l2_line_bytes));
}

/* Partition-local byte address of the L2 line holding addr. */
static uint64_t local_line(const mem_system *m, uint64_t addr)
{
    uint32_t sh = lg(m->cfg.l2_line_bytes);
    return fd_div(&m->div_parts, addr >> sh) << sh;
}

/* ---- DRAM channel ------------------------------------------------------ */

static int dram_queue_room(const mem_system *m, const part_state *p)
{
    return p->qn < m->cfg.dram_queue_entries;
}

static void dram_enqueue(mem_system *m, part_state *p, uint64_t lline, int is_write,
                         uint32_t mshr)
{
    const mem_config *c = &m->cfg;
    dram_req *r = &p->queue[p->qn++];
    r->line = lline;
    r->arrival = p->arrivals++;
    uint64_t row_index = lline >> lg(c->dram_row_bytes);
    r->bank = fd_mod(&m->div_banks, row_index);
    r->row = fd_div(&m->div_banks, row_index);
    r->is_write = (uint8_t)is_write;
    r->mshr = mshr;
    r->done = 0;
    /* sched_wait stays a lower bound of the ready cycles of the banks with
     * queued requests (bank ready cycles only grow, at a start, after which
     * dram_cycle recomputes it): no start is possible before it */
    if (p->banks[r->bank].ready < p->sched_wait)
        p->sched_wait = p->banks[r->bank].ready;
    m->live++;
}

/* Timing of a request started now on its bank (see docs/memory-model.md). */
static void dram_start(mem_system *m, part_state *p, dram_req *r)
{
    const mem_config *c = &m->cfg;
    dram_bank *b = &p->banks[r->bank];
    uint64_t col;
    if (b->open_row == r->row) {
        col = m->now;
        m->st.dram_row_hits++;
    } else {
        uint64_t act = m->now;
        if (b->open_row != DRAM_ROW_CLOSED)
            act = max64(m->now, b->pre_ok) + c->dram_tRP;
        if (b->activated)
            act = max64(act, b->act + c->dram_tRC);
        if (p->any_act)
            act = max64(act, p->last_act + c->dram_tRRD);
        b->open_row = r->row;
        b->act = act;
        b->activated = 1;
        b->pre_ok = act + c->dram_tRAS;
        p->last_act = act;
        p->any_act = 1;
        col = act + c->dram_tRCD;
    }
    if (!r->is_write)
        col = max64(col, b->wr_end + c->dram_tCDLR);
    uint32_t burst = m->dram_burst;
    uint64_t data = max64(col + c->dram_tCL, p->bus_free);
    uint64_t end = data + burst;
    p->bus_free = end;
    b->ready = end - c->dram_tCL;
    if (r->is_write) {
        b->wr_end = end;
        b->pre_ok = max64(b->pre_ok, end + c->dram_tWR);
        r->done = end;
        m->st.dram_writes++;
    } else {
        r->done = end + c->dram_latency;
        m->st.dram_reads++;
    }
    m->st.dram_bytes += c->l2_line_bytes;
    m->st.dram_busy_cycles += burst;
}

static void dram_cycle(mem_system *m, part_state *p)
{
    /* finished writes disappear (a finished read waits in rd_* until the
     * L2 slice takes its fill) */
    while (p->wr_n && p->wr_done[p->wr_head] <= m->now) {
        p->wr_head = p->wr_head + 1 == p->fcap ? 0 : p->wr_head + 1;
        p->wr_n--;
        m->live--;
    }
    if (!p->qn || p->rd_n + p->wr_n >= p->fcap || p->sched_wait > m->now)
        return;
    /* FR-FCFS: the oldest row hit on a ready bank, else the oldest request
     * on a ready bank. The queue is kept in arrival order. */
    int pick = -1;
    for (uint32_t i = 0; i < p->qn; i++) {
        dram_bank *b = &p->banks[p->queue[i].bank];
        if (b->ready > m->now)
            continue;
        if (b->open_row == p->queue[i].row) {
            pick = (int)i;
            break;
        }
        if (pick < 0)
            pick = (int)i;
    }
    if (pick < 0) {
        uint64_t w = UINT64_MAX;
        for (uint32_t i = 0; i < p->qn; i++)
            if (p->banks[p->queue[i].bank].ready < w)
                w = p->banks[p->queue[i].bank].ready;
        p->sched_wait = w;
        return;
    }
    dram_req r = p->queue[pick];
    memmove(&p->queue[pick], &p->queue[pick + 1],
            (p->qn - (uint32_t)pick - 1) * sizeof *p->queue);
    p->qn--;
    dram_start(m, p, &r);
    /* Only the started request's bank changed, so the next start cannot
     * come before the earliest ready cycle of a bank with a queued request:
     * waiting for it here saves the visits (and failed scans) in between.
     * (An enqueue lowers it to its bank's ready cycle if earlier; a full FIFO
     * only delays a start.) */
    uint64_t w = UINT64_MAX;
    for (uint32_t i = 0; i < p->qn; i++) {
        uint64_t ready = p->banks[p->queue[i].bank].ready;
        w = ready < w ? ready : w;
    }
    p->sched_wait = w;
    if (r.is_write) {
        uint32_t k = p->wr_head + p->wr_n++;
        p->wr_done[k >= p->fcap ? k - p->fcap : k] = r.done;
    } else {
        uint32_t k = p->rd_head + p->rd_n++;
        k = k >= p->fcap ? k - p->fcap : k;
        p->rd_done[k] = r.done;
        p->rd_mshr[k] = r.mshr;
    }
}

/* ---- L2 slice ---------------------------------------------------------- */

static uint32_t l2_set_of(const mem_system *m, uint64_t lline)
{
    return (uint32_t)((lline >> lg(m->cfg.l2_line_bytes)) & (m->cfg.l2_sets - 1));
}

static uint64_t l2_fingerprint(uint64_t lline)
{
    return 0x80 | ((lline * 0x9e3779b97f4a7c15ull) >> 57);
}

/* The tag holding lline, or NULL. Equal fingerprints are found eight ways at
 * a time (bytes of fp ^ wanted that are zero: the wanted byte has bit 7 set,
 * so a zero byte is a valid way whose fingerprint matches, and the masked
 * add below cannot carry from one byte into the next); only those ways'
 * tags are compared (a line is in at most one way). */
static uint64_t *l2_find(mem_system *m, part_state *p, uint64_t lline)
{
    uint32_t ways = m->cfg.l2_ways, set = l2_set_of(m, lline);
    uint64_t *t = &p->tag[(size_t)set * ways];
    const uint64_t *fp = &p->fp[(size_t)set * m->l2_fp_words];
    uint64_t want = lline | L2_VALID;
    uint64_t rep = l2_fingerprint(lline) * 0x0101010101010101ull;
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    for (uint32_t k = 0; k < m->l2_fp_words; k++) {
        uint64_t x = fp[k] ^ rep;
        uint64_t zero = ~(((x & low7) + low7) | x) & ~low7;
        for (; zero; zero &= zero - 1) {
            uint32_t w = k * 8 + (uint32_t)__builtin_ctzll(zero) / 8;
            if ((t[w] & ~(uint64_t)L2_DIRTY) == want)
                return &t[w];
        }
    }
    return NULL;
}

/* The L2 keeps each set's valid lines in a list in last-use order; a use
 * moves a line to the MRU end and the victim is the LRU end. */
static void l2_lru_unlink(uint8_t *l, uint32_t ways, uint32_t w)
{
    uint8_t *next = l, *prev = l + ways, *head = l + 2 * ways, *tail = head + 1;
    uint8_t pv = prev[w], nx = next[w];
    if (pv == L2_NONE)
        *head = nx;
    else
        next[pv] = nx;
    if (nx == L2_NONE)
        *tail = pv;
    else
        prev[nx] = pv;
}

static void l2_lru_push_mru(uint8_t *l, uint32_t ways, uint32_t w)
{
    uint8_t *next = l, *prev = l + ways, *head = l + 2 * ways, *tail = head + 1;
    uint8_t h = *head;
    prev[w] = L2_NONE;
    next[w] = h;
    if (h == L2_NONE)
        *tail = (uint8_t)w;
    else
        prev[h] = (uint8_t)w;
    *head = (uint8_t)w;
}

/* A use of the valid line whose tag is t. */
static void l2_touch(mem_system *m, part_state *p, uint64_t *t)
{
    uint32_t ways = m->cfg.l2_ways;
    uint32_t set = l2_set_of(m, *t & ~(uint64_t)(L2_VALID | L2_DIRTY));
    uint32_t w = (uint32_t)(t - &p->tag[(size_t)set * ways]);
    uint8_t *l = &p->lru[(size_t)set * m->l2_lru_stride];
    if (l[2 * ways] == w)
        return;
    l2_lru_unlink(l, ways, w);
    l2_lru_push_mru(l, ways, w);
}

/* Allocate lline in its set: the first never-used way, else the LRU one. A
 * dirty victim is written back, which needs a DRAM queue slot: returns NULL
 * (try again later) without it. The line joins the MRU end (every caller
 * uses it at once). */
static uint64_t *l2_allocate(mem_system *m, part_state *p, uint64_t lline)
{
    uint32_t ways = m->cfg.l2_ways;
    uint32_t set = l2_set_of(m, lline);
    uint64_t *t = &p->tag[(size_t)set * ways];
    uint8_t *l = &p->lru[(size_t)set * m->l2_lru_stride];
    uint8_t *nvalid = &l[2 * ways + 2];
    uint32_t w = *nvalid < ways ? *nvalid : l[2 * ways + 1];
    if ((t[w] & (L2_VALID | L2_DIRTY)) == (L2_VALID | L2_DIRTY)) {
        if (!dram_queue_room(m, p))
            return NULL;
        dram_enqueue(m, p, t[w] & ~(uint64_t)(L2_VALID | L2_DIRTY), 1, 0);
        m->st.l2_writebacks++;
    }
    if (t[w] & L2_VALID)
        l2_lru_unlink(l, ways, w);
    else
        ++*nvalid;
    t[w] = lline | L2_VALID;
    uint64_t *fw = &p->fp[(size_t)set * m->l2_fp_words + w / 8];
    uint32_t sh = 8 * (w % 8);
    *fw = (*fw & ~(0xffull << sh)) | l2_fingerprint(lline) << sh;
    l2_lru_push_mru(l, ways, w);
    return &t[w];
}

/* Partition p's front response may leave from cycle p->out_try on. */
static void out_schedule(mem_system *m, part_state *p)
{
    uint64_t bit = 1ull << (p - m->part);
    if (p->out_try <= m->now)
        m->out_ready |= bit;
    else if (p->out_try != UINT64_MAX)
        m->owheel[p->out_try & PW_MASK] |= bit;
}

/* The request req (which the caller then drops) becomes the response. */
static void l2_respond(mem_system *m, part_state *p, packet *req, uint64_t ready)
{
    /* responses leave the slice in order */
    req->ready = max64(ready, p->last_resp_ready);
    p->last_resp_ready = req->ready;
    ring_push(&p->out, req);
    if (p->out.count == 1) {
        p->out_try = max64(p->out_port_free, req->ready);
        out_schedule(m, p);
    }
}

static void l2_cycle(mem_system *m, part_state *p)
{
    const mem_config *c = &m->cfg;
    /* 1. one DRAM fill */
    if (p->rd_n && p->rd_done[p->rd_head] <= m->now) {
        uint32_t e = p->rd_mshr[p->rd_head];
        l2_mshr *ms = &p->mshr[e];
        uint64_t lline = ms->line;
        if (p->out.count + ms->ntargets <= m->l2_out_cap) {
            /* the line missed when the entry was taken, and only a write
             * can have brought it in since (fills come only for MSHRs, one
             * per line) */
            uint64_t *l = ms->maybe_cached ? l2_find(m, p, lline) : NULL;
            if (!l)
                l = l2_allocate(m, p, lline);
            if (l) {
                l2_touch(m, p, l);
                for (uint32_t t = 0; t < ms->ntargets; t++) {
                    packet *tp = &p->targets[e * c->l2_mshr_max_merge + t];
                    if (tp->kind == PK_ATOMIC)
                        *l |= L2_DIRTY;
                    l2_respond(m, p, tp, m->now);
                }
                ms->used = 0;
                mi_release(&p->mshr_ix, lline, e);
                p->mshr_used--;
                p->rd_head = p->rd_head + 1 == p->fcap ? 0 : p->rd_head + 1;
                p->rd_n--;
                m->live--;   /* the DRAM read */
            }
        }
    }
    /* 2. one request */
    if (!p->in.count || ring_front(&p->in)->ready > m->now)
        return;
    packet *q = ring_front(&p->in);
    uint64_t lline = local_line(m, q->addr);
    int k = q->kind == PK_ATOMIC ? 2 : q->kind == PK_WRITE ? 1 : 0;
    if (q->kind == PK_WRITE) {
        /* write-back, write-allocate without fetch */
        uint64_t *l = l2_find(m, p, lline);
        if (!l) {
            l = l2_allocate(m, p, lline);
            if (!l)
                return;
            int e = mi_find(&p->mshr_ix, lline);
            if (e >= 0)
                p->mshr[e].maybe_cached = 1;
            m->st.l2_miss[k]++;
        } else {
            m->st.l2_hit[k]++;
        }
        *l |= L2_DIRTY;
        l2_touch(m, p, l);
        ring_pop(&p->in);
        m->live--;
        return;
    }
    uint64_t *l = l2_find(m, p, lline);
    if (l) {
        if (p->out.count >= m->l2_out_cap)
            return;
        l2_touch(m, p, l);
        if (q->kind == PK_ATOMIC)
            *l |= L2_DIRTY;
        m->st.l2_hit[k]++;
        l2_respond(m, p, q, m->now);
        ring_pop(&p->in);
        return;
    }
    int found = mi_find(&p->mshr_ix, lline);
    uint32_t e;
    if (found >= 0) {
        e = (uint32_t)found;
        if (p->mshr[e].ntargets >= c->l2_mshr_max_merge)
            return;
        m->st.l2_mshr_merge++;
    } else {
        if (p->mshr_used == c->l2_mshr_entries || !dram_queue_room(m, p))
            return;
        e = mi_take(&p->mshr_ix, lline);
        p->mshr[e].used = 1;
        p->mshr[e].maybe_cached = 0;
        p->mshr[e].line = lline;
        p->mshr[e].ntargets = 0;
        p->mshr_used++;
        dram_enqueue(m, p, lline, 0, e);
    }
    m->st.l2_miss[k]++;
    p->targets[e * c->l2_mshr_max_merge + p->mshr[e].ntargets++] = *q;
    ring_pop(&p->in);
}

/* ---- replays ---------------------------------------------------------------
 * A transaction that cannot be accepted (no MSHR, merge list full, no line to
 * reserve, injection queue full) is replayed every cycle, holding the LD/ST
 * unit. Nothing but an MSHR release or an injection-queue pop can change the
 * outcome, so instead of retrying every cycle the SM sleeps until one of
 * those events and the skipped cycles are added to the stall counters then:
 * the statistics and timing are the same as with a retry every cycle. */

static void sm_block(mem_system *m, sm_state *s, int kind)
{
    s->blocked = 1;
    s->blocked_kind = (uint8_t)kind;
    s->blocked_since = m->now;
}

static void sm_wake(mem_system *m, sm_state *s, uint32_t si)
{
    if (!s->blocked)
        return;
    /* cycles blocked_since+1 .. now-1 were replays that were skipped */
    uint64_t skipped = m->now - s->blocked_since - 1;
    if (s->blocked_kind)
        m->st.stall_icnt += skipped;
    else
        m->st.stall_mshr += skipped;
    m->st.ldst_busy_cycles += skipped;
    s->blocked = 0;
    bs_set(&m->sm_active, si);
}

/* Visit SM si at cycle t (> now). */
static void wheel_add(mem_system *m, uint32_t si, uint64_t t)
{
    uint64_t *slot = &m->wheel[(size_t)(t & m->wheel_mask) * m->sm_active.nwords];
    slot[si >> 6] |= 1ull << (si & 63);
}

/* ---- interconnect ------------------------------------------------------ */

static uint32_t ser_cycles(const mem_system *m, uint32_t payload)
{
    if (payload <= m->cfg.l1d_sector_bytes)
        return m->ser[payload];
    return ceil_div(m->cfg.icnt_header_bytes + payload, m->cfg.icnt_bytes_per_cycle);
}

/* Move a packet carrying `payload` data bytes over a link whose two ports
 * are free; returns its arrival cycle. */
static uint64_t icnt_send(mem_system *m, uint32_t payload, uint64_t *src_free,
                          uint64_t *dst_free)
{
    uint32_t ser = ser_cycles(m, payload);
    *src_free = *dst_free = m->now + ser;
    return m->now + m->cfg.icnt_latency + ser - 1;
}

static void icnt_cycle(mem_system *m)
{
    const mem_config *c = &m->cfg;
    uint32_t np = c->l2_partitions, ns = c->num_sms;
    /* L2 -> SM: responses; round-robin from rr_down over the partitions
     * whose port is free and whose front response is ready (out_try <= now:
     * out_ready, plus the wheel's partitions due now) */
    uint32_t slot = (uint32_t)(m->now & PW_MASK);
    uint64_t keep = 0;
    for (uint64_t bits = m->owheel[slot]; bits; bits &= bits - 1) {
        uint32_t pi = (uint32_t)__builtin_ctzll(bits);
        uint64_t t = m->part[pi].out_try;
        if (t <= m->now)
            m->out_ready |= 1ull << pi;
        else if (t != UINT64_MAX && (t & PW_MASK) == slot)
            keep |= 1ull << pi;             /* PW_SLOTS or more cycles ahead */
    }
    m->owheel[slot] = keep;
    uint64_t can = m->out_ready;
    uint64_t order[2] = { can & (~0ull << m->rr_down),
                          can & ((1ull << m->rr_down) - 1) };
    for (int half = 0; half < 2; half++) {
        for (uint64_t bits = order[half]; bits; bits &= bits - 1) {
            uint32_t pi = (uint32_t)__builtin_ctzll(bits);
            part_state *p = &m->part[pi];
            packet *pk = ring_front(&p->out);
            sm_state *s = &m->sm[pk->sm];
            if (s->in_port_free > m->now || ring_full(&s->in))
                continue;
            uint32_t si = pk->sm, bytes = pk->bytes;
            uint64_t ready = icnt_send(m, bytes, &p->out_port_free, &s->in_port_free);
            pk->ready = ready;       /* moved in place, then popped */
            ring_push(&s->in, pk);
            ring_pop(&p->out);
            p->out_try = p->out.count ? max64(p->out_port_free, ring_front(&p->out)->ready)
                                      : UINT64_MAX;
            m->out_ready &= ~(1ull << pi);  /* out_try > now: the port is busy */
            out_schedule(m, p);
            if (s->in.count == 1)
                wheel_add(m, si, ready);
            m->st.icnt_down_packets++;
            m->st.icnt_down_bytes += c->icnt_header_bytes + bytes;
        }
    }
    m->rr_down = m->rr_down + 1 == np ? 0 : m->rr_down + 1;
    /* SM -> L2: requests; round-robin from rr_up over SMs with queued
     * packets: the words of sm_out_busy from rr_up's word on, that word
     * split in two (its bits from rr_up, then after the others its bits
     * below rr_up) so that each SM is visited once, in rotated order. A
     * word is read when its turn comes; only bits already visited are
     * cleared meanwhile. */
    uint32_t nw = m->sm_out_busy.nwords, wi = m->rr_up / 64, start_bit = m->rr_up % 64;
    uint32_t visits = nw + (start_bit != 0);   /* no second half without a split */
    for (uint32_t k = 0; k < visits; k++, wi = wi + 1 == nw ? 0 : wi + 1) {
        uint64_t bits = m->sm_out_busy.w[wi];
        if (k == 0)
            bits &= ~0ull << start_bit;
        else if (k == nw)
            bits &= (1ull << start_bit) - 1;
        while (bits) {
            uint32_t si = wi * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            sm_state *s = &m->sm[si];
            packet *pk = ring_front(&s->out);
            if (s->out_port_free > m->now || pk->ready > m->now)
                continue;
            part_state *p = &m->part[partition_of(m, pk->addr)];
            if (p->in_port_free > m->now || ring_full(&p->in))
                continue;
            /* a read request carries only its header */
            uint32_t payload = pk->kind == PK_READ ? 0 : pk->bytes;
            /* it reaches the slice and spends l2.latency in its pipeline */
            uint64_t ready = icnt_send(m, payload, &s->out_port_free, &p->in_port_free) +
                             c->l2_latency;
            pk->ready = ready;
            ring_push(&p->in, pk);
            if (ready < p->wake) {
                p->wake = ready;            /* > now */
                m->pwheel[ready & PW_MASK] |= 1ull << (p - m->part);
            }
            ring_pop(&s->out);
            if (!s->out.count)
                bs_clear(&m->sm_out_busy, si);
            sm_wake(m, s, si);
            m->st.icnt_up_packets++;
            m->st.icnt_up_bytes += c->icnt_header_bytes + payload;
        }
    }
    m->rr_up = m->rr_up + 1 == ns ? 0 : m->rr_up + 1;
}

/* ---- L1D --------------------------------------------------------------- */

static l1_line *l1_set_base(mem_system *m, sm_state *s, uint32_t set)
{
    return &s->lines[(size_t)set * m->cfg.l1d_ways];
}

/* The way holding line (valid or reserved sectors), or NULL. A line is in
 * at most one such way, so the scan needs no early exit: it is written
 * without data-dependent branches (the outcome is hard to predict). Empty
 * ways hold L1_NO_LINE, which matches no line. */
static l1_line *l1_find(mem_system *m, sm_state *s, uint32_t set, uint64_t line)
{
    size_t base = (size_t)set * m->cfg.l1d_ways;
    const uint64_t *t = &s->ltag[base];
    uint32_t found = UINT32_MAX;
    for (uint32_t w = 0; w < m->cfg.l1d_ways; w++)
        found = t[w] == line ? w : found;
    return found == UINT32_MAX ? NULL : &s->lines[base + found];
}

/* LRU victim among lines with no reserved sectors; NULL if all reserved. */
static l1_line *l1_victim(mem_system *m, sm_state *s, uint32_t set)
{
    l1_line *b = l1_set_base(m, s, set), *v = NULL;
    for (uint32_t w = 0; w < m->cfg.l1d_ways; w++) {
        if (b[w].reserved)
            continue;
        if (!b[w].valid)
            return &b[w];
        if (!v || b[w].lru < v->lru)
            v = &b[w];
    }
    return v;
}

static void l1_take_line(mem_system *m, sm_state *s, l1_line *v, uint64_t line)
{
    if (v->valid)
        m->st.l1_evictions++;
    s->ltag[v - s->lines] = line;
    v->valid = 0;
    v->reserved = 0;
    v->lru = ++s->lru_clock;
}

static uint32_t sector_bit(const mem_system *m, uint64_t block)
{
    return 1u << ((block & (m->cfg.l1d_line_bytes - 1)) >> lg(m->cfg.l1d_sector_bytes));
}


/* A read response for `block` reached SM s: fill and serve the MSHR. */
static void l1_fill(mem_system *m, sm_state *s, uint64_t block, uint32_t entry)
{
    const mem_config *c = &m->cfg;
    /* the request carried its MSHR entry; check it is the right one */
    int e = (int)entry;
    if (entry >= c->l1d_mshr_entries || !s->mshr[e].used || s->mshr[e].block != block) {
        fprintf(stderr, "smcosim mem-model: internal error: response for "
                "block 0x%llx without MSHR\n", (unsigned long long)block);
        abort();
    }
    uint64_t line = block & ~(uint64_t)(c->l1d_line_bytes - 1);
    uint32_t set = mem_l1_set(c, line), bit = sector_bit(m, block);
    /* With whole-line blocks and allocate-on-fill the line missed when the
     * entry was taken and nothing but this fill can bring it in (stores do
     * not allocate): no lookup. Otherwise fills of other sectors may have
     * allocated it, or allocate-on-miss reserved it. */
    l1_line *l = m->sectors_per_line == 1 && c->l1d_alloc == MEM_ALLOC_ON_FILL
                     ? NULL : l1_find(m, s, set, line);
    if (!l) {
        /* allocate-on-fill (or a line invalidated by a store meanwhile) */
        l = l1_victim(m, s, set);
        if (l)
            l1_take_line(m, s, l, line);
    }
    if (l) {
        l->reserved &= ~bit;
        l->valid |= bit;
        l->lru = ++s->lru_clock;
        m->st.l1_fills++;
    }
    mshr_entry *ms = &s->mshr[e];
    for (uint32_t t = 0; t < ms->ntargets; t++)
        inst_data(m, s->targets[(uint32_t)e * c->l1d_mshr_max_merge + t], m->now + 1, 1);
    m->st.l1_mshr_targets += ms->ntargets;
    m->st.l1_mshr_released++;
    m->st.l1_mshr_merge_hist[ms->ntargets > 64 ? 64 : ms->ntargets]++;
    ms->used = 0;
    mi_release(&s->mshr_ix, block, entry);
    s->mshr_used--;
    m->mshr_used_all--;
}

static void inject(mem_system *m, sm_state *s, uint32_t si, uint64_t addr,
                   uint32_t bytes, int kind, uint32_t inst)
{
    packet pk = { addr, m->now + 1, si, inst, bytes, (uint8_t)kind };
    ring_push(&s->out, &pk);
    bs_set(&m->sm_out_busy, si);
    m->live++;
}

/* Process the next transaction of the instruction in the LD/ST unit.
 * Returns 1 when it was accepted, 0 when it must be replayed. */
static int ldst_transaction(mem_system *m, sm_state *s, uint32_t si)
{
    const mem_config *c = &m->cfg;
    mem_tx *tx = &s->tx[s->next];
    uint64_t line = tx->block & ~(uint64_t)(c->l1d_line_bytes - 1);
    uint32_t bit = sector_bit(m, tx->block);
    inst_rec *r = &m->inst[s->inst];
    l1_line *l = NULL;

    if (s->known_miss) {
        /* A replay of a load that missed with no MSHR for its block: only a
         * fill can validate its sector and only this LD/ST unit, which holds
         * the load, can allocate an MSHR (fills come only for MSHRs), so it
         * still misses and merges nowhere. The line's way may have changed
         * (fills of other sectors, evictions): looked up again if needed. */
        if (c->l1d_alloc == MEM_ALLOC_ON_MISS)
            l = l1_find(m, s, tx->set, line);
        goto allocate;
    }
    l = l1_find(m, s, tx->set, line);
    if (s->op != MEM_LOAD) {
        /* stores and atomics: write-evict, no write-allocate; atomics are
         * performed at the L2 */
        if (ring_full(&s->out)) {
            m->st.stall_icnt++;
            sm_block(m, s, 1);
            return 0;
        }
        if (l && l->valid && !l->reserved) {
            l->valid = 0;
            s->ltag[l - s->lines] = L1_NO_LINE;
            m->st.l1_write_evicts++;
            m->st.l1_hit[s->op]++;
        } else {
            m->st.l1_miss[s->op]++;
        }
        if (s->op == MEM_STORE) {
            inject(m, s, si, tx->block, tx->bytes, PK_WRITE, 0);
        } else {
            r->pending++;
            inject(m, s, si, tx->block, tx->bytes, PK_ATOMIC, s->inst);
        }
        return 1;
    }
    if (l && (l->valid & bit)) {
        l->lru = ++s->lru_clock;
        m->st.l1_hit[MEM_LOAD]++;
        r->ready = max64(r->ready, m->now + c->l1d_latency);
        return 1;
    }
    int e = mi_find(&s->mshr_ix, tx->block);
    if (e >= 0) {
        mshr_entry *ms = &s->mshr[e];
        if (ms->ntargets >= c->l1d_mshr_max_merge) {
            m->st.stall_mshr++;
            sm_block(m, s, 0);
            return 0;
        }
        s->targets[(uint32_t)e * c->l1d_mshr_max_merge + ms->ntargets++] = s->inst;
        r->pending++;
        /* even if the fill is about to arrive, no load completes faster than
         * the L1 access itself */
        r->ready = max64(r->ready, m->now + c->l1d_latency);
        m->st.l1_miss[MEM_LOAD]++;
        m->st.l1_mshr_merge++;
        return 1;
    }
allocate:
    if (s->mshr_used == c->l1d_mshr_entries) {
        m->st.stall_mshr++;
        sm_block(m, s, 0);
        s->known_miss = 1;
        return 0;
    }
    if (ring_full(&s->out)) {
        m->st.stall_icnt++;
        sm_block(m, s, 1);
        s->known_miss = 1;
        return 0;
    }
    if (c->l1d_alloc == MEM_ALLOC_ON_MISS) {
        if (!l) {
            l = l1_victim(m, s, tx->set);
            if (!l) {            /* every way has a fill pending */
                m->st.stall_mshr++;
                sm_block(m, s, 0);
                s->known_miss = 1;
                return 0;
            }
            l1_take_line(m, s, l, line);
        }
        l->reserved |= bit;
    }
    s->known_miss = 0;
    uint32_t e2 = mi_take(&s->mshr_ix, tx->block);
    s->mshr[e2].used = 1;
    s->mshr[e2].block = tx->block;
    s->mshr[e2].ntargets = 1;
    s->targets[e2 * c->l1d_mshr_max_merge] = s->inst;
    s->mshr_used++;
    m->mshr_used_all++;
    if (s->mshr_used > m->st.l1_mshr_occ_max)
        m->st.l1_mshr_occ_max = s->mshr_used;
    r->pending++;
    m->st.l1_miss[MEM_LOAD]++;
    m->st.l1_mshr_alloc++;
    if (dup_record(m, line, si))
        m->st.l1_mshr_dup++;
    inject(m, s, si, tx->block, c->l1d_sector_bytes, PK_READ, e2);
    return 1;
}

static void ldst_done(mem_system *m, sm_state *s, uint64_t ready)
{
    inst_rec *r = &m->inst[s->inst];
    s->busy = 0;
    bs_clear(&m->sm_ldst_busy, r->c.sm);
    r->issuing = 0;
    inst_data(m, s->inst, ready, 0);
}

static void sm_cycle(mem_system *m, sm_state *s, uint32_t si)
{
    const mem_config *c = &m->cfg;
    /* one response per cycle */
    if (s->in.count && ring_front(&s->in)->ready <= m->now) {
        packet *pk = ring_front(&s->in);
        if (pk->kind == PK_ATOMIC)
            inst_data(m, pk->inst, m->now + 1, 1);
        else
            l1_fill(m, s, pk->addr, pk->inst);
        ring_pop(&s->in);
        m->live--;
        sm_wake(m, s, si);
    }
    if (!s->busy || s->blocked)
        return;
    m->st.ldst_busy_cycles++;
    if (s->space == MEM_SHARED || s->space == MEM_CONST) {
        if (--s->remaining == 0)
            ldst_done(m, s, m->now + (s->space == MEM_SHARED ? c->smem_latency
                                                             : c->const_latency));
        return;
    }
    if (!ldst_transaction(m, s, si))
        return;
    s->next++;
    if (s->next < s->ntx) {
        m->st.stall_coal++;
        return;
    }
    ldst_done(m, s, m->now + 1);
}

/* ---- the public cycle ------------------------------------------------------- */

/* The MSHR occupancy sample of the interval that ends with this cycle (its
 * countdown reached 0); restarts the countdown. */
static void series_sample(mem_system *m)
{
    const mem_config *c = &m->cfg;
    m->series_countdown = c->sample_interval;
    if (m->nseries == m->series_cap) {
        size_t n = m->series_cap ? m->series_cap * 2 : 256;
        double *bigger = realloc(m->series, n * sizeof *bigger);
        if (!bigger) {
            fprintf(stderr, "smcosim mem-model: out of memory\n");
            exit(1);
        }
        m->series = bigger;
        m->series_cap = n;
    }
    m->series[m->nseries++] = (double)(m->st.l1_mshr_occ_sum - m->series_last_sum) /
                              ((double)c->sample_interval * c->num_sms);
    m->series_last_sum = m->st.l1_mshr_occ_sum;
}

/* The first cycle at which mem_cycle must look at partition p again: the
 * earliest of the DRAM scheduler's wait, the next write or read to finish
 * and the slice input's front. Only a packet arriving from the interconnect
 * can make it earlier, and icnt_cycle lowers it then. */
static uint64_t part_wake(const part_state *p)
{
    uint64_t w = UINT64_MAX;
    if (p->qn)
        w = p->sched_wait;
    if (p->wr_n && p->wr_done[p->wr_head] < w)
        w = p->wr_done[p->wr_head];
    if (p->rd_n && p->rd_done[p->rd_head] < w)
        w = p->rd_done[p->rd_head];
    if (p->in.count && p->in.buf[p->in.head].ready < w)
        w = p->in.buf[p->in.head].ready;
    return w;
}

void mem_cycle(mem_system *m)
{
    /* Nothing in flight (no packet, DRAM request or held MSHR anywhere) and
     * no SM active: only time passes (what is left in the partition wheels
     * is stale and would be dropped) */
    int idle = !m->live;
    for (uint32_t w = 0; idle && w < m->sm_active.nwords; w++)
        idle = !m->sm_active.w[w];
    if (idle) {
        m->rr_down = m->rr_down + 1 == m->cfg.l2_partitions ? 0 : m->rr_down + 1;
        m->rr_up = m->rr_up + 1 == m->cfg.num_sms ? 0 : m->rr_up + 1;
        if (m->series_countdown && --m->series_countdown == 0)
            series_sample(m);        /* (no MSHR is held: the sum is unchanged) */
        m->st.cycles++;
        m->now++;
        return;
    }
    /* the partitions due this cycle (wake <= now), in ascending order; a
     * visit changes only its own partition */
    uint32_t slot = (uint32_t)(m->now & PW_MASK);
    uint64_t keep = 0;
    for (uint64_t bits = m->pwheel[slot]; bits; bits &= bits - 1) {
        uint32_t pi = (uint32_t)__builtin_ctzll(bits);
        part_state *p = &m->part[pi];
        if (p->wake > m->now) {
            if (p->wake != UINT64_MAX && (p->wake & PW_MASK) == slot)
                keep |= 1ull << pi;         /* PW_SLOTS or more cycles ahead */
            continue;                       /* else: left by an older wake */
        }
        if ((p->qn && p->sched_wait <= m->now) ||
            (p->wr_n && p->wr_done[p->wr_head] <= m->now))
            dram_cycle(m, p);
        if ((p->rd_n && p->rd_done[p->rd_head] <= m->now) ||
            (p->in.count && ring_front(&p->in)->ready <= m->now))
            l2_cycle(m, p);
        p->wake = part_wake(p);
        if (p->wake != UINT64_MAX) {
            /* a stalled stage (wake <= now) retries next cycle */
            uint64_t t = max64(p->wake, m->now + 1);
            if ((t & PW_MASK) == slot)
                keep |= 1ull << pi;
            else
                m->pwheel[t & PW_MASK] |= 1ull << pi;
        }
    }
    m->pwheel[slot] = keep;
    icnt_cycle(m);
    uint64_t *due = &m->wheel[(size_t)(m->now & m->wheel_mask) * m->sm_active.nwords];
    for (uint32_t w = 0; w < m->sm_active.nwords; w++) {
        m->sm_active.w[w] |= due[w];
        due[w] = 0;
    }
    for (uint32_t w = 0; w < m->sm_active.nwords; w++) {
        uint64_t bits = m->sm_active.w[w];
        while (bits) {
            uint32_t si = w * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            sm_state *s = &m->sm[si];
            sm_cycle(m, s, si);
            /* stay for the next cycle if the unit works or the (new) front
             * response is due then; otherwise sleep until that response */
            int due_next = 0;
            if (s->in.count) {
                uint64_t ready = ring_front(&s->in)->ready;
                if (ready <= m->now + 1)
                    due_next = 1;
                else
                    wheel_add(m, si, ready);
            }
            if ((!s->busy || s->blocked) && !due_next)
                bs_clear(&m->sm_active, si);
        }
    }
    m->st.l1_mshr_occ_sum += m->mshr_used_all;
    if (m->series_countdown && --m->series_countdown == 0)
        series_sample(m);
    m->st.cycles++;
    m->now++;
}

/* ---- skipping idle cycles ---------------------------------------------------- */

/* The effect of n calls of mem_cycle in which nothing but time passes: the
 * round-robin pointers, the occupancy sum and its samples, the clock. */
static void count_idle_cycles(mem_system *m, uint64_t n)
{
    const mem_config *c = &m->cfg;
    m->rr_down = (uint32_t)((m->rr_down + n) % c->l2_partitions);
    m->rr_up = (uint32_t)((m->rr_up + n) % c->num_sms);
    uint64_t left = n;
    while (m->series_countdown && left >= m->series_countdown) {
        m->st.l1_mshr_occ_sum += m->series_countdown * m->mshr_used_all;
        left -= m->series_countdown;
        series_sample(m);
    }
    m->st.l1_mshr_occ_sum += left * m->mshr_used_all;
    if (m->series_countdown)
        m->series_countdown -= (uint32_t)left;
    m->st.cycles += n;
    m->now += n;
}

uint64_t mem_next_event(const mem_system *m)
{
    const mem_config *c = &m->cfg;
    for (uint32_t w = 0; w < m->sm_active.nwords; w++)
        if (m->sm_active.w[w])
            return m->now;               /* an SM works or takes a response */
    uint64_t t = UINT64_MAX;
    for (uint32_t i = 0; i < c->l2_partitions; i++)
        t = m->part[i].wake < t ? m->part[i].wake : t;          /* slices, DRAM */
    for (uint32_t w = 0; w < m->sm_has_done.nwords; w++)
        for (uint64_t bits = m->sm_has_done.w[w]; bits; bits &= bits - 1) {
            /* a completion becomes collectable (exact: mem_collect leaves
             * done_min behind) */
            uint64_t d = done_front(&m->sm[w * 64 + (uint32_t)__builtin_ctzll(bits)])->cycle;
            t = d < t ? d : t;
        }
    for (uint32_t i = 0; i < c->l2_partitions; i++)
        t = m->part[i].out_try < t ? m->part[i].out_try : t;   /* a response leaves */
    for (uint32_t i = 0; i < c->num_sms; i++) {
        const sm_state *s = &m->sm[i];
        if (s->out.count) {              /* a request leaves the SM */
            uint64_t r = max64(s->out_port_free, s->out.buf[s->out.head].ready);
            t = r < t ? r : t;
        }
        if (s->in.count) {               /* a response reaches the front */
            uint64_t r = s->in.buf[s->in.head].ready;
            t = r < t ? r : t;
        }
    }
    return t < m->now ? m->now : t;
}

int mem_skip_to(mem_system *m, uint64_t t)
{
    if (t < m->now || t > mem_next_event(m))
        return -1;
    /* What the calls of mem_cycle would do: no partition is due, no packet
     * can move, no SM is active and the timing wheels' slots for these
     * cycles hold nothing due (every entry is for a cycle >= t, or left by
     * a value since changed, which a visit would drop) */
    count_idle_cycles(m, t - m->now);
    return 0;
}

const double *mem_occupancy_series(const mem_system *m, size_t *n)
{
    *n = m->nseries;
    return m->series;
}

/* ---- submission and completions --------------------------------------------- */

bool mem_ldst_ready(const mem_system *m, uint32_t sm)
{
    return sm < m->cfg.num_sms && !m->sm[sm].busy;
}

uint32_t mem_ldst_ready_list(const mem_system *m, uint32_t *sms)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < m->sm_ldst_busy.nwords; w++) {
        uint64_t free_bits = ~m->sm_ldst_busy.w[w];
        uint32_t left = m->cfg.num_sms - w * 64;
        if (left < 64)
            free_bits &= (1ull << left) - 1;
        while (free_bits) {
            sms[n++] = w * 64 + (uint32_t)__builtin_ctzll(free_bits);
            free_bits &= free_bits - 1;
        }
    }
    return n;
}

uint32_t mem_free_mshrs(const mem_system *m, uint32_t sm)
{
    if (sm >= m->cfg.num_sms)
        return 0;
    return m->cfg.l1d_mshr_entries - m->sm[sm].mshr_used;
}

int mem_coalesce(const mem_system *m, const mem_request *req,
                 mem_coalesce_info *info, char *err, size_t errlen)
{
    mem_tx tx[MEM_MAX_TX];
    uint32_t ntx;
    return mem_coalesce_tx(&m->cfg, req, tx, &ntx, info, err, errlen);
}

int mem_submit(mem_system *m, const mem_request *req, mem_coalesce_info *info,
               char *err, size_t errlen)
{
    if (req->sm >= m->cfg.num_sms)
        return smc_fail(err, errlen, "request for SM %u, but mem.num_sms is %u",
                    req->sm, m->cfg.num_sms);
    sm_state *s = &m->sm[req->sm];
    if (s->busy)
        return smc_fail(err, errlen, "SM %u: LD/ST unit busy (check mem_ldst_ready)",
                    req->sm);
    mem_coalesce_info local;
    if (!info)
        info = &local;
    if (mem_coalesce_tx(&m->cfg, req, s->tx, &s->ntx, info, err, errlen) != 0)
        return -1;
    uint32_t i;
    if (inst_alloc(m, &i) != 0)
        return smc_fail(err, errlen, "out of memory");
    inst_rec *r = &m->inst[i];
    memset(&r->c, 0, sizeof r->c);
    r->c.sm = req->sm;
    r->c.warp = req->warp;
    r->c.op = req->op;
    r->c.space = req->space;
    r->c.num_dst = req->num_dst;
    memcpy(r->c.dst, req->dst, sizeof r->c.dst);
    r->c.tag = req->tag;
    r->c.submit_cycle = m->now;
    r->ready = 0;
    r->pending = 0;
    r->issuing = 1;
    m->st.insts[req->op][req->space]++;
    m->outstanding++;
    s->inst = i;
    s->op = (uint8_t)req->op;
    s->space = (uint8_t)req->space;
    s->next = 0;
    s->known_miss = 0;
    if (req->space == MEM_SHARED || req->space == MEM_CONST) {
        uint32_t cyc = req->space == MEM_SHARED ? info->bank_conflict
                                                : info->transactions;
        if (req->space == MEM_SHARED) {
            m->st.smem_accesses++;
            m->st.smem_bank_cycles += cyc;
        } else {
            m->st.const_accesses++;
            m->st.const_cycles += cyc;
        }
        s->ntx = 0;
        if (cyc == 0) {          /* no active lane */
            r->issuing = 0;
            inst_data(m, i, m->now + 1, 0);
            return 0;
        }
        s->remaining = cyc;
    } else {
        if (s->ntx == 0) {
            r->issuing = 0;
            inst_data(m, i, m->now + 1, 0);
            return 0;
        }
        m->st.transactions += s->ntx;
        if (info->coherent)
            m->st.coherent_insts++;
        else
            m->st.divergent_insts++;
    }
    s->busy = 1;
    bs_set(&m->sm_ldst_busy, req->sm);
    bs_set(&m->sm_active, req->sm);
    return 0;
}

size_t mem_collect(mem_system *m, uint32_t sm, mem_completion *out, size_t cap)
{
    if (sm >= m->cfg.num_sms)
        return 0;
    sm_state *s = &m->sm[sm];
    if (!s->done_n || done_front(s)->cycle > m->now)
        return 0;                /* (sm_has_done is clear when the queue is empty) */
    size_t n = 0;
    while (n < cap && s->done_n && done_front(s)->cycle <= m->now) {
        uint32_t i = done_front(s)->inst;
        s->done_head++;
        s->done_n--;
        out[n++] = m->inst[i].c;
        inst_free(m, i);
        m->outstanding--;
    }
    if (!s->done_n) {
        s->done_head = 0;
        bs_clear(&m->sm_has_done, sm);
    }
    return n;
}

size_t mem_collect_all(mem_system *m, mem_completion *out, size_t cap)
{
    if (m->done_min > m->now)
        return 0;
    size_t n = 0;
    for (uint32_t w = 0; w < m->sm_has_done.nwords && n < cap; w++) {
        uint64_t bits = m->sm_has_done.w[w];
        while (bits && n < cap) {
            uint32_t si = w * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (done_front(&m->sm[si])->cycle <= m->now)
                n += mem_collect(m, si, out + n, cap - n);
        }
    }
    if (n < cap) {
        /* everything due was taken: the new lower bound is exact */
        uint64_t lo = UINT64_MAX;
        for (uint32_t w = 0; w < m->sm_has_done.nwords; w++)
            for (uint64_t bits = m->sm_has_done.w[w]; bits; bits &= bits - 1) {
                uint64_t t = done_front(&m->sm[w * 64 + (uint32_t)__builtin_ctzll(bits)])->cycle;
                lo = t < lo ? t : lo;
            }
        m->done_min = lo;
    }
    return n;
}

bool mem_idle(const mem_system *m)
{
    return m->outstanding == 0 && m->live == 0;
}
