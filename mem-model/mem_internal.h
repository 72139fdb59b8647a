/*
 * mem_internal.h — the state shared by the files of the memory hierarchy
 * (mem-model/), and what they call of each other. Not part of the public
 * interface (mem.h).
 *
 * The files follow the hierarchy a request crosses (docs/memory-model.md,
 * "Source files"):
 *   coalesce.c   lanes -> transactions, L1 set index   (coalesce.h; a leaf:
 *                it does not include this header)
 *   mem_l1d.c    per SM: submission, LD/ST unit with replays, L1D, L1 MSHRs,
 *                shared memory and constant cache timing
 *   mem_l1i.c    per SM: the L1 instruction cache, its MSHRs and miss queue
 *   mem_dup.c    duplicate MSHR allocations across SMs (seed 000 §6.1)
 *   mem_icnt.c   the interconnect: SM <-> L2 slice packets
 *   mem_l2.c     per partition: the L2 slice and its MSHRs; the visit of
 *                the partitions due in a cycle
 *   mem_dram.c   per partition: the DRAM channel (FR-FCFS, bank timing)
 *   mem_inst.c   instructions in flight, completion queues, mem_collect
 *   mem.c        the system: creation, the order of a cycle, idle skipping
 *   mem_stats.c  statistics as JSON and text (public interface only)
 *   mem_config.c configuration keys, presets, checks (public interface only)
 * Dependencies go one way: every file of the hierarchy includes this header
 * (which includes coalesce.h and mshr_index.h); nothing includes a .c file's
 * own header but this one.
 *
 * Functions one file calls in another are declared at the end. The small
 * ones on the hot path are static inline here instead; what is left a call
 * is a whole stage of a cycle (mem_parts_cycle, mem_icnt_cycle,
 * mem_sms_cycle: one call each per busy cycle) or a step taken once per
 * miss or per instruction (mem_dram_cycle, mem_dram_enqueue, mem_dup_record,
 * mem_inst_complete), a few host instructions each against the thousands a
 * miss costs (docs/memory-model.md, "Source files").
 */
#ifndef SMC_MEM_INTERNAL_H
#define SMC_MEM_INTERNAL_H

#include "coalesce.h"
#include "mshr_index.h"

#include <stdlib.h>

/* ---- small helpers -------------------------------------------------------- */

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
/* log2 of a power of two (sizes are checked to be powers of two) */
static inline uint32_t lg(uint32_t pow2) { return (uint32_t)__builtin_ctz(pow2); }
static inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
static inline uint64_t ceil_div64(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

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

static inline void fd_init(fastdiv *f, uint32_t d)
{
    f->d = d;
    f->pow2 = (d & (d - 1)) == 0;
    f->shift = (uint32_t)__builtin_ctz(d);
    f->magic = f->pow2 ? 0 : UINT64_MAX / d + 1;
}

static inline uint64_t fd_div(const fastdiv *f, uint64_t x)
{
    if (f->pow2)
        return x >> f->shift;
    if (x >> 32)
        return x / f->d;
    return (uint64_t)(((unsigned __int128)f->magic * x) >> 64);
}

static inline uint32_t fd_mod(const fastdiv *f, uint64_t x)
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

static inline int bs_init(bitset *b, uint32_t n)
{
    b->nwords = (n + 63) / 64;
    b->w = calloc(b->nwords, sizeof *b->w);
    return b->w ? 0 : -1;
}
static inline void bs_set(bitset *b, uint32_t i) { b->w[i >> 6] |= 1ull << (i & 63); }
static inline void bs_clear(bitset *b, uint32_t i) { b->w[i >> 6] &= ~(1ull << (i & 63)); }
static inline int bs_test(const bitset *b, uint32_t i) { return (int)(b->w[i >> 6] >> (i & 63) & 1); }

/* ---- packets and rings -------------------------------------------------- */

/* PK_IREAD: an L1I miss (mem_l1i.c), a read everywhere but at the SM,
 * whose response fills the L1I */
enum { PK_READ = 0, PK_WRITE = 1, PK_ATOMIC = 2, PK_IREAD = 3 };

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

static inline int ring_init(ring *r, uint32_t cap)
{
    r->buf = calloc(cap, sizeof *r->buf);
    r->cap = cap;
    r->head = r->count = 0;
    return r->buf ? 0 : -1;
}
static inline int ring_full(const ring *r) { return r->count == r->cap; }
static inline packet *ring_front(ring *r) { return &r->buf[r->head]; }
static inline void ring_push(ring *r, const packet *p)
{
    uint32_t tail = r->head + r->count;   /* no division: tail < 2 * cap */
    r->buf[tail >= r->cap ? tail - r->cap : tail] = *p;
    r->count++;
}
static inline void ring_pop(ring *r)
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
    uint8_t  counted;    /* left the unit: counted in its SM's inflight */
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
    uint32_t wid;        /* CCWS: the warp whose miss allocated the line (mem_vta.c) */
} l1_line;

