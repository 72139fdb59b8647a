/*
 * ptx.h — the PTX intermediate representation: what the parser produces and
 * what the linker (link.c) turns into an executable, pre-decoded kernel.
 *
 * One ptx_insn is one PTX instruction with its opcode modifiers already
 * classified into small enums (type, state space, rounding, comparison, ...)
 * and its operands resolved to virtual register numbers, immediates,
 * special registers or addresses. The parser leaves symbol names (variables,
 * labels, callees) in operands; the linker replaces every one of them by a
 * number, so that the emulator never looks at a string.
 */
#ifndef SMC_PTX_H
#define SMC_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- scalar types ------------------------------------------------------- */
enum ptx_type {
    PT_NONE = 0, PT_PRED,
    PT_B8, PT_B16, PT_B32, PT_B64,
    PT_U8, PT_U16, PT_U32, PT_U64,
    PT_S8, PT_S16, PT_S32, PT_S64,
    PT_F16, PT_F16X2, PT_BF16, PT_F32, PT_F64,
    PT_COUNT
};
enum ptx_tclass { TC_NONE, TC_PRED, TC_BITS, TC_UINT, TC_SINT, TC_FLOAT };
extern const uint8_t ptx_type_size[PT_COUNT];   /* bytes (pred: 1) */
extern const uint8_t ptx_type_class[PT_COUNT];
extern const char *const ptx_type_name[PT_COUNT];

/* ---- state spaces ------------------------------------------------------- */
enum ptx_space {
    SP_GENERIC = 0, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_PARAM, SP_CONST,
    SP_COUNT
};
extern const char *const ptx_space_name[SP_COUNT];

/* ---- opcodes ------------------------------------------------------------ */
#define PTX_OPCODES(X) \
    X(ABS, "abs") X(ACTIVEMASK, "activemask") X(ADD, "add") X(ADDC, "addc") \
    X(AND, "and") X(ATOM, "atom") X(BAR, "bar") X(BARRIER, "barrier") \
    X(BFE, "bfe") X(BFI, "bfi") X(BFIND, "bfind") X(BMSK, "bmsk") X(BRA, "bra") \
    X(BREV, "brev") X(BRKPT, "brkpt") X(CALL, "call") X(CLZ, "clz") \
    X(CNOT, "cnot") X(COPYSIGN, "copysign") X(COS, "cos") X(CVT, "cvt") \
    X(CVTA, "cvta") X(DIV, "div") X(DP2A, "dp2a") X(DP4A, "dp4a") X(EX2, "ex2") X(EXIT, "exit") \
    X(FENCE, "fence") X(FMA, "fma") X(ISSPACEP, "isspacep") X(LD, "ld") \
    X(LDU, "ldu") X(LG2, "lg2") X(LOP3, "lop3") X(MAD, "mad") \
    X(MADC, "madc") X(MAD24, "mad24") X(MAX, "max") X(MEMBAR, "membar") \
    X(MIN, "min") X(MOV, "mov") X(MUL, "mul") X(MUL24, "mul24") \
    X(NANOSLEEP, "nanosleep") X(NEG, "neg") X(NOT, "not") X(OR, "or") \
    X(POPC, "popc") X(PREFETCH, "prefetch") X(PRMT, "prmt") X(RCP, "rcp") \
    X(RED, "red") X(REM, "rem") X(RET, "ret") X(RSQRT, "rsqrt") \
    X(SAD, "sad") X(SELP, "selp") X(SET, "set") X(SETP, "setp") \
    X(SHF, "shf") X(SHFL, "shfl") X(SHL, "shl") X(SHR, "shr") X(SIN, "sin") \
    X(SLCT, "slct") X(SQRT, "sqrt") X(ST, "st") X(SUB, "sub") X(SUBC, "subc") X(SZEXT, "szext") \
    X(TANH, "tanh") X(TESTP, "testp") X(TRAP, "trap") X(VOTE, "vote") \
    X(XOR, "xor") X(MATCH, "match") X(FNS, "fns") X(PMEVENT, "pmevent") \
    X(VADD2, "vadd2") X(VADD4, "vadd4") X(VSUB2, "vsub2") X(VSUB4, "vsub4") \
    X(VABSDIFF2, "vabsdiff2") X(VABSDIFF4, "vabsdiff4") X(VMIN2, "vmin2") \
    X(VMIN4, "vmin4") X(VMAX2, "vmax2") X(VMAX4, "vmax4")

enum ptx_op {
#define X(e, s) OP_##e,
    PTX_OPCODES(X)
#undef X
    OP_COUNT
};
extern const char *const ptx_op_name[OP_COUNT];

