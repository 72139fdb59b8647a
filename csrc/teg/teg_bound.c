/*
 * teg_bound.c — the SGEMM performance upper bound of seed 003, ch. 4:
 * Eq. 4.1-4.11 (003 L1477-1538, French Eq. 1-7 at 003 L304-330), the
 * thesis's GTX580 and GTX680 inputs, a Markdown and a JSON report, and the
 * `smcosim teg bound` command. teg_bound.h explains the model and the
 * decisions G20-G24/G26 of ../shared/design/teg.md; docs/teg.md has the
 * results beside the thesis's.
 *
 * Conventions. "003 Lnnnn" cites a line of the thesis text
 * (../shared/seeds/003_d0ab86cfde508783.txt). A value the thesis does not
 * give is marked ASSUMED, in the comment and in the source string the
 * report prints. Percentages in the report are printed with two decimals
 * so that 68.75 % shows as such; the thesis rounds to one.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "teg_bound.h"

#define WARP 32          /* threads per warp: registers are granted per warp */
#define ELEM_BYTES 4     /* single precision (G24) */

/* ======================================================================
 * Built-in inputs
 * ====================================================================== */

/* GeForce GTX 580, Fermi GF110. The implementation is the thesis's
 * assembly SGEMM: B_R 6, T_B 256, L 16, B's row by LDS.64 (003 L1530-1574). */
static const teg_bound_input gtx580 = {
    .name = "gtx580",
    .gpu = "GeForce GTX 580 (Fermi, GF110)",
    .p_theoretical = { 1581, "003 L412, L432 (Table 1.1)" },
    .clock_mhz     = { 1544, "003 L412, L421 (shader clock)" },
    /* 16 SMs x 32 SPs x 2 flop x 1.544 GHz = 1581 GFLOPS (003 L412). */
    .sms           = { 16, "003 L410 (16 SMs); 16 x 32 x 2 x 1.544 GHz = 1581 GFLOPS" },
    .sp_tp         = { 32, "003 L426-427 (Table 1.1)" },
    .issue_tp      = { 32, "003 L425 (Table 1.1), L1460" },
    .lds_tp        = { 16, "003 L429 (Table 1.1), L1447" },
    .r_max         = { 63, "003 L1312, L1560" },
    .r_sm          = { 32768, "003 L431 (32K), L1560" },
    .sh_sm         = { 49152, "003 L416, L430 (48 KB)" },
    /* Not in the thesis: compute capability 2.x allows 1536 threads per SM.
     * It does not bind (the registers allow 512). */
    .max_threads   = { 1536, "ASSUMED: compute capability 2.x limit; not in the thesis" },
    .gmem_gbps     = { 192.4, "003 L412, L422 (Table 1.1)" },
    .t_b           = { 256, "003 L1530" },
    .lds_bits      = { 64, "003 L1568 (B's row by LDS.64)" },
    .l             = { 16, "003 L1532" },
    .r_gaddr       = { 2, "003 L1569" },
    .r_loop_end    = { 1, "003 L1570, L1574 (kept in R1)" },
    .r_saddr_sts   = { 2, "003 L1571" },
    .r_saddr_lds   = { 2, "003 L1572" },
    .n_ft = 4,
    .ft = {
        /* 3:1 FFMA:LDS at 6-register blocking (003 L1469). The thesis
         * prints no P_SMBound for it: 75 % x 31.3/32 = 73.4 %. */
        { 32, 6, 31.3, 1, "003 L1469 (3:1 mix)", -1, NULL },
        /* G22: the value Eq. 4.10 uses (003 L1534), which gives 82.5 %. */
        { 64, 6, 30.8, 1, "003 L1534 (as printed in Eq. 4.10; G22)",
          82.5, "003 L1534, L332, L366" },
        /* G22: the measured 6:1 mix (003 L1469); reported, not the bound. */
        { 64, 6, 30.4, 0, "003 L1469 (measured 6:1 mix; G22)",
          81.4, "teg.md G22, R7 (not printed in the thesis)" },
        /* 12:1 FFMA:LDS.128; the thesis writes "around 71%"
         * (24.5/32 x 92.3 %, 003 L1469), teg.md R7 70.7 %. */
        { 128, 6, 24.5, 1, "003 L1469 (12:1 mix)",
          70.7, "teg.md §2.2, R7; 003 L1469 prints \"around 71%\"" },
    },
    .thesis = {
        .br_loose      = { 7, "003 L1496" },
        .br_strict     = { 6, "003 L1530, L332" },
        .l_chosen      = { 16, "003 L1532" },
        .prefetch_regs = { 12, "003 L1563" },
        .regs_total    = { 63, "003 L1574" },
        .t_sm          = { 512, "003 L1530" },
        .issue_pct     = { -1, NULL },   /* issue = SP throughput on Fermi */
        .bound_pct     = { 82.5, "003 L1534, L332, L366" },
        /* "around 74.2% of the theoretical peak" (003 L1544). */
        .achieved_gflops = { 0.742 * 1581, "003 L1544 (74.2 % of 1581 GFLOPS)" },
        .achieved_of_bound_pct = { 90, "003 L1544, L1296 (\"around 90%\")" },
        .p_mem_gflops  = { 4618, "teg.md §3, R7 (the thesis prints no number, 003 L1534)" },
    },
};

/* GeForce GTX 680, Kepler GK104. The thesis says only that the Fermi
 * analysis carries over (B_R 6, T_B 256 or 1024, 003 L1536) and that the
 * Kepler kernel loads A with 6 and B with 2 registers (003 L1593, L1601); the
 * rest of the allocation and L are taken from Fermi and marked ASSUMED. */
