/*
 * teg_bound.h — the SGEMM performance upper bound of seed 003, ch. 4
 * (J. Lai's thesis, Eq. 4.1-4.11, 003 L1477-1538; ../shared/design/teg.md §3,
 * gaps G20-G24 and G26; docs/teg.md, "The SGEMM upper bound").
 *
 * The bound is arithmetic on a handful of architecture and implementation
 * numbers. SGEMM's main loop is FFMA plus LDS.X (X = 32, 64 or 128 bits);
 * register blocking B_R makes each thread compute a B_R x B_R tile of C, so
 * the loop does B_R^2 FFMA per 2·B_R·F_I shared loads. The largest B_R the
 * 63-register limit allows (Eq. 4.3 loose, Eq. 4.5 strict), the stride L that
 * gives every thread the same share of the prefetch (Eq. 4.4) and fits the
 * registers and shared memory (Eq. 4.5, 4.6), and the measured throughput
 * F_T of the FFMA/LDS.X mix (Eq. 4.9) give the bound imposed by the SMs
 * (Eq. 4.10); the shared-memory tile B_Sh gives the bound imposed by global
 * memory (Eq. 4.7, 4.8); the smaller of the two is the bound (Eq. 4.11).
 *
 * Decisions taken where the thesis is ambiguous (teg.md §4):
 *   G20  Eq. 4.4-4.6 use the French form sqrt(T_B·B_R^2)·L (003 L304-314),
 *        not chapter 4's sqrt(T_B·B_R·L); only the former gives 12 prefetch
 *        registers and L in {8, 16, 24, ...}.
 *   G21  F_I = 32/X, LDS instructions per loaded element; the FFMA share is
 *        B_R^2 / (B_R^2 + 2·B_R·F_I).
 *   G22  Fermi F_T is 30.8 in Eq. 4.10 (003 L1534) but 30.4 in the measured
 *        6:1 mix (003 L1469): both are reported, 30.8 gives the bound.
 *   G23  the B-row term of Eq. 4.5 is max(1, X/32) registers, not 1.
 *   G24  Eq. 4.6 counts elements of 4 bytes against Sh_SM in bytes.
 *   G26  F_T values are the thesis's measurements; they serve only to
 *        reproduce its bound.
 *
 * Everything here is pure arithmetic on const data: no globals are written,
 * no allocation, so the functions are safe to call from anywhere.
 */
#ifndef SMC_TEG_BOUND_H
#define SMC_TEG_BOUND_H

#include <stddef.h>
#include <stdio.h>

/* A number with the place it comes from: "003 L412", "derived: ...",
 * or "ASSUMED: ..." for values the thesis does not give (teg.md, ASSUMED). */
typedef struct teg_bound_num {
    double v;
    const char *src;
} teg_bound_num;

/* One measured throughput of an FFMA/LDS.X mix (Eq. 4.9, Figs. 4.2, 4.4). */
typedef struct teg_bound_ft {
    int lds_bits;        /* X: 32 (LDS), 64 (LDS.64) or 128 (LDS.128) */
    int br;              /* B_R of the mix that was measured (6: 3:1, 6:1, 12:1) */
    double ft;           /* thread-instructions per shader cycle per SM */
    int for_bound;       /* 1: a candidate for P_potential; 0: reported only */
    const char *src;     /* where F_T comes from */
    double ref_pct;      /* P_SMBound in % printed by the thesis or teg.md; <0: none */
    const char *ref_src; /* where ref_pct comes from */
} teg_bound_ft;

#define TEG_BOUND_MAX_FT 8

/* What the thesis prints about its own analysis; v < 0 when it prints
 * nothing for this architecture. Shown beside our numbers in the report. */
typedef struct teg_bound_thesis {
    teg_bound_num br_loose;         /* Eq. 4.3 */
    teg_bound_num br_strict;        /* Eq. 4.5 */
    teg_bound_num l_chosen;         /* stride L */
    teg_bound_num prefetch_regs;    /* 2·B_Sh·L/T_B */
    teg_bound_num regs_total;       /* the allocation */
    teg_bound_num t_sm;             /* threads per SM the registers allow */
    teg_bound_num issue_pct;        /* #Issue_TP / #SP_TP, in % */
    teg_bound_num bound_pct;        /* P_potential / P_theoretical, in % */
    teg_bound_num achieved_gflops;  /* the thesis's best SGEMM */
    teg_bound_num achieved_of_bound_pct; /* achieved / bound, in % */
    teg_bound_num p_mem_gflops;     /* P_MemBound: not printed by the thesis;
                                       teg.md §3 / R7 give it */
} teg_bound_thesis;

/* Inputs of the bound for one architecture and implementation (Table 4.2,
 * 003 L1379-1400). Integers are held as doubles so that every value can
 * carry its source; the functions below check that they are whole. */