/* Comparison operators of setp/set/slct. */
enum ptx_cmp {
    CMP_NONE = 0, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,
    CMP_LO, CMP_LS, CMP_HI, CMP_HS,
    CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN
};
/* Rounding modifiers. */
enum ptx_rnd { RND_NONE = 0, RND_RN, RND_RZ, RND_RM, RND_RP,
               RND_RNI, RND_RZI, RND_RMI, RND_RPI };
/* Per-op sub-mode (one field, meaning depends on the opcode). */
enum ptx_mode {
    MD_NONE = 0,
    /* mul/mad */     MD_LO, MD_HI, MD_WIDE,
    /* atom/red, bar.red */ MD_ADD, MD_MIN, MD_MAX, MD_INC, MD_DEC, MD_AND,
                      MD_OR, MD_XOR, MD_EXCH, MD_CAS, MD_POPC,
    /* shfl */        MD_UP, MD_DOWN, MD_BFLY, MD_IDX,
    /* vote */        MD_ALL, MD_ANY, MD_UNI, MD_BALLOT,
    /* bar */         MD_SYNC, MD_ARRIVE, MD_RED,
    /* shf */         MD_L, MD_R,
    /* testp */       MD_FINITE, MD_INFINITE, MD_NUMBER, MD_NOTANUMBER,
                      MD_NORMAL, MD_SUBNORMAL,
    /* cvta */        MD_TO,
    /* prmt */        MD_F4E, MD_B4E, MD_RC8, MD_ECL, MD_ECR, MD_RC16,
    /* call of a runtime builtin (after linking) */ MD_VPRINTF, MD_ASSERTFAIL,
                      MD_MALLOC, MD_FREE
};
/* Flag bits. */
enum {
    F_SAT = 1u << 0, F_FTZ = 1u << 1, F_APPROX = 1u << 2, F_FULL = 1u << 3,
    F_UNI = 1u << 4, F_CC = 1u << 5, F_WRAP = 1u << 6, F_CLAMP = 1u << 7,
    F_NC = 1u << 8, F_SHIFTAMT = 1u << 9, F_CALL_RET = 1u << 10,
    F_BSIGNED = 1u << 11,     /* SIMD video ops: the third type (.btype) is .s32 */
    F_VOLATILE = 1u << 12     /* ld/st .volatile/.relaxed/.acquire/.release/.acq_rel
                                 (HAWS: never hinted, hints/haws_rules.c) */
};

/* ---- operands ----------------------------------------------------------- */
enum ptx_opkind {
    OK_NONE = 0,
    OK_REG,      /* virtual register `reg` (neg: `!%p`) */
    OK_IMM,      /* immediate bits in `imm` (fimm: 1 = 0f/f32 literal, 2 = double) */
    OK_SREG,     /* special register `reg` = enum ptx_sreg */
    OK_ADDR,     /* [reg + imm] (reg < 0: absolute) or [sym + imm] before linking */
    OK_SYM,      /* a name: variable (mov), label (bra), function (call) */
    OK_VEC,      /* {r0, r1, ...}: vec[] holds nvec register numbers (-1 = `_`) */
};
enum ptx_sreg {
    SR_TID_X, SR_TID_Y, SR_TID_Z, SR_NTID_X, SR_NTID_Y, SR_NTID_Z,
    SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
    SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
    SR_CLOCK, SR_CLOCK_HI, SR_CLOCK64, SR_GLOBALTIMER, SR_GLOBALTIMER_LO,
    SR_GLOBALTIMER_HI, SR_LANEMASK_EQ, SR_LANEMASK_LE, SR_LANEMASK_LT,
    SR_LANEMASK_GE, SR_LANEMASK_GT, SR_DYN_SMEM, SR_TOTAL_SMEM,
    /* %envreg0..31: 32-bit values the launch provides (emu_launch_desc.envreg,
     * 0 unless set; a cooperative launch puts its grid-barrier workspace in
     * %envreg1 (high half) and %envreg2 (low half), docs/runtime.md) */
    SR_ENVREG0, SR_ENVREG31 = SR_ENVREG0 + 31,
    SR_COUNT
};

typedef struct ptx_operand {
    uint8_t  kind;     /* enum ptx_opkind */
    uint8_t  neg;      /* `!` before a predicate */
    uint8_t  fimm;     /* OK_IMM: 0 integer, 1 f32 bits (0f...), 2 f64 bits */
    uint8_t  nvec;     /* OK_VEC: element count */
    int32_t  reg;      /* OK_REG / OK_ADDR base register (-1: none) / OK_SREG id */
    int32_t  reg2;     /* second destination of `d|p` (-1: none) */
    int32_t  vec[4];   /* OK_VEC registers */
    uint64_t imm;      /* OK_IMM bits, OK_ADDR offset */
    const char *sym;   /* OK_SYM / OK_ADDR symbol, before linking */
} ptx_operand;