static const teg_bound_input gtx680 = {
    .name = "gtx680",
    .gpu = "GeForce GTX 680 (Kepler, GK104)",
    .p_theoretical = { 3090, "003 L432 (Table 1.1), L1371" },
    /* Throughputs are per 1006 MHz cycle in Table 1.1; the ch. 4
     * microbenchmarks count cycles of the 1058 MHz boost clock (003 L1346). */
    .clock_mhz     = { 1006, "003 L420-421 (shader = core clock)" },
    .sms           = { 8, "derived: 1536 SPs / 192 per SMX (003 L416, L426); 8 x 192 x 2 x 1.006 GHz = 3090 GFLOPS" },
    .sp_tp         = { 192, "003 L427 (Table 1.1, \"192?\"), L1348" },
    .issue_tp      = { 132, "003 L1348 (measured; Table 1.1 L425: \"128?\")" },
    .lds_tp        = { 33.1, "003 L1447 (measured, 64-bit; Table 1.1 L429: 32)" },
    .r_max         = { 63, "003 L1312, L1536" },
    .r_sm          = { 65536, "003 L431 (64K), L1536" },
    .sh_sm         = { 49152, "003 L416, L430 (48 KB)" },
    .max_threads   = { 2048, "ASSUMED: compute capability 3.0 limit; not in the thesis" },
    .gmem_gbps     = { 192.26, "003 L422 (Table 1.1)" },
    .t_b           = { 256, "003 L1536 (256 or 1024)" },
    .lds_bits      = { 64, "003 L1593, L1601 (2 registers for B's row)" },
    .l             = { 16, "ASSUMED: as on Fermi (003 L1532); no Kepler L in the thesis" },
    .r_gaddr       = { 2, "ASSUMED: as on Fermi (003 L1569)" },
    .r_loop_end    = { 1, "ASSUMED: as on Fermi (003 L1570)" },
    .r_saddr_sts   = { 2, "ASSUMED: as on Fermi (003 L1571)" },
    .r_saddr_lds   = { 2, "ASSUMED: as on Fermi (003 L1572)" },
    .n_ft = 2,
    .ft = {
        /* The thesis gives no Kepler F_T for 32-bit LDS. */
        { 64, 6, 122.4, 1, "003 L1538", 54.6, "003 L1538" },
        { 128, 6, 119.9, 1, "003 L1538", 57.6, "003 L1538, L340, L366" },
    },
    .thesis = {
        .br_loose      = { 7, "003 L1496 (63 registers; still the limit, L1536)" },
        .br_strict     = { 6, "003 L1536" },
        .l_chosen      = { -1, NULL },
        .prefetch_regs = { -1, NULL },
        .regs_total    = { -1, NULL },
        .t_sm          = { 1024, "003 L1536" },
        .issue_pct     = { 68.75, "003 L1371 (132/192)" },
        .bound_pct     = { 57.6, "003 L1538, L340, L366" },
        .achieved_gflops = { 1375, "003 L1296 (SGEMM_NT)" },
        .achieved_of_bound_pct = { 77.3, "003 L1296, L1544" },
        .p_mem_gflops  = { 4614, "teg.md R7 (the thesis prints no number)" },
    },
};

static const teg_bound_input *const builtins[] = { &gtx580, &gtx680 };
#define N_BUILTINS ((int)(sizeof builtins / sizeof builtins[0]))

const teg_bound_input *teg_bound_builtin(const char *name)
{
    if (!name) return NULL;
    for (int i = 0; i < N_BUILTINS; i++)
        if (!strcmp(builtins[i]->name, name)) return builtins[i];
    return NULL;
}

const teg_bound_input *teg_bound_builtin_at(int i)
{
    return i >= 0 && i < N_BUILTINS ? builtins[i] : NULL;
}

/* ======================================================================
 * The equations
 * ====================================================================== */

/* Square root of n when n is a perfect square, else -1. */
static int isqrt_exact(int n)
{
    if (n < 0) return -1;
    long r = (long)sqrt((double)n);
    while (r > 0 && r * r > n) r--;
    while ((r + 1) * (r + 1) <= n) r++;
    return r * r == n ? (int)r : -1;
}

static int gcd(int a, int b)
{
    while (b) { int t = a % b; a = b; b = t; }
    return a;
}

static int valid_x(int lds_bits)
{
    return lds_bits == 32 || lds_bits == 64 || lds_bits == 128;
}

/* Eq. 4.3 (003 L1494-1496): B_R^2 + B_R + 1 < R_T <= R_Max, counting only
 * the C tile, one column of A and one register of B. 63 registers: 7. */
int teg_bound_br_loose(int r_max)
{
    long br = 0;
    while ((br + 1) * (br + 1) + (br + 1) + 1 < r_max) br++;
    return (int)br;
}

/* G23: Eq. 4.5 writes "+ 1" for B's row, but the allocation keeps 2
 * registers when B is read by LDS.64 (003 L1568): one LDS.X fills X/32. */
int teg_bound_b_row_regs(int lds_bits)
{
    return lds_bits / 32 > 1 ? lds_bits / 32 : 1;
}

/* G21: F_I = 1, 1/2, 1/4 for LDS, LDS.64, LDS.128 (003 L1516: 0.5 for
 * LDS.64), i.e. LDS.X instructions per loaded element. */
double teg_bound_f_i(int lds_bits)
{
    return valid_x(lds_bits) ? 32.0 / lds_bits : -1.0;
}

/* FFMA share of the main loop (003 L1469, Fig. 4.3): per step of k, B_R^2
 * FFMA and 2·B_R elements loaded (a column of A, a row of B) by 2·B_R·F_I
 * LDS.X. B_R 6: 75 %, 85.7 %, 92.3 % for LDS, LDS.64, LDS.128. */
double teg_bound_ffma_share(int br, int lds_bits)
{
    double fi = teg_bound_f_i(lds_bits);
    if (br <= 0 || fi < 0) return 0.0;
    double c = (double)br * br;
    return c / (c + 2.0 * br * fi);
}

/* Eq. 4.7 (003 L1510): B_Sh = sqrt(T_B·B_R^2), the side of the block's C
 * tile (T_B·B_R^2 elements, 003 L1498). 96 for T_B 256, B_R 6. */
int teg_bound_b_sh(int t_b, int br)
{
    if (t_b <= 0 || br <= 0) return -1;
    int s = isqrt_exact(t_b);
    return s < 0 ? -1 : br * s;
}

/* Eq. 4.4 in the French form (G20, 003 L306): (sqrt(T_B·B_R^2)·L) mod T_B
 * = 0, i.e. the B_Sh x L slice of A (and of B) splits evenly over T_B
 * threads. Chapter 4's sqrt(T_B·B_R·L) (003 L1500) cannot give L = 8, 16, 24. */
int teg_bound_eq44(int t_b, int br, int l)
{
    int b = teg_bound_b_sh(t_b, br);
    if (b < 0 || l <= 0) return 0;
    return (long)b * l % t_b == 0;
}

/* The L of Eq. 4.4 are the multiples of T_B / gcd(B_Sh, T_B): 8 at T_B 256,
 * B_R 6 (003 L1532: "L could be 8, 16, 24, ..."). */
int teg_bound_l_step(int t_b, int br)
{
    int b = teg_bound_b_sh(t_b, br);
    return b < 0 ? -1 : t_b / gcd(b, t_b);
}

/* Item 2 of 003 L1563 in the French form (G20): each thread stages its
 * share of the next B_Sh x L slices of A and of B, 2·B_Sh·L/T_B registers
 * (12 at T_B 256, B_R 6, L 16). Rounded up when Eq. 4.4 fails. */
int teg_bound_prefetch_regs(int t_b, int br, int l)
{
    int b = teg_bound_b_sh(t_b, br);
    if (b < 0 || l <= 0) return -1;
    long per = ((long)b * l + t_b - 1) / t_b;
    return (int)(2 * per);
}

/* Eq. 4.5 (003 L1504, French Eq. 2 at 003 L310, G20, G23):
 * B_R^2 + 2·sqrt(T_B·B_R^2)·L/T_B + B_R + max(1, X/32) + R_addr <= R_T <= R_Max. */