typedef struct teg_bound_input {
    const char *name;            /* "gtx580" */
    const char *gpu;             /* "GeForce GTX 580 (Fermi, GF110)" */
    /* hardware */
    teg_bound_num p_theoretical; /* P_theoretical, GFLOPS (single precision) */
    teg_bound_num clock_mhz;     /* shader clock, MHz */
    teg_bound_num sms;           /* SMs */
    teg_bound_num sp_tp;         /* #SP_TP, FFMA thread-instructions per cycle per SM */
    teg_bound_num issue_tp;      /* #Issue_TP, thread-instructions issued per cycle per SM */
    teg_bound_num lds_tp;        /* #LDS_TP, LDS thread-instructions per cycle per SM */
    teg_bound_num r_max;         /* R_Max, registers per thread */
    teg_bound_num r_sm;          /* R_SM, 32-bit registers per SM */
    teg_bound_num sh_sm;         /* Sh_SM, shared-memory bytes per SM */
    teg_bound_num max_threads;   /* resident threads per SM */
    teg_bound_num gmem_gbps;     /* #GlobalMem_bandwidth, GB/s (10^9 bytes) */
    /* implementation */
    teg_bound_num t_b;           /* T_B, threads per block (a perfect square) */
    teg_bound_num lds_bits;      /* X of the register allocation's LDS.X */
    teg_bound_num l;             /* L, the stride of the prefetch */
    teg_bound_num r_gaddr;       /* addresses of A, B in global memory */
    teg_bound_num r_loop_end;    /* the loop-end condition */
    teg_bound_num r_saddr_sts;   /* A, B in shared memory, prefetch stores */
    teg_bound_num r_saddr_lds;   /* A, B in shared memory, main loop */
    /* measured F_T (Eq. 4.9) */
    int n_ft;
    teg_bound_ft ft[TEG_BOUND_MAX_FT];
    teg_bound_thesis thesis;
} teg_bound_input;

/* The per-thread register allocation (Eq. 4.5; 003 L1560-1574). */
typedef struct teg_bound_regs {
    int c;          /* 1. B_R^2, the C tile */
    int prefetch;   /* 2. 2·B_Sh·L/T_B, A and B on their way to shared memory */
    int a_col;      /* 3. B_R, one column of A */
    int b_row;      /* 3. max(1, X/32), the part of B's row in flight (G23) */
    int gaddr;      /* 4. */
    int loop_end;   /* 5. */
    int saddr_sts;  /* 6. */
    int saddr_lds;  /* 7. */
    int r_addr;     /* 4.-7.: R_addr of Eq. 4.5 */
    int total;
} teg_bound_regs;

/* One stride L checked against Eq. 4.4-4.6 at a given B_R and X. */
typedef struct teg_bound_lcheck {
    int l;
    int eq44;           /* (B_Sh·L) mod T_B == 0: every thread loads the same amount */
    int regs_blocking;  /* Eq. 4.5 left side without R_addr */
    int regs_total;     /* Eq. 4.5 left side with R_addr */
    long smem_bytes;    /* Eq. 4.6 left side at blk blocks, bytes (G24) */
    int blk;            /* the blocks per SM used for Eq. 4.6 */
    int eq45_blocking;  /* regs_blocking <= R_Max */
    int eq45;           /* regs_total <= R_Max */
    int eq46;           /* smem_bytes <= Sh_SM */
    int admissible;     /* eq44 && eq45_blocking && eq46 */
    int feasible;       /* admissible && eq45 */
} teg_bound_lcheck;

/* Eq. 4.10 for one F_T entry. */
typedef struct teg_bound_sm {
    int lds_bits;
    int br;             /* B_R of the measurement */
    int br_strict;      /* Eq. 4.5's largest B_R at this X */
    int feasible;       /* br <= br_strict */
    double f_i;         /* 32/X (G21) */
    double ffma_share;  /* B_R^2 / (B_R^2 + 2·B_R·F_I) */
    double ft;
    int l_best;         /* largest feasible L at this X and B_R (0: none) */
    double frac;        /* P_SMBound / P_theoretical */
    double gflops;      /* P_SMBound */
} teg_bound_sm;

#define TEG_BOUND_MAX_L 16   /* strides listed by the L scan */

typedef struct teg_bound_result {
    int br_loose;        /* Eq. 4.3 */
    int br_strict;       /* Eq. 4.5, at the allocation's X */
    int br;              /* B_R used: br_strict */
    int b_sh;            /* Eq. 4.7 */
    int l_step;          /* smallest L of Eq. 4.4; admissible L are its multiples */
    int n_l;
    teg_bound_lcheck lscan[TEG_BOUND_MAX_L]; /* L = l_step, 2·l_step, ... */
    int l_best;          /* largest feasible L */
    teg_bound_lcheck lused;  /* the input's L */
    teg_bound_regs regs; /* the allocation at the input's L and X */
    int r_t;             /* registers per thread, R_T = R_Max (Eq. 4.1) */
    int threads_regs;    /* threads per SM allowed by registers (Eq. 4.2) */
    int blk_regs, blk_threads, blk_smem, blk;  /* blocks per SM by each limit */
    int t_sm;            /* active threads per SM */
    long smem_block;     /* shared bytes per block (Eq. 4.6, G24) */
    double flop_per_byte;/* Eq. 4.8: B_Sh / 4 */
    double p_mem;        /* P_MemBound, GFLOPS */
    int n_sm;
    teg_bound_sm sm[TEG_BOUND_MAX_FT];  /* parallel to the input's ft[] */
    int best;            /* index in sm[] of the largest feasible for_bound entry, -1 none */
    double issue_frac;   /* #Issue_TP / #SP_TP (003 L1348, L1371) */
    double p_potential;  /* Eq. 4.11, GFLOPS */
    double p_potential_frac;
    int mem_bound;       /* 1 when P_MemBound < P_SMBound */
} teg_bound_result;

