/*
 * trace.h — reading Accel-Sim traces (the NVBit tracer's text format,
 * accel-sim-framework util/tracer_nvbit/; docs/traces.md has the format as
 * implemented here).
 *
 *   kernelslist.g      the commands of a run, in order: "MemcpyHtoD,ADDR,BYTES"
 *                      lines and kernel trace file names (relative to the list)
 *   kernel-N.traceg    one kernel: a header of "-key = value" lines, then
 *   (or .traceg.xz)    thread blocks, "#BEGIN_TB" ... "#END_TB", each with
 *                      "thread block = X,Y,Z" and per warp "warp = W",
 *                      "insts = N" and N instruction lines
 *
 * Files are streamed line by line (plain, or xz through liblzma); a kernel is
 * read one thread block at a time. Every error message names the file, the
 * line and the field.
 */
#ifndef SMC_TRACE_H
#define SMC_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_WARP_SIZE 32
#define TRACE_MAX_REGS  32          /* destination / source registers per line */
#define TRACE_RZ        255         /* SASS's zero register: no dependency */

/* ---- line reader --------------------------------------------------------- */

typedef struct trace_file trace_file;

/* Open a plain file, or an xz-compressed one (name ending in .xz). NULL with
 * a message. */
trace_file *trace_file_open(const char *path, char *err, size_t errlen);
/* The next line (no newline, NUL-terminated, valid until the next call):
 * 1, 0 at the end, -1 with a message (read or decompression error). */
int         trace_file_line(trace_file *f, const char **line, char *err, size_t errlen);
uint64_t    trace_file_lineno(const trace_file *f);   /* of the last line returned */
/* The next trace_file_line returns the last line again. */
void        trace_file_unread(trace_file *f);
const char *trace_file_path(const trace_file *f);
void        trace_file_close(trace_file *f);

/* ---- kernelslist.g -------------------------------------------------------- */

enum trace_cmd_kind { TRACE_CMD_MEMCPY_HTOD, TRACE_CMD_KERNEL };

typedef struct trace_cmd {
    int      kind;                  /* enum trace_cmd_kind */
    uint64_t addr, bytes;           /* MemcpyHtoD */
    char    *path;                  /* kernel: the trace file, list's folder prepended */
    uint32_t line;                  /* in the list */
} trace_cmd;

typedef struct trace_list {
    trace_cmd *cmd;
    uint32_t   n;
    uint32_t   nkernels;
} trace_list;

/* Read a kernelslist.g. Lines: empty (ignored), "MemcpyHtoD,0xADDR,BYTES",
 * "MemcpyDtoH,..." (ignored, as Accel-Sim does), or a kernel trace file name
 * (kernel-N.traceg or .traceg.xz). 0, or -1 with a message naming file and line. */
int  trace_list_load(const char *path, trace_list *out, char *err, size_t errlen);
void trace_list_free(trace_list *l);

/* ---- one kernel's trace ---------------------------------------------------- */

typedef struct trace_header {
    char    *name;                  /* -kernel name */
    uint32_t kernel_id;             /* -kernel id */
    uint32_t grid[3], block[3];     /* -grid dim = (x,y,z), -block dim */
    uint32_t shmem;                 /* -shmem (bytes per CTA) */
    uint32_t nregs;                 /* -nregs (per thread) */
    uint32_t binary_version;        /* -binary version (SM: 61 = sm_61) */
    uint32_t tracer_version;        /* -accelsim tracer version (3..5) */
    uint64_t stream_id;             /* -cuda stream id */
    uint64_t shmem_base, local_base;/* -shmem base_addr, -local mem base_addr */
    uint32_t lineinfo;              /* -enable lineinfo: a source line leads each inst */
    char     nvbit_version[32];
} trace_header;

/* Address-compression modes of a memory instruction line (the tracer's
 * address_format). */
enum trace_addr_mode { TRACE_ADDR_LIST = 0, TRACE_ADDR_STRIDE = 1, TRACE_ADDR_DELTA = 2 };

/* One instruction line, parsed. */
typedef struct trace_inst {
    uint64_t pc;
    uint32_t mask;                  /* lanes that executed it (active and guard true) */
    uint32_t src_line;              /* with lineinfo */
    uint8_t  ndst, nsrc;
    uint16_t dst[TRACE_MAX_REGS], src[TRACE_MAX_REGS];   /* register numbers (R<n>) */
    char     opcode[64];            /* full, e.g. "LDG.E.CG" */
    uint32_t mem_width;             /* bytes per lane, 0 = not a memory instruction */
    uint8_t  addr_mode;             /* enum trace_addr_mode (memory instructions) */
    uint64_t addr[TRACE_WARP_SIZE]; /* per lane; 0 for lanes not in mask */
} trace_inst;

/* Parse one instruction line (format of tracer version 3..5, with a leading
 * source line number when lineinfo). 0, or -1 with a message naming the
 * field (the caller adds file and line). */
int trace_parse_inst(const char *line, uint32_t lineinfo, trace_inst *out,
                     char *err, size_t errlen);

/* The static part of an instruction: the same at every execution of its pc
 * (a kernel's trace must agree; a pc seen with a different opcode or
 * registers is an error). Kept per kernel, numbered in order of first
 * appearance. */
typedef struct trace_static {
    uint64_t pc;
    char     opcode[64];
    uint8_t  ndst, nsrc;
    uint16_t dst[TRACE_MAX_REGS], src[TRACE_MAX_REGS];
    uint32_t mem_width;
    uint32_t line;                  /* file line of its first appearance */
} trace_static;

/* One executed warp-instruction. */
typedef struct trace_dyn {
    uint32_t sidx;                  /* its trace_static */
    uint32_t mask;                  /* lanes that executed it */
    uint32_t addr;                  /* memory: index of 32 addresses in trace_tb.addr;
                                       UINT32_MAX otherwise */
    uint32_t line;                  /* file line */
} trace_dyn;

/* A thread block as read: every warp's instructions. */
typedef struct trace_tb {
    uint32_t   id[3];
    uint32_t   nwarps;              /* warp slots (block size / 32, rounded up) */
    uint32_t  *ninst;               /* [nwarps] (0 for a warp the trace lacks) */
    trace_dyn **inst;               /* [nwarps][ninst[w]] */
    uint64_t  *addr;                /* address pool, 32 per memory instruction */
    uint32_t   naddr, capaddr;
    uint64_t   total;               /* instructions in the block */
} trace_tb;
void trace_tb_free(trace_tb *tb);

typedef struct trace_kernel trace_kernel;

/* Open a kernel trace and read its header (up to the first "#" line). NULL
 * with a message. */
trace_kernel *trace_kernel_open(const char *path, char *err, size_t errlen);
const trace_header *trace_kernel_header(const trace_kernel *k);
const char *trace_kernel_path(const trace_kernel *k);
/* The next thread block (tb is overwritten; free it with trace_tb_free): 1,
 * 0 at the end of the file, -1 with a message. */
int  trace_kernel_next_tb(trace_kernel *k, trace_tb *tb, char *err, size_t errlen);
/* The kernel's static instructions seen so far (indices stay valid). */
uint32_t trace_kernel_nstatic(const trace_kernel *k);
const trace_static *trace_kernel_static(const trace_kernel *k, uint32_t i);
void trace_kernel_close(trace_kernel *k);

#endif