int teg_bound_regs_needed(int t_b, int br, int l, int lds_bits, int r_addr)
{
    int p = teg_bound_prefetch_regs(t_b, br, l);
    if (p < 0 || !valid_x(lds_bits)) return -1;
    return br * br + p + br + teg_bound_b_row_regs(lds_bits) + r_addr;
}

/* The strict condition (003 L1530: "the maximum blocking factor is only 6"):
 * the largest B_R whose smallest L of Eq. 4.4 (fewest prefetch registers)
 * satisfies Eq. 4.5. The register count is not monotonic in B_R (the L
 * step changes with gcd(B_Sh, T_B)), so every B_R with B_R^2 <= R_Max is
 * tried. */
int teg_bound_br_strict(int r_max, int t_b, int lds_bits, int r_addr)
{
    int best = 0;
    for (int br = 1; br * br <= r_max; br++) {
        int step = teg_bound_l_step(t_b, br);
        if (step < 0) return 0;
        int need = teg_bound_regs_needed(t_b, br, step, lds_bits, r_addr);
        if (need >= 0 && need <= r_max) best = br;
    }
    return best;
}

/* Eq. 4.6 (003 L1508, French Eq. 3 at 003 L314, G20, G24): Blk active
 * blocks each hold the B_Sh x L slices of A and B, 4 bytes an element:
 * Blk · 2 · B_Sh · L · 4 <= Sh_SM (12288 bytes a block at B_Sh 96, L 16). */
long teg_bound_smem_bytes(int blk, int t_b, int br, int l)
{
    int b = teg_bound_b_sh(t_b, br);
    if (b < 0 || l <= 0 || blk < 0) return -1;
    return (long)blk * 2 * b * l * ELEM_BYTES;
}

/* Eq. 4.2 (003 L1479): T_SM · R_T <= R_SM, with T_SM in whole warps.
 * 32768 / 63 = 520 -> 512 on Fermi; 65536 / 63 = 1040 -> 1024 on Kepler
 * (003 L1530, L1536). */
int teg_bound_threads_by_regs(int r_sm, int r_t)
{
    if (r_t <= 0 || r_sm <= 0) return 0;
    return r_sm / r_t / WARP * WARP;
}

/* Eq. 4.8 (003 L1512, French Eq. 4 at 003 L316): a B_Sh x B_Sh tile of C
 * does 2·B_Sh^2 flop per step of k while reading 2·B_Sh elements of 4
 * bytes: P_MemBound / bandwidth = B_Sh / 4 flop per byte (24 at B_Sh 96). */
double teg_bound_flop_per_byte(int b_sh)
{
    return b_sh > 0 ? 2.0 * b_sh * b_sh / (2.0 * b_sh * ELEM_BYTES) : 0.0;
}

/* Eq. 4.10 (003 L1526, French Eq. 6 at 003 L328) divided by P_theoretical:
 * B_R^2/(B_R^2 + B_R·2·F_I) · F_T, with F_T normalised by the SPs'
 * throughput as in the worked examples (30.8/32, 003 L1534; 122.4/192 and
 * 119.9/192, 003 L1538). */
double teg_bound_p_sm_frac(int br, int lds_bits, double ft, double sp_tp)
{
    if (sp_tp <= 0) return 0.0;
    return teg_bound_ffma_share(br, lds_bits) * ft / sp_tp;
}

static int r_addr_of(const teg_bound_input *in)
{
    return (int)(in->r_gaddr.v + in->r_loop_end.v + in->r_saddr_sts.v + in->r_saddr_lds.v);
}

/* The allocation of 003 L1560-1574, items 1-7. */
void teg_bound_regs_alloc(const teg_bound_input *in, int br, int l, int lds_bits,
                          teg_bound_regs *out)
{
    memset(out, 0, sizeof *out);
    out->c = br * br;
    out->prefetch = teg_bound_prefetch_regs((int)in->t_b.v, br, l);
    out->a_col = br;
    out->b_row = teg_bound_b_row_regs(lds_bits);
    out->gaddr = (int)in->r_gaddr.v;
    out->loop_end = (int)in->r_loop_end.v;
    out->saddr_sts = (int)in->r_saddr_sts.v;
    out->saddr_lds = (int)in->r_saddr_lds.v;
    out->r_addr = out->gaddr + out->loop_end + out->saddr_sts + out->saddr_lds;
    out->total = out->c + out->prefetch + out->a_col + out->b_row + out->r_addr;
}

/* One L against Eq. 4.4-4.6. "Admissible" (the candidates 003 L1532 lists)
 * asks Eq. 4.4, Eq. 4.6 and Eq. 4.5 without the address registers, which
 * are chosen once L is; "feasible" adds them: the thesis's choice of L 16
 * is the largest feasible L (003 L1532: "Considering the condition in
 * Equation 4.5, we choose L as 16"). */
void teg_bound_l_check(const teg_bound_input *in, int br, int l, int lds_bits, int blk,
                       teg_bound_lcheck *out)
{
    int t_b = (int)in->t_b.v, r_max = (int)in->r_max.v, r_addr = r_addr_of(in);
    memset(out, 0, sizeof *out);
    out->l = l;
    out->blk = blk;
    out->eq44 = teg_bound_eq44(t_b, br, l);
    out->regs_blocking = teg_bound_regs_needed(t_b, br, l, lds_bits, 0);
    out->regs_total = teg_bound_regs_needed(t_b, br, l, lds_bits, r_addr);
    out->smem_bytes = teg_bound_smem_bytes(blk, t_b, br, l);
    out->eq45_blocking = out->regs_blocking >= 0 && out->regs_blocking <= r_max;
    out->eq45 = out->regs_total >= 0 && out->regs_total <= r_max;
    out->eq46 = out->smem_bytes >= 0 && out->smem_bytes <= (long)in->sh_sm.v;
    out->admissible = out->eq44 && out->eq45_blocking && out->eq46;
    out->feasible = out->admissible && out->eq45;
}

/* Largest feasible L (a multiple of the Eq. 4.4 step), 0 if none. The
 * register count grows with L, so the scan stops at the first L that
 * breaks Eq. 4.5 without addresses or Eq. 4.6. */
static int l_best_for(const teg_bound_input *in, int br, int lds_bits, int blk)
{
    int step = teg_bound_l_step((int)in->t_b.v, br), best = 0;
    if (step <= 0) return 0;
    for (int l = step; ; l += step) {
        teg_bound_lcheck c;
        teg_bound_l_check(in, br, l, lds_bits, blk, &c);
        if (!c.admissible) break;
        if (c.feasible) best = l;
    }
    return best;
}

/* ======================================================================
 * Everything for one input
 * ====================================================================== */

/* v must be a whole number in [lo, hi]. */
static int whole(const teg_bound_num *n, const char *what, double lo, double hi,
                 char *err, size_t errlen)
{
    if (!(n->v >= lo && n->v <= hi) || n->v != floor(n->v)) {
        snprintf(err, errlen, "%s = %g: must be a whole number in [%g, %g]", what, n->v, lo, hi);
        return -1;
    }
    return 0;
}