/* ---- built-in inputs --------------------------------------------------- */

/* The thesis's GTX580 (Fermi) and GTX680 (Kepler) sets; NULL if unknown. */
const teg_bound_input *teg_bound_builtin(const char *name);
/* The i-th built-in set (0, 1, ...), NULL past the last. */
const teg_bound_input *teg_bound_builtin_at(int i);

/* ---- the equations ----------------------------------------------------- */

/* Eq. 4.3: largest B_R with B_R^2 + B_R + 1 < R_Max (7 for 63). */
int teg_bound_br_loose(int r_max);
/* G23: registers holding B's row in the main loop, max(1, X/32). */
int teg_bound_b_row_regs(int lds_bits);
/* G21: F_I = 32/X, LDS.X instructions per loaded element; <0 for a bad X. */
double teg_bound_f_i(int lds_bits);
/* FFMA share of the main loop, B_R^2 / (B_R^2 + 2·B_R·F_I) (003 L1469). */
double teg_bound_ffma_share(int br, int lds_bits);
/* Eq. 4.7: B_Sh = sqrt(T_B·B_R^2) = B_R·sqrt(T_B); -1 unless T_B is a square. */
int teg_bound_b_sh(int t_b, int br);
/* Eq. 4.4 (G20): 1 if (B_Sh·L) mod T_B == 0. */
int teg_bound_eq44(int t_b, int br, int l);
/* Smallest L > 0 satisfying Eq. 4.4; -1 for bad arguments. */
int teg_bound_l_step(int t_b, int br);
/* 2·B_Sh·L/T_B, the prefetch registers (12 at T_B 256, B_R 6, L 16). */
int teg_bound_prefetch_regs(int t_b, int br, int l);
/* Eq. 4.5 left side: B_R^2 + 2·B_Sh·L/T_B + B_R + max(1, X/32) + R_addr. */
int teg_bound_regs_needed(int t_b, int br, int l, int lds_bits, int r_addr);
/* Eq. 4.5: largest B_R whose smallest L (Eq. 4.4) fits R_Max; 0 if none. */
int teg_bound_br_strict(int r_max, int t_b, int lds_bits, int r_addr);
/* Eq. 4.6 left side in bytes (G24): Blk · 2 · B_Sh · L · 4. */
long teg_bound_smem_bytes(int blk, int t_b, int br, int l);
/* Eq. 4.2: threads per SM the registers allow, in whole 32-thread warps. */
int teg_bound_threads_by_regs(int r_sm, int r_t);
/* Eq. 4.8: flop per byte of global traffic, 2·B_Sh^2 / (2·B_Sh·4). */
double teg_bound_flop_per_byte(int b_sh);
/* Eq. 4.10 divided by P_theoretical: share · F_T / #SP_TP. */
double teg_bound_p_sm_frac(int br, int lds_bits, double ft, double sp_tp);

/* The allocation of 003 L1560-1574 for an input at B_R, L and X. */
void teg_bound_regs_alloc(const teg_bound_input *in, int br, int l, int lds_bits,
                          teg_bound_regs *out);
/* Checks one L at B_R and X against Eq. 4.4-4.6; blk blocks for Eq. 4.6. */
void teg_bound_l_check(const teg_bound_input *in, int br, int l, int lds_bits, int blk,
                       teg_bound_lcheck *out);

/* Everything: returns 0, or -1 with a message in err (inputs out of range,
 * T_B not a square, the input's L infeasible). */
int teg_bound_compute(const teg_bound_input *in, teg_bound_result *out,
                      char *err, size_t errlen);

/* ---- output ------------------------------------------------------------ */

/* Markdown: inputs with sources, the equations' results, thesis beside ours. */
void teg_bound_report_md(const teg_bound_input *in, const teg_bound_result *r, FILE *out);
/* JSON of n architectures (deterministic). Returns 0, or -1 on a write error. */
int teg_bound_write_json(const teg_bound_input *const *in, const teg_bound_result *r,
                         int n, FILE *out);

/* `smcosim teg bound [--arch gtx580|gtx680] [--json FILE] [--help]`;
 * argv[0] is "bound". Markdown to out; 0 ok, 1 failure, 2 bad arguments. */
int teg_bound_cli(int argc, char **argv, FILE *out);

#endif