/* CCWS's victim tag array (mem_vta.c) */
#define MEM_VTA_MAX_WARPS 64
#define MEM_VTA_QUEUE     16     /* hit events waiting for the core, per SM */

/* MASCAR's re-execution queue (mem_l1d.c): one L1D access of a load */
typedef struct reexec_entry {
    mem_tx   tx;
    uint32_t inst;       /* its instruction */
} reexec_entry;

typedef struct mshr_entry {
    uint64_t block;
    uint32_t ntargets;
    uint8_t  used;
} mshr_entry;

/* An L1I MSHR entry (mem_l1i.c): the warps whose fetches wait for `block`
 * (the sm_state's iwarps[entry * l1i.mshr_max_merge ...]) */
typedef struct l1i_mshr {
    uint64_t block;
    uint32_t nwarps;     /* fetches merged into it */
    uint32_t released;   /* warps released since its fill */
    uint8_t  used;
} l1i_mshr;

typedef struct sm_state {
    /* LD/ST unit */
    uint8_t  busy;
    uint32_t inflight;   /* instructions that left the unit, not yet
                            collected (mem.ldst_inflight limits them) */
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
    /* the instruction in the unit, for its retire record (OAWS) */
    uint32_t cur_hits, cur_misses, cur_sets;
    uint8_t  cur_coherent;
    uint64_t cur_replay_mshr, cur_replay_icnt;
    mem_ldst_retire ret;     /* the last instruction that left the unit ... */
    uint64_t ret_stamp;      /* ... in cycle ret_stamp - 1 (0: none yet) */
    /* MASCAR's re-execution queue (NULL when off): rq[rq_head .. rq_head +
     * rq_n) modulo mem_system.reexec_entries, oldest first */
    reexec_entry *rq;
    uint32_t rq_head, rq_n;
    uint8_t  rq_blocked;     /* its head failed: asleep like `blocked`, woken
                                by the same events (sm_wake) */
    uint64_t rq_since;       /* the last cycle counted in mascar_replay */
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
    /* L1I (mem_l1i.c; itag NULL with an ideal one): tags and LRU stamps
     * (sets * ways), MSHRs, the miss queue and the filled entries waiting
     * to release their warps (rings of entry numbers), the warps waiting */
    uint64_t *itag, *ilru;
    uint64_t ilru_clock;
    l1i_mshr *imshr;
    uint8_t  *iwarps;
    uint32_t *imq, *irdy;
    uint32_t imq_head, imq_n, irdy_head, irdy_n;
    uint64_t iwait;      /* bit w: warp w waits for a fill */
    /* interconnect ends */
    ring     out, in;
    uint64_t out_port_free, in_port_free;
    /* completions in the order they are collected, (cycle, order of
     * completion): done[done_head .. done_head + done_n) */
    done_item *done;
    uint32_t done_head, done_n, done_cap;
    /* CCWS's victim tag array (mem_vta.c; NULL when off): per warp
     * vta_entries tags (L1_NO_LINE: empty) and their LRU stamps, and the
     * hit events not yet handed to the core */
    uint64_t *vta, *vta_lru;
    uint64_t vta_clock;
    uint8_t  vta_q[MEM_VTA_QUEUE];
    uint32_t vta_head, vta_nhits;
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

#define DRAM_MAX_GROUPS 64

/* A request on its way from the L2 slice to the DRAM scheduler's queue
 * (dram.queue_latency > 0): the L2's bounded DRAM queue, then the delay
 * line. */
typedef struct dram_pending {
    uint64_t line;
    uint64_t ready;      /* delay line: the first instant it may leave */
    uint32_t mshr;
    uint8_t  is_write;
} dram_pending;

typedef struct dram_fifo {
    dram_pending *buf;
    uint32_t cap, head, n;
} dram_fifo;

typedef struct part_state {
    /* L2 slice */
    ring     rop;        /* the ROP delay line (l2.rop_latency > 0) */
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
    dram_fifo l2d, dly;  /* dram.queue_latency > 0: the L2's DRAM queue
                            (l2.queue_entries) and the delay line */
    dram_bank *banks;
    uint64_t bus_free;
    uint64_t last_act;
    uint8_t  any_act;
    /* column commands (dram.tCCD, dram.tCCDL, dram.tRTPL): the last one on
     * the channel and per bank group, and the last read per group; each
     * the instant + 1 (0: none yet) */
    uint64_t last_col1;
    uint64_t grp_col1[DRAM_MAX_GROUPS], grp_rdcol1[DRAM_MAX_GROUPS];
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

/* Domains stepping at an instant (mem_system.tick_mask) */
enum { TICK_CORE = 1, TICK_ICNT = 2, TICK_L2 = 4, TICK_DRAM = 8 };

struct mem_system {
    mem_config cfg;
    /* Clock domains (docs/memory-model.md, "Clock domains"). `now` counts
     * core cycles; `t` is the instant being simulated in the time base,
     * where domain d steps at the multiples of per[d] (all 1 with one clock:
     * t == now). The SMs (L1D, LD/ST unit, completions) live in core cycles;
     * the interconnect, the L2 slices and the DRAM channels stamp and
     * compare instants of the time base. The instants of one core cycle
     * repeat every tick_cycles core cycles: core cycle j's are
     * tick_off[tick_start[j] .. tick_start[j + 1]) (offsets from its
     * start) with the domains tick_mask[] stepping at each. */
    uint32_t   per[4];
    int        multi_clock;
    uint64_t   t;
    uint32_t   tick_cycles;
    uint32_t  *tick_start, *tick_off;
    uint8_t   *tick_mask;
    uint8_t    tick_now;       /* the domains stepping at t */
    /* SM clusters: SM si is in cluster si / cluster_sms; a cluster's SMs
     * share the interconnect node's two ports and its ejection capacity
     * (icnt.queue_entries packets in their ejection queues together) */
    uint32_t   cluster_sms;
    uint64_t  *cl_out_free, *cl_in_free;
    uint32_t  *cl_in_count;
    uint32_t   vta_entries, vta_ways, vta_warps;   /* CCWS VTA (0: off) */
    uint32_t   reexec_entries; /* MASCAR re-execution queue per SM (0: off) */
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
    uint32_t   interleave_lg;  /* lg of the partition interleave, bytes */
    fastdiv    div_parts;      /* by l2.partitions */
    fastdiv    div_banks;      /* by dram.banks */
    uint32_t   dram_ncols;     /* column commands per line */
    uint32_t   dram_atom_cycles;  /* data-bus cycles of one column command */
    uint32_t   banks_per_group;
    uint32_t   l2_lru_stride;  /* bytes of LRU state per L2 set */
    uint32_t   l2_fp_words;    /* fingerprint words per L2 set */
    uint32_t  *ser;            /* ser[payload]: interconnect cycles of a
                                  packet, payload 0..l1d.sector_bytes */
    dup_table  dup_cur, dup_prev;  /* lines allocated in this epoch and in
                                     the previous one (see mem_dup_record) */
    uint64_t   dup_epoch_end;  /* first cycle of the next epoch */
    double    *series;         /* MSHR occupancy samples */
    size_t     nseries, series_cap;
    uint64_t   series_last_sum;
    uint32_t   series_countdown;
};

/* ---- clock domains and clusters (everywhere) ---- */

/* The first instant >= x at which a domain of period p steps. */
static inline uint64_t grid_up(uint64_t x, uint32_t p)
{
    return p == 1 ? x : (x + p - 1) / p * p;
}

/* The core cycle whose instants hold instant x (the cycle whose mem_cycle
 * simulates it), and the first core cycle that starts at or after x. */
static inline uint64_t core_of(const mem_system *m, uint64_t x)
{
    return m->per[MEM_CLK_CORE] == 1 ? x : x / m->per[MEM_CLK_CORE];
}
static inline uint64_t core_ceil(const mem_system *m, uint64_t x)
{
    uint32_t p = m->per[MEM_CLK_CORE];
    return p == 1 ? x : (x + p - 1) / p;
}

static inline uint32_t cluster_of(const mem_system *m, uint32_t si)
{
    return m->cluster_sms == 1 ? si : si / m->cluster_sms;
}

/* ==== between the files =================================================== */

/* ---- address mapping (mem_icnt.c, mem_l2.c) ---- */

/* The partition of the L2 line holding addr: chunks of l2.interleave_bytes
 * (0: l2.line_bytes) go to the partitions in turn. */
static inline uint32_t partition_of(const mem_system *m, uint64_t addr)
{
    return fd_mod(&m->div_parts, addr >> m->interleave_lg);
}

/* Partition-local byte address of the L2 line holding addr: the chunk
 * number divided by the partitions, the offset in the chunk kept. */
static inline uint64_t local_line(const mem_system *m, uint64_t addr)
{
    uint32_t sh = m->interleave_lg;
    uint64_t local = fd_div(&m->div_parts, addr >> sh) << sh | (addr & ((1ull << sh) - 1));
    return local & ~(uint64_t)(m->cfg.l2_line_bytes - 1);
}

/* ---- mem_inst.c: instructions in flight, completions ---- */

/* Grow the pool of instruction records (doubling); -1 when out of memory. */
int mem_inst_grow(mem_system *m);

/* Take a free instruction record into *out; -1 when out of memory. */
static inline int inst_alloc(mem_system *m, uint32_t *out)
{
    if (m->free_inst == UINT32_MAX && mem_inst_grow(m) != 0)
        return -1;
    *out = m->free_inst;
    m->free_inst = m->inst[*out].next_free;
    return 0;
}

/* Instruction i is done: queue its completion for its SM. */
void mem_inst_complete(mem_system *m, uint32_t i);

/* The first completion an SM will hand out. */
static inline done_item *done_front(sm_state *s) { return &s->done[s->done_head]; }

/* A response for instruction i arrived (or a hit's data will be ready) at
 * cycle `ready`; complete it when nothing else is outstanding. */
static inline void inst_data(mem_system *m, uint32_t i, uint64_t ready, int was_pending)
{
    inst_rec *r = &m->inst[i];
    r->ready = max64(r->ready, ready);
    if (was_pending)
        r->pending--;
    if (!r->pending && !r->issuing)
        mem_inst_complete(m, i);
}

/* ---- mem_l1d.c: per SM ---- */

/* sm_ldst_busy mirrors "the unit cannot take an instruction": it holds one,
 * or mem.ldst_inflight instructions are past it and not complete. */
static inline void ldst_gate(mem_system *m, sm_state *s, uint32_t si)
{
    if (s->busy || (m->cfg.ldst_inflight && s->inflight >= m->cfg.ldst_inflight))
        bs_set(&m->sm_ldst_busy, si);
    else
        bs_clear(&m->sm_ldst_busy, si);
}

/* Step 4 of a cycle: every SM due takes at most one response (L1 fill,
 * atomic reply), then its LD/ST unit processes at most one transaction. */
void mem_sms_cycle(mem_system *m);

/* A replaying SM sleeps (sm_block, mem_l1d.c) until an MSHR is released
 * (an L1 fill) or its injection queue drains (mem_icnt.c); waking it adds
 * the replays skipped meanwhile to the stall counters and visits it again.
 * A re-execution queue whose head failed sleeps the same way (nothing else
 * can change that head's outcome either); its skipped cycles are
 * mascar_replay. */
static inline void sm_wake(mem_system *m, sm_state *s, uint32_t si)
{
    /* the cycle of the SM's next visit: this one, or the next when the
     * interconnect wakes it at an instant after this cycle's SM step */
    uint64_t now = core_ceil(m, m->t);
    if (s->rq_blocked) {
        /* cycles rq_since+1 .. now-1: the head could not be sent */
        if (now > s->rq_since + 1)
            m->st.mascar_replay += now - s->rq_since - 1;
        s->rq_blocked = 0;
        bs_set(&m->sm_active, si);
    }
    if (!s->blocked)
        return;
    /* cycles blocked_since+1 .. now-1 were replays that were skipped */
    uint64_t skipped = now - s->blocked_since - 1;
    if (s->blocked_kind) {
        m->st.stall_icnt += skipped;
        s->cur_replay_icnt += skipped;
    } else {
        m->st.stall_mshr += skipped;
        s->cur_replay_mshr += skipped;
    }
    m->st.ldst_busy_cycles += skipped;
    s->blocked = 0;
    bs_set(&m->sm_active, si);
}

/* Visit SM si at cycle t (> now). */
static inline void wheel_add(mem_system *m, uint32_t si, uint64_t t)
{
    uint64_t *slot = &m->wheel[(size_t)(t & m->wheel_mask) * m->sm_active.nwords];
    slot[si >> 6] |= 1ull << (si & 63);
}

/* A request of SM si into its injection queue (the caller checked room);
 * it may leave from the next core cycle's start (an instant: the
 * interconnect compares instants). */
static inline void sm_inject(mem_system *m, sm_state *s, uint32_t si, uint64_t addr,
                             uint32_t bytes, int kind, uint32_t inst)
{
    packet pk = { addr, (m->now + 1) * m->per[MEM_CLK_CORE], si, inst, bytes, (uint8_t)kind };
    ring_push(&s->out, &pk);
    bs_set(&m->sm_out_busy, si);
    m->live++;
}

/* ---- mem_l1i.c: the instruction cache ---- */

/* The L1I of s has work this cycle: a miss to send or warps to release. */
static inline int l1i_busy(const sm_state *s) { return s->imq_n || s->irdy_n; }
/* This cycle's step of SM si's L1I (after its LD/ST unit's): the miss
 * queue's front into the injection queue, one waiting warp released. */
void mem_l1i_cycle(mem_system *m, sm_state *s, uint32_t si);
/* A response to entry e's request: the line goes in, its warps are released
 * from the next L1I step on. */
void mem_l1i_fill(mem_system *m, sm_state *s, uint64_t block, uint32_t e);
/* Allocate / free SM s's L1I (creation, mem_destroy); -1 out of memory. */
int  mem_l1i_init(const mem_config *c, sm_state *s);
void mem_l1i_free(sm_state *s);

/* ---- mem_dup.c: duplicate MSHR allocations ---- */

int mem_dup_init(dup_table *t, uint32_t cap);

/* Record an MSHR allocation of `line` by `sm`; returns 1 when another SM
 * allocated the same line within the window. */
int mem_dup_record(mem_system *m, uint64_t line, uint32_t sm);

/* ---- mem_icnt.c: the interconnect ---- */

/* Move packets L2 -> SM, then SM -> L2, for this cycle. */
void mem_icnt_cycle(mem_system *m);

/* ---- mem_l2.c: L2 slice ---- */

/* Steps 1 and 2 of a cycle: every partition due (its wake, found through a
 * timing wheel) runs its DRAM channel (mem_dram_cycle), then its slice, which
 * handles at most one DRAM fill and one request. */
void mem_parts_cycle(mem_system *m);

/* Partition p's front response may leave from cycle p->out_try on. */
static inline void out_schedule(mem_system *m, part_state *p)
{
    uint64_t bit = 1ull << (p - m->part);
    if (p->out_try != UINT64_MAX)      /* the interconnect moves it on its edges */
        p->out_try = grid_up(p->out_try, m->per[MEM_CLK_ICNT]);
    if (p->out_try <= m->t)
        m->out_ready |= bit;
    else if (p->out_try != UINT64_MAX)
        m->owheel[p->out_try & PW_MASK] |= bit;
}

/* ---- mem_dram.c: DRAM channel ---- */

static inline int dram_queue_room(const mem_system *m, const part_state *p)
{
    if (m->cfg.dram_queue_latency)       /* the L2's DRAM queue */
        return p->l2d.n < m->cfg.l2_queue_entries;
    return p->qn < m->cfg.dram_queue_entries;
}

/* Room for two requests (a write and a read, l2.write_miss = fetch). */
static inline int dram_queue_room2(const mem_system *m, const part_state *p)
{
    if (m->cfg.dram_queue_latency)
        return p->l2d.n + 2 <= m->cfg.l2_queue_entries;
    return p->qn + 2 <= m->cfg.dram_queue_entries;
}

/* Queue a read (for L2 MSHR entry `mshr`) or a write of the partition-local
 * line lline. The caller checked dram_queue_room. */
void mem_dram_enqueue(mem_system *m, part_state *p, uint64_t lline, int is_write,
                      uint32_t mshr);

/* One cycle of partition p's channel: finished writes leave, FR-FCFS starts
 * at most one request. */
void mem_dram_cycle(mem_system *m, part_state *p);

/* CCWS's victim tag array (mem_vta.c): a valid line of `warp` evicted
 * from the L1D; a load miss of `warp` on line (queues a hit event). */
void mem_vta_insert(mem_system *m, sm_state *s, uint32_t warp, uint64_t line);
void mem_vta_probe(mem_system *m, sm_state *s, uint32_t warp, uint64_t line);

#endif /* SMC_MEM_INTERNAL_H */