static int positive(const teg_bound_num *n, const char *what, char *err, size_t errlen)
{
    if (!(n->v > 0 && n->v < 1e12)) {
        snprintf(err, errlen, "%s = %g: must be positive", what, n->v);
        return -1;
    }
    return 0;
}

static int check_input(const teg_bound_input *in, char *err, size_t errlen)
{
    if (whole(&in->r_max, "R_Max", 1, 1024, err, errlen) ||
        whole(&in->r_sm, "R_SM", 1, 1 << 24, err, errlen) ||
        whole(&in->sh_sm, "Sh_SM", 1, 1 << 26, err, errlen) ||
        whole(&in->max_threads, "max threads per SM", 1, 1 << 16, err, errlen) ||
        whole(&in->t_b, "T_B", 1, 1 << 16, err, errlen) ||
        whole(&in->lds_bits, "LDS width X", 32, 128, err, errlen) ||
        whole(&in->l, "L", 1, 1 << 16, err, errlen) ||
        whole(&in->r_gaddr, "global-address registers", 0, 1024, err, errlen) ||
        whole(&in->r_loop_end, "loop-end registers", 0, 1024, err, errlen) ||
        whole(&in->r_saddr_sts, "shared-address registers (stores)", 0, 1024, err, errlen) ||
        whole(&in->r_saddr_lds, "shared-address registers (loads)", 0, 1024, err, errlen) ||
        positive(&in->p_theoretical, "P_theoretical", err, errlen) ||
        positive(&in->sp_tp, "#SP_TP", err, errlen) ||
        positive(&in->issue_tp, "#Issue_TP", err, errlen) ||
        positive(&in->gmem_gbps, "global-memory bandwidth", err, errlen))
        return -1;
    if (!valid_x((int)in->lds_bits.v)) {
        snprintf(err, errlen, "LDS width X = %g: must be 32, 64 or 128", in->lds_bits.v);
        return -1;
    }
    if (isqrt_exact((int)in->t_b.v) < 0) {
        snprintf(err, errlen, "T_B = %g: must be a perfect square (B_Sh = sqrt(T_B)·B_R, Eq. 4.7)",
                 in->t_b.v);
        return -1;
    }
    if (in->n_ft < 1 || in->n_ft > TEG_BOUND_MAX_FT) {
        snprintf(err, errlen, "%d F_T values: need 1 to %d", in->n_ft, TEG_BOUND_MAX_FT);
        return -1;
    }
    for (int i = 0; i < in->n_ft; i++) {
        const teg_bound_ft *f = &in->ft[i];
        if (!valid_x(f->lds_bits) || f->br < 1 || f->br > 32 || !(f->ft > 0 && f->ft < 1e6)) {
            snprintf(err, errlen, "F_T entry %d (LDS %d bits, B_R %d, F_T %g) out of range",
                     i + 1, f->lds_bits, f->br, f->ft);
            return -1;
        }
    }
    return 0;
}

static int imin(int a, int b) { return a < b ? a : b; }

int teg_bound_compute(const teg_bound_input *in, teg_bound_result *out,
                      char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (check_input(in, err, errlen)) return -1;
    int r_max = (int)in->r_max.v, t_b = (int)in->t_b.v, x = (int)in->lds_bits.v;
    int l = (int)in->l.v, r_addr = r_addr_of(in);

    out->br_loose = teg_bound_br_loose(r_max);
    out->br_strict = teg_bound_br_strict(r_max, t_b, x, r_addr);
    if (out->br_strict < 1) {
        snprintf(err, errlen, "no B_R satisfies Eq. 4.5 with R_Max %d, T_B %d, X %d, R_addr %d",
                 r_max, t_b, x, r_addr);
        return -1;
    }
    out->br = out->br_strict;
    out->b_sh = teg_bound_b_sh(t_b, out->br);

    /* Eq. 4.1-4.2: the kernel is compiled at R_T = R_Max (003 L1574: all 63
     * registers are used, R1 included); registers and the resident-thread
     * limit give the blocks for Eq. 4.6. */
    out->r_t = r_max;
    out->threads_regs = teg_bound_threads_by_regs((int)in->r_sm.v, out->r_t);
    out->blk_regs = out->threads_regs / t_b;
    out->blk_threads = (int)in->max_threads.v / t_b;
    int blk_occ = imin(out->blk_regs, out->blk_threads);
    if (blk_occ < 1) {
        snprintf(err, errlen, "a block of T_B = %d threads does not fit (registers allow %d threads)",
                 t_b, out->threads_regs);
        return -1;
    }

    /* The L scan: multiples of the Eq. 4.4 step, up to and including the
     * first one that is not admissible. */
    out->l_step = teg_bound_l_step(t_b, out->br);
    for (int k = 1; k <= TEG_BOUND_MAX_L; k++) {
        teg_bound_lcheck *c = &out->lscan[out->n_l++];
        teg_bound_l_check(in, out->br, k * out->l_step, x, blk_occ, c);
        if (!c->admissible) break;
    }
    out->l_best = l_best_for(in, out->br, x, blk_occ);
    teg_bound_l_check(in, out->br, l, x, blk_occ, &out->lused);
    if (!out->lused.feasible) {
        snprintf(err, errlen,
                 "L = %d at B_R %d is infeasible: Eq. 4.4 %s, Eq. 4.5 %d registers (R_Max %d), "
                 "Eq. 4.6 %ld bytes (Sh_SM %g)", l, out->br, out->lused.eq44 ? "holds" : "fails",
                 out->lused.regs_total, r_max, out->lused.smem_bytes, in->sh_sm.v);
        return -1;
    }
    teg_bound_regs_alloc(in, out->br, l, x, &out->regs);

    /* Occupancy at the chosen L: registers, resident threads, Eq. 4.6. */
    out->smem_block = teg_bound_smem_bytes(1, t_b, out->br, l);
    out->blk_smem = (int)((long)in->sh_sm.v / out->smem_block);
    out->blk = imin(blk_occ, out->blk_smem);
    out->t_sm = out->blk * t_b;

    /* Eq. 4.7-4.8: P_MemBound = bandwidth x B_Sh/4. */
    out->flop_per_byte = teg_bound_flop_per_byte(out->b_sh);
    out->p_mem = in->gmem_gbps.v * out->flop_per_byte;

    /* Eq. 4.10 per measured F_T; a measurement counts only where its B_R
     * satisfies Eq. 4.5 at its own X (G23: the B row takes X/32 registers). */
    out->n_sm = in->n_ft;
    out->best = -1;
    for (int i = 0; i < in->n_ft; i++) {
        const teg_bound_ft *f = &in->ft[i];
        teg_bound_sm *s = &out->sm[i];
        s->lds_bits = f->lds_bits;
        s->br = f->br;
        s->br_strict = teg_bound_br_strict(r_max, t_b, f->lds_bits, r_addr);
        s->feasible = f->br <= s->br_strict;
        s->l_best = s->feasible ? l_best_for(in, f->br, f->lds_bits, blk_occ) : 0;
        s->f_i = teg_bound_f_i(f->lds_bits);
        s->ffma_share = teg_bound_ffma_share(f->br, f->lds_bits);
        s->ft = f->ft;
        s->frac = teg_bound_p_sm_frac(f->br, f->lds_bits, f->ft, in->sp_tp.v);
        s->gflops = s->frac * in->p_theoretical.v;
        if (f->for_bound && s->feasible && (out->best < 0 || s->frac > out->sm[out->best].frac))
            out->best = i;
    }
    if (out->best < 0) {
        snprintf(err, errlen, "no F_T measurement is usable for the bound (none feasible)");
        return -1;
    }
    out->issue_frac = in->issue_tp.v / in->sp_tp.v;

    /* Eq. 4.11: P_potential = min(P_MemBound, P_SMBound). */
    double p_sm = out->sm[out->best].gflops;
    out->mem_bound = out->p_mem < p_sm;
    out->p_potential = out->mem_bound ? out->p_mem : p_sm;
    out->p_potential_frac = out->p_potential / in->p_theoretical.v;
    return 0;
}