#define PTX_MAX_OPS 6

typedef struct ptx_call {           /* call (rets), func, (args) */
    const char **rets;  uint32_t nrets;
    const char **args;  uint32_t nargs;
    const char *callee;             /* direct call: the function's name, else NULL */
    int32_t callee_reg;             /* indirect call `call (r), %rd, (a), proto;`:
                                       the register holding the address, else -1 */
} ptx_call;

typedef struct ptx_insn {
    uint8_t  op;        /* enum ptx_op */
    uint8_t  type;      /* primary type (destination for cvt/set) */
    uint8_t  type2;     /* second type: cvt/set source type, slct selector */
    uint8_t  space;     /* enum ptx_space (ld/st/atom/red/cvta/isspacep) */
    uint8_t  vec;       /* 1, 2 or 4 */
    uint8_t  cmp;       /* enum ptx_cmp */
    uint8_t  boolop;    /* setp/set combining: 0 none, MD_AND/MD_OR/MD_XOR */
    uint8_t  rnd;       /* enum ptx_rnd */
    uint8_t  mode;      /* enum ptx_mode */
    uint8_t  nops;
    uint8_t  guard_neg; /* @!%p */
    uint8_t  pad;
    uint32_t flags;     /* F_* */
    int32_t  guard;     /* predicate register, -1: unguarded */
    uint32_t line, col; /* PTX source position */
    uint32_t target;    /* bra: resolved pc; after linking */
    ptx_operand ops[PTX_MAX_OPS];
    ptx_call *call;     /* OP_CALL only, before linking */
} ptx_insn;

/* ---- declarations ------------------------------------------------------- */
/* An address in a variable's initializer (`.u64 p = generic(a)+8;`, a
 * vtable's function names, `0xFF00(generic(a))` byte selections): filled in
 * when the module is loaded (ptx_var_init in link.c). */
typedef struct ptx_reloc {
    uint64_t offset;    /* byte offset of the element in init */
    uint64_t mask;      /* 0: the whole address; else the bytes it selects, shifted down */
    int64_t  addend;
    const char *sym;    /* a .global/.const variable or a function */
    uint32_t line, col;
    uint8_t  size;      /* element bytes */
} ptx_reloc;

typedef struct ptx_var {
    const char *name;
    uint8_t  space;     /* SP_GLOBAL, SP_CONST, SP_SHARED, SP_LOCAL, SP_PARAM */
    uint8_t  type;      /* element type */
    uint8_t  is_extern; /* `.extern .shared ... name[]` (dynamic shared) */
    uint8_t  has_init;
    uint8_t  managed;   /* .attribute(.managed): a __managed__ variable */
    uint32_t align;
    uint64_t size;      /* bytes (0 for an unsized extern array) */
    uint8_t *init;      /* `size` bytes when has_init */
    ptx_reloc *relocs; uint32_t nrelocs;   /* addresses inside init */
    uint32_t line;
} ptx_var;

typedef struct ptx_func {
    const char *name;
    bool     is_entry;
    bool     has_body;
    uint32_t line;
    ptx_var *params;  uint32_t nparams;     /* formal parameters */
    ptx_var *rets;    uint32_t nrets;       /* .func return parameters */
    ptx_insn *code;   uint32_t ncode;
    uint8_t  *reg_type; uint32_t nregs;     /* virtual registers */
    const char **reg_name;                  /* for diagnostics */
    ptx_var  *vars;   uint32_t nvars;       /* body .local/.shared/.param */
    uint32_t maxntid[3], reqntid[3], minnctapersm;
} ptx_func;

struct ptx_arena;

typedef struct ptx_module {
    const char *name;          /* file name used in diagnostics */
    uint32_t version_major, version_minor, target_sm, address_size;
    ptx_var  *vars;  uint32_t nvars;      /* module scope */
    ptx_func *funcs; uint32_t nfuncs;
    struct ptx_arena *arena;              /* owns everything above */
} ptx_module;

/* Parse PTX text. On failure returns NULL and writes a message of the form
 * "file:line:col: error: ..." into err (always NUL-terminated). */
ptx_module *ptx_parse(const char *name, const char *text, size_t len,
                      char *err, size_t errlen);
void ptx_module_free(ptx_module *m);

const ptx_func *ptx_find_func(const ptx_module *m, const char *name);
const ptx_var  *ptx_find_var(const ptx_module *m, const char *name);

/* ---- arena (used by the parser and the linker) -------------------------- */
typedef struct ptx_arena ptx_arena;
ptx_arena *ptx_arena_new(void);
void  ptx_arena_free(ptx_arena *a);
void *ptx_arena_alloc(ptx_arena *a, size_t n);            /* zeroed, 16-aligned */
char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t n);

#endif /* SMC_PTX_H */