/* ======================================================================
 * Markdown report
 * ====================================================================== */

static const char *lds_name(int bits)
{
    return bits == 32 ? "LDS" : bits == 64 ? "LDS.64" : bits == 128 ? "LDS.128" : "LDS.?";
}

/* The thesis's FFMA shares at B_R 6 (003 L1469; 85.7 % also L1532, 92.3 %
 * also L1536). */
static double thesis_share(int bits)
{
    return bits == 32 ? 75.0 : bits == 64 ? 85.7 : bits == 128 ? 92.3 : -1.0;
}

/* "value (source)" of a thesis number, or an em dash. */
static const char *ref_cell(char *buf, size_t len, const teg_bound_num *t, const char *fmt)
{
    if (t->v < 0) {
        snprintf(buf, len, "—");
    } else {
        char v[64];
        snprintf(v, sizeof v, fmt, t->v);
        snprintf(buf, len, "%s (%s)", v, t->src ? t->src : "");
    }
    return buf;
}

static void md_input(FILE *out, const char *what, const teg_bound_num *n)
{
    fprintf(out, "| %s | %g | %s |\n", what, n->v, n->src ? n->src : "");
}

static void md_inputs(const teg_bound_input *in, FILE *out)
{
    fprintf(out, "### Inputs (Table 4.2, 003 L1379-1400)\n\n");
    fprintf(out, "| parameter | value | source |\n|---|---|---|\n");
    md_input(out, "P_theoretical (GFLOPS)", &in->p_theoretical);
    md_input(out, "shader clock (MHz)", &in->clock_mhz);
    md_input(out, "SMs", &in->sms);
    md_input(out, "#SP_TP (thread-instr./cycle/SM)", &in->sp_tp);
    md_input(out, "#Issue_TP (thread-instr./cycle/SM)", &in->issue_tp);
    md_input(out, "#LDS_TP (thread-instr./cycle/SM)", &in->lds_tp);
    md_input(out, "R_Max (registers/thread)", &in->r_max);
    md_input(out, "R_SM (registers/SM)", &in->r_sm);
    md_input(out, "Sh_SM (bytes/SM)", &in->sh_sm);
    md_input(out, "max threads/SM", &in->max_threads);
    md_input(out, "#GlobalMem_bandwidth (GB/s)", &in->gmem_gbps);
    md_input(out, "T_B (threads/block)", &in->t_b);
    md_input(out, "X of the allocation's LDS.X (bits)", &in->lds_bits);
    md_input(out, "L (stride)", &in->l);
    md_input(out, "R_addr: A, B in global memory", &in->r_gaddr);
    md_input(out, "R_addr: loop end", &in->r_loop_end);
    md_input(out, "R_addr: A, B in shared memory (prefetch stores)", &in->r_saddr_sts);
    md_input(out, "R_addr: A, B in shared memory (main loop)", &in->r_saddr_lds);
    for (int i = 0; i < in->n_ft; i++) {
        const teg_bound_ft *f = &in->ft[i];
        fprintf(out, "| F_T, FFMA + %s at B_R %d%s | %g | %s |\n", lds_name(f->lds_bits), f->br,
                f->for_bound ? "" : " (reported only)", f->ft, f->src ? f->src : "");
    }
    fprintf(out, "\n");
}

void teg_bound_report_md(const teg_bound_input *in, const teg_bound_result *r, FILE *out)
{
    const teg_bound_thesis *th = &in->thesis;
    const teg_bound_regs *g = &r->regs;
    char b1[256];
    int x = (int)in->lds_bits.v, t_b = (int)in->t_b.v, r_max = (int)in->r_max.v;

    fprintf(out, "## SGEMM upper bound: %s — %s\n\n", in->name, in->gpu);
    fprintf(out, "Seed 003 ch. 4, Eq. 4.1-4.11 (003 L1477-1538); Eq. 4.4-4.6 in the French form "
                 "√(T_B·B_R²)·L (003 L304-314, G20). Values marked ASSUMED are not in the thesis.\n\n");
    md_inputs(in, out);

    /* Register blocking. */
    fprintf(out, "### Register blocking B_R (Eq. 4.3, 4.5)\n\n");
    fprintf(out, "- B_R loose (Eq. 4.3, B_R² + B_R + 1 < R_Max = %d): **%d** — thesis %s\n",
            r_max, r->br_loose, ref_cell(b1, sizeof b1, &th->br_loose, "%g"));
    fprintf(out, "- B_R strict (Eq. 4.5 at the smallest L of Eq. 4.4, B row max(1, X/32) = %d "
                 "(G23), R_addr %d): **%d** — thesis %s\n",
            teg_bound_b_row_regs(x), g->r_addr, r->br_strict,
            ref_cell(b1, sizeof b1, &th->br_strict, "%g"));
    fprintf(out, "- B_R strict per LDS width:");
    for (int bits = 32; bits <= 128; bits *= 2)
        fprintf(out, " %s %d%s", lds_name(bits),
                teg_bound_br_strict(r_max, t_b, bits, g->r_addr), bits < 128 ? "," : "\n\n");

    /* The stride L. */
    fprintf(out, "### Stride L (Eq. 4.4-4.6 at B_R %d, T_B %d, B_Sh %d, %s, Blk %d)\n\n",
            r->br, t_b, r->b_sh, lds_name(x), r->lscan[0].blk);
    fprintf(out, "| L | Eq. 4.4: B_Sh·L mod T_B | registers w/o R_addr | registers with R_addr "
                 "(R_Max %d) | Eq. 4.6: bytes (Sh_SM %g) | admissible | feasible |\n"
                 "|---|---|---|---|---|---|---|\n", r_max, in->sh_sm.v);
    for (int i = 0; i < r->n_l; i++) {
        const teg_bound_lcheck *c = &r->lscan[i];
        fprintf(out, "| %d | %ld | %d | %d | %ld | %s | %s |\n", c->l,
                (long)r->b_sh * c->l % t_b, c->regs_blocking, c->regs_total, c->smem_bytes,
                c->admissible ? "yes" : "no", c->feasible ? "yes" : "no");
    }
    fprintf(out, "\n- admissible L (Eq. 4.4, Eq. 4.5 without R_addr, Eq. 4.6):");
    int first = 1;
    for (int i = 0; i < r->n_l; i++)
        if (r->lscan[i].admissible) { fprintf(out, "%s %d", first ? "" : ",", r->lscan[i].l); first = 0; }
    if (first) fprintf(out, " none");
    fprintf(out, " — thesis \"8, 16, 24, ...\" from Eq. 4.4 alone (003 L1532)\n");
    fprintf(out, "- largest feasible L (with R_addr): **%d**; used: L = %d — thesis %s\n\n",
            r->l_best, (int)in->l.v, ref_cell(b1, sizeof b1, &th->l_chosen, "%g"));

    /* The allocation of 003 L1560-1574. */
    fprintf(out, "### Register allocation (003 L1560-1574, at L %d, %s)\n\n", (int)in->l.v, lds_name(x));
    fprintf(out, "| item | registers | formula |\n|---|---|---|\n");
    fprintf(out, "| 1. C sub-matrix | %d | B_R² |\n", g->c);
    fprintf(out, "| 2. prefetch of A and B | %d | 2·√(T_B·B_R²)·L/T_B = 2·%d·%d/%d |\n",
            g->prefetch, r->b_sh, (int)in->l.v, t_b);
    fprintf(out, "| 3. column of A | %d | B_R |\n", g->a_col);
    fprintf(out, "| 3. row of B | %d | max(1, X/32), X = %d (G23) |\n", g->b_row, x);
    fprintf(out, "| 4. A, B in global memory | %d | R_addr |\n", g->gaddr);
    fprintf(out, "| 5. loop end | %d | R_addr |\n", g->loop_end);
    fprintf(out, "| 6. A, B in shared memory (prefetch stores) | %d | R_addr |\n", g->saddr_sts);
    fprintf(out, "| 7. A, B in shared memory (main loop) | %d | R_addr |\n", g->saddr_lds);
    fprintf(out, "| **total** (R_Max %d) | **%d** | Eq. 4.5 |\n\n", r_max, g->total);
    fprintf(out, "- prefetch registers: %d — thesis %s\n", g->prefetch,
            ref_cell(b1, sizeof b1, &th->prefetch_regs, "%g"));
    fprintf(out, "- registers per thread: %d — thesis %s\n\n", g->total,
            ref_cell(b1, sizeof b1, &th->regs_total, "%g"));

    /* Occupancy. */
    fprintf(out, "### Active threads (Eq. 4.1, 4.2, 4.6)\n\n");
    fprintf(out, "- threads per SM allowed by registers (Eq. 4.2, R_T = R_Max = %d, whole warps): "
                 "%g / %d -> **%d** — thesis %s\n", r->r_t, in->r_sm.v, r->r_t, r->threads_regs,
            ref_cell(b1, sizeof b1, &th->t_sm, "%g"));
    fprintf(out, "- shared memory per block (Eq. 4.6, G24): 2·%d·%d·4 = %ld bytes\n",
            r->b_sh, (int)in->l.v, r->smem_block);
    fprintf(out, "- blocks per SM: registers %d, threads %d, shared memory %d -> Blk %d, T_SM %d\n\n",
            r->blk_regs, r->blk_threads, r->blk_smem, r->blk, r->t_sm);

    /* Global memory. */
    fprintf(out, "### Global-memory bound (Eq. 4.7, 4.8)\n\n");
    fprintf(out, "- B_Sh = √(T_B·B_R²) = √(%d·%d) = %d (Eq. 4.7)\n", t_b, r->br * r->br, r->b_sh);
    fprintf(out, "- flop per byte = 2·B_Sh² / (2·B_Sh·4) = B_Sh/4 = %g (Eq. 4.8)\n", r->flop_per_byte);
    fprintf(out, "- P_MemBound = %g GB/s × %g = **%.1f GFLOPS** — reference %s\n\n",
            in->gmem_gbps.v, r->flop_per_byte, r->p_mem,
            ref_cell(b1, sizeof b1, &th->p_mem_gflops, "%g"));

    /* FFMA shares. */
    fprintf(out, "### FFMA share at B_R %d (003 L1469; F_I = 32/X, G21)\n\n", r->br);
    fprintf(out, "| LDS.X | F_I | FFMA:LDS | FFMA share | thesis (003 L1469) |\n|---|---|---|---|---|\n");
    for (int bits = 32; bits <= 128; bits *= 2) {
        double fi = teg_bound_f_i(bits);
        double ratio = (double)r->br * r->br / (2.0 * r->br * fi);
        char t[32] = "—";
        if (r->br == 6) snprintf(t, sizeof t, "%.1f %%", thesis_share(bits));
        fprintf(out, "| %s | %g | %g:1 | %.2f %% | %s |\n", lds_name(bits), fi, ratio,
                100.0 * teg_bound_ffma_share(r->br, bits), t);
    }
    fprintf(out, "\n");

    /* The SM bound. */
    fprintf(out, "### SM bound (Eq. 4.10: FFMA share × F_T / #SP_TP × P_theoretical)\n\n");
    fprintf(out, "| mix | B_R | B_R strict at X | largest L | FFMA share | F_T | P_SMBound | GFLOPS "
                 "| reference | reference source |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < r->n_sm; i++) {
        const teg_bound_sm *s = &r->sm[i];
        const teg_bound_ft *f = &in->ft[i];
        char ref[32] = "—";
        if (f->ref_pct >= 0) snprintf(ref, sizeof ref, "%g %%", f->ref_pct);
        fprintf(out, "| FFMA + %s%s%s | %d | %d | %d | %.2f %% | %g | **%.2f %%** | %.1f | %s | %s |\n",
                lds_name(s->lds_bits), f->for_bound ? "" : " (G22, reported only)",
                s->feasible ? "" : " (infeasible)", s->br, s->br_strict, s->l_best,
                100.0 * s->ffma_share, s->ft, 100.0 * s->frac, s->gflops, ref,
                f->ref_src ? f->ref_src : "—");
    }
    fprintf(out, "\n- issue limit #Issue_TP/#SP_TP = %g/%g = **%.2f %%** of P_theoretical for FFMA "
                 "(003 L1348, L1371) — thesis %s\n\n", in->issue_tp.v, in->sp_tp.v,
            100.0 * r->issue_frac, ref_cell(b1, sizeof b1, &th->issue_pct, "%g %%"));

    /* The bound. */
    const teg_bound_sm *b = &r->sm[r->best];
    fprintf(out, "### Bound (Eq. 4.11)\n\n");
    fprintf(out, "- P_potential = min(P_MemBound %.1f, P_SMBound %.1f (%s)) = **%.1f GFLOPS = "
                 "%.2f %%** of %g: %s-bound — thesis %s\n", r->p_mem, b->gflops,
            lds_name(b->lds_bits), r->p_potential, 100.0 * r->p_potential_frac,
            in->p_theoretical.v, r->mem_bound ? "memory" : "SM",
            ref_cell(b1, sizeof b1, &th->bound_pct, "%g %%"));
    if (th->achieved_gflops.v > 0) {
        fprintf(out, "- the thesis's SGEMM: %.1f GFLOPS (%s) = %.1f %% of this bound — thesis %s\n",
                th->achieved_gflops.v, th->achieved_gflops.src ? th->achieved_gflops.src : "",
                100.0 * th->achieved_gflops.v / r->p_potential,
                ref_cell(b1, sizeof b1, &th->achieved_of_bound_pct, "%g %%"));
    }
    fprintf(out, "\n");
}

/* ======================================================================
 * JSON
 * ====================================================================== */

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c == '\n') fputs("\\n", out);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

/* %.10g: enough for every input and deterministic across runs. */
static void json_num(FILE *out, double v)
{
    fprintf(out, "%.10g", v);
}

static void json_val(FILE *out, const char *key, const teg_bound_num *n, int last)
{
    fprintf(out, "        ");
    json_str(out, key);
    if (n->v < 0) {
        fprintf(out, ": null%s\n", last ? "" : ",");
        return;
    }
    fprintf(out, ": {\"value\": ");
    json_num(out, n->v);
    fprintf(out, ", \"source\": ");
    json_str(out, n->src ? n->src : "");
    fprintf(out, "}%s\n", last ? "" : ",");
}

static const char *tf(int b) { return b ? "true" : "false"; }

static void json_one(const teg_bound_input *in, const teg_bound_result *r, FILE *out)
{
    const teg_bound_regs *g = &r->regs;
    const teg_bound_thesis *th = &in->thesis;
    fprintf(out, "    {\n      \"name\": ");
    json_str(out, in->name);
    fprintf(out, ",\n      \"gpu\": ");
    json_str(out, in->gpu);
    fprintf(out, ",\n      \"inputs\": {\n");
    json_val(out, "p_theoretical_gflops", &in->p_theoretical, 0);
    json_val(out, "clock_mhz", &in->clock_mhz, 0);
    json_val(out, "sms", &in->sms, 0);
    json_val(out, "sp_tp", &in->sp_tp, 0);
    json_val(out, "issue_tp", &in->issue_tp, 0);
    json_val(out, "lds_tp", &in->lds_tp, 0);
    json_val(out, "r_max", &in->r_max, 0);
    json_val(out, "r_sm", &in->r_sm, 0);
    json_val(out, "sh_sm_bytes", &in->sh_sm, 0);
    json_val(out, "max_threads_sm", &in->max_threads, 0);
    json_val(out, "gmem_gbps", &in->gmem_gbps, 0);
    json_val(out, "t_b", &in->t_b, 0);
    json_val(out, "lds_bits", &in->lds_bits, 0);
    json_val(out, "l", &in->l, 0);
    json_val(out, "r_gaddr", &in->r_gaddr, 0);
    json_val(out, "r_loop_end", &in->r_loop_end, 0);
    json_val(out, "r_saddr_sts", &in->r_saddr_sts, 0);
    json_val(out, "r_saddr_lds", &in->r_saddr_lds, 1);
    fprintf(out, "      },\n");
    fprintf(out, "      \"br_loose\": %d,\n      \"br_strict\": %d,\n      \"br\": %d,\n"
                 "      \"b_sh\": %d,\n      \"l_step\": %d,\n      \"l_scan\": [\n",
            r->br_loose, r->br_strict, r->br, r->b_sh, r->l_step);
    for (int i = 0; i < r->n_l; i++) {
        const teg_bound_lcheck *c = &r->lscan[i];
        fprintf(out, "        {\"l\": %d, \"eq44\": %s, \"regs_blocking\": %d, \"regs_total\": %d, "
                     "\"blk\": %d, \"smem_bytes\": %ld, \"eq45_blocking\": %s, \"eq45\": %s, "
                     "\"eq46\": %s, \"admissible\": %s, \"feasible\": %s}%s\n",
                c->l, tf(c->eq44), c->regs_blocking, c->regs_total, c->blk, c->smem_bytes,
                tf(c->eq45_blocking), tf(c->eq45), tf(c->eq46), tf(c->admissible),
                tf(c->feasible), i + 1 < r->n_l ? "," : "");
    }
    fprintf(out, "      ],\n      \"l_admissible\": [");
    int first = 1;
    for (int i = 0; i < r->n_l; i++)
        if (r->lscan[i].admissible) { fprintf(out, "%s%d", first ? "" : ", ", r->lscan[i].l); first = 0; }
    fprintf(out, "],\n      \"l_best\": %d,\n      \"l\": %d,\n", r->l_best, r->lused.l);
    fprintf(out, "      \"regs\": {\"c\": %d, \"prefetch\": %d, \"a_col\": %d, \"b_row\": %d, "
                 "\"gaddr\": %d, \"loop_end\": %d, \"saddr_sts\": %d, \"saddr_lds\": %d, "
                 "\"r_addr\": %d, \"total\": %d},\n",
            g->c, g->prefetch, g->a_col, g->b_row, g->gaddr, g->loop_end, g->saddr_sts,
            g->saddr_lds, g->r_addr, g->total);
    fprintf(out, "      \"r_t\": %d,\n      \"threads_regs\": %d,\n      \"blk_regs\": %d,\n"
                 "      \"blk_threads\": %d,\n      \"blk_smem\": %d,\n      \"blk\": %d,\n"
                 "      \"t_sm\": %d,\n      \"smem_block_bytes\": %ld,\n",
            r->r_t, r->threads_regs, r->blk_regs, r->blk_threads, r->blk_smem, r->blk, r->t_sm,
            r->smem_block);
    fprintf(out, "      \"flop_per_byte\": ");
    json_num(out, r->flop_per_byte);
    fprintf(out, ",\n      \"p_mem_gflops\": ");
    json_num(out, r->p_mem);
    fprintf(out, ",\n      \"sm_bound\": [\n");
    for (int i = 0; i < r->n_sm; i++) {
        const teg_bound_sm *s = &r->sm[i];
        const teg_bound_ft *f = &in->ft[i];
        fprintf(out, "        {\"lds_bits\": %d, \"br\": %d, \"br_strict\": %d, \"feasible\": %s, "
                     "\"l_best\": %d, \"for_bound\": %s, \"f_i\": ",
                s->lds_bits, s->br, s->br_strict, tf(s->feasible), s->l_best, tf(f->for_bound));
        json_num(out, s->f_i);
        fprintf(out, ", \"ffma_share\": ");
        json_num(out, s->ffma_share);
        fprintf(out, ", \"ft\": ");
        json_num(out, s->ft);
        fprintf(out, ", \"ft_source\": ");
        json_str(out, f->src ? f->src : "");
        fprintf(out, ", \"frac\": ");
        json_num(out, s->frac);
        fprintf(out, ", \"gflops\": ");
        json_num(out, s->gflops);
        fprintf(out, ", \"ref_pct\": ");
        if (f->ref_pct >= 0) json_num(out, f->ref_pct); else fputs("null", out);
        fprintf(out, ", \"ref_source\": ");
        if (f->ref_src) json_str(out, f->ref_src); else fputs("null", out);
        fprintf(out, "}%s\n", i + 1 < r->n_sm ? "," : "");
    }
    fprintf(out, "      ],\n      \"issue_frac\": ");
    json_num(out, r->issue_frac);
    fprintf(out, ",\n      \"best\": %d,\n      \"p_potential_gflops\": ", r->best);
    json_num(out, r->p_potential);
    fprintf(out, ",\n      \"p_potential_frac\": ");
    json_num(out, r->p_potential_frac);
    fprintf(out, ",\n      \"bound_by\": \"%s\",\n      \"thesis\": {\n", r->mem_bound ? "memory" : "sm");
    json_val(out, "br_loose", &th->br_loose, 0);
    json_val(out, "br_strict", &th->br_strict, 0);
    json_val(out, "l_chosen", &th->l_chosen, 0);
    json_val(out, "prefetch_regs", &th->prefetch_regs, 0);
    json_val(out, "regs_total", &th->regs_total, 0);
    json_val(out, "t_sm", &th->t_sm, 0);
    json_val(out, "issue_pct", &th->issue_pct, 0);
    json_val(out, "bound_pct", &th->bound_pct, 0);
    json_val(out, "achieved_gflops", &th->achieved_gflops, 0);
    json_val(out, "achieved_of_bound_pct", &th->achieved_of_bound_pct, 0);
    json_val(out, "p_mem_gflops", &th->p_mem_gflops, 1);
    fprintf(out, "      }\n    }");
}

int teg_bound_write_json(const teg_bound_input *const *in, const teg_bound_result *r,
                         int n, FILE *out)
{
    fprintf(out, "{\n  \"command\": \"teg bound\",\n"
                 "  \"source\": \"seed 003 ch. 4, Eq. 4.1-4.11 (003 L1477-1538); G20-G24\",\n"
                 "  \"archs\": [\n");
    for (int i = 0; i < n; i++) {
        json_one(in[i], &r[i], out);
        fprintf(out, "%s\n", i + 1 < n ? "," : "");
    }
    fprintf(out, "  ]\n}\n");
    return ferror(out) ? -1 : 0;
}

/* ======================================================================
 * `smcosim teg bound`
 * ====================================================================== */

#define BOUND_USAGE \
    "usage: smcosim teg bound [--arch gtx580|gtx680] [--json FILE] [--help]\n" \
    "  The SGEMM performance upper bound of seed 003 ch. 4 (Eq. 4.1-4.11) from the\n" \
    "  thesis's inputs, each number beside the thesis's (Markdown on stdout).\n" \
    "  --arch A     gtx580 (Fermi) or gtx680 (Kepler); default: both\n" \
    "  --json FILE  the same as JSON (written to FILE.tmp, then renamed)\n"

#define MAX_ARCHS 8   /* architectures one command prints */

/* All or nothing: FILE.tmp, then rename; removed on any error. */
static int write_json_file(const char *path, const teg_bound_input *const *in,
                           const teg_bound_result *r, int n)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, "smcosim teg bound: --json %s: path too long\n", path);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "smcosim teg bound: --json %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    errno = 0;
    int bad = teg_bound_write_json(in, r, n, f);
    if (fclose(f) != 0) bad = -1;
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "smcosim teg bound: --json %s: %s\n", path,
                errno ? strerror(errno) : "write error");
        remove(tmp);
        return -1;
    }
    return 0;
}

/* One line per architecture when more than one is printed. */
static void md_summary(const teg_bound_input *const *in, const teg_bound_result *r, int n,
                       FILE *out)
{
    fprintf(out, "## Summary\n\n| arch | B_R loose/strict | L | T_SM | P_MemBound (GFLOPS) | "
                 "P_SMBound | bound (GFLOPS) | bound | thesis |\n|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const teg_bound_sm *b = &r[i].sm[r[i].best];
        char t[32] = "—";
        if (in[i]->thesis.bound_pct.v >= 0) snprintf(t, sizeof t, "%g %%", in[i]->thesis.bound_pct.v);
        fprintf(out, "| %s | %d/%d | %d | %d | %.1f | %.2f %% (%s) | %.1f | **%.2f %%** | %s |\n",
                in[i]->name, r[i].br_loose, r[i].br_strict, r[i].lused.l, r[i].t_sm, r[i].p_mem,
                100.0 * b->frac, lds_name(b->lds_bits), r[i].p_potential,
                100.0 * r[i].p_potential_frac, t);
    }
    fprintf(out, "\n");
}

int teg_bound_cli(int argc, char **argv, FILE *out)
{
    const char *arch = NULL, *json = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--arch") && more) arch = argv[++i];
        else if (!strcmp(a, "--json") && more) json = argv[++i];
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(BOUND_USAGE, out); return 0; }
        else if (!strcmp(a, "--arch") || !strcmp(a, "--json")) {
            fprintf(stderr, "smcosim teg bound: %s needs a value\n" BOUND_USAGE, a);
            return 2;
        } else {
            fprintf(stderr, "smcosim teg bound: bad argument '%s'\n" BOUND_USAGE, a);
            return 2;
        }
    }

    const teg_bound_input *sel[MAX_ARCHS];
    int n = 0;
    if (arch) {
        const teg_bound_input *p = teg_bound_builtin(arch);
        if (!p) {
            fprintf(stderr, "smcosim teg bound: unknown --arch '%s' (known: gtx580, gtx680)\n"
                    BOUND_USAGE, arch);
            return 2;
        }
        sel[n++] = p;
    } else {
        for (const teg_bound_input *p; n < MAX_ARCHS && (p = teg_bound_builtin_at(n)); )
            sel[n++] = p;
    }

    teg_bound_result res[MAX_ARCHS];
    for (int i = 0; i < n; i++) {
        char err[256];
        if (teg_bound_compute(sel[i], &res[i], err, sizeof err)) {
            fprintf(stderr, "smcosim teg bound: %s: %s\n", sel[i]->name, err);
            return 1;
        }
    }
    for (int i = 0; i < n; i++) teg_bound_report_md(sel[i], &res[i], out);
    if (n > 1) md_summary(sel, res, n, out);
    if (json && write_json_file(json, sel, res, n)) return 1;
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(stderr, "smcosim teg bound: write error on the report\n");
        return 1;
    }
    return 0;
}
