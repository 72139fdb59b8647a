/*
 * sched_ports_gen.c -- what is generated from the port and stall-reason
 * tables (cosim/sched_ports.def, cosim/sched_reasons.def).
 *
 *   sched_ports_gen ports W S R D E P   sched_core's ports for one parameter
 *                                       set, one per line: "name input|output
 *                                       width" (tests/sched/ports-check.sh
 *                                       compares this with the RTL)
 *   sched_ports_gen splice FILE         FILE with every generated region
 *                                       rewritten, on stdout
 *   sched_ports_gen stats               the timing model's statistics keys,
 *                                       one per line, in code order
 *
 * A generated region is the lines between a line containing
 * "BEGIN generated:NAME" and one containing "END generated:NAME" (both
 * kept); NAME is one of inputs, outputs, reasons (Markdown tables for
 * docs/sched-interface.md), rtl-reasons (the `define lines of
 * rtl/sched_core.sv), board-bits (the board kernel's token widths,
 * fpga/board/) and board-lane (one core with its ports flattened into
 * tokens, fpga/board/sched_kernel_lane.sv). `make sched-ports-gen` rewrites
 * the files in place.
 */
#include "sched_ports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct port_row {
    const char *name, *dir, *rep, *width, *value, *kind, *doc;
    unsigned per;
    int clock;
} port_row;

static const port_row rows[] = {
#define SCHED_CLOCK_PORT(name, doc) { #name, "IN", "ONE", "1", "", "", doc, 1, 1 },
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc) \
    { #name, #dir, #rep, #width, #value, kind, doc, (per), 0 },
#include "sched_ports.def"
};
#define NUM_ROWS (sizeof rows / sizeof rows[0])

typedef struct reason_row {
    const char *id, *name, *ts, *stat, *doc;
    unsigned code;
} reason_row;

static const reason_row reasons[] = {
#define SCHED_REASON(id, code, name, ts, stat, doc) { #id, name, #ts, stat, doc, code },
#include "sched_reasons.def"
};
#define NUM_REASONS (sizeof reasons / sizeof reasons[0])

_Static_assert(NUM_ROWS == SCHED_NUM_PORTS, "port count");
_Static_assert(NUM_REASONS == SCHED_NUM_REASONS, "reason count");

/* Total width of every port for one parameter set, in table order. */
static void port_widths(const sched_params *p, unsigned w[NUM_ROWS])
{
    SCHED_PORT_PARAMS(p);
    unsigned i = 0;
#define SCHED_CLOCK_PORT(name, doc) w[i++] = 1;
#define SCHED_PORT(name, dir, rep, per, width, ...) w[i++] = SCHED_REP_##rep * (per) * (width);
#include "sched_ports.def"
}

/* The width expression as the docs write it (R for RegIdWidth). */
static const char *doc_expr(const char *e)
{
    return strcmp(e, "RegIdWidth") == 0 ? "R" : e;
}

/* The C field of a table value: "in->push[g].instr.src[k]" -> "push[s].instr.src[i]". */
static void doc_field(const port_row *r, char *out, size_t len)
{
    const char *v = r->value;
    if (strncmp(v, "in->", 4) == 0) v += 4;
    else if (strncmp(v, "o->", 3) == 0) v += 3;
    const char *g = strcmp(r->rep, "WB") == 0 ? "k" : strcmp(r->rep, "WARP") == 0 ? "w" : "s";
    size_t n = 0;
    for (; *v && n + 4 < len; v++) {
        if (v[0] == '[' && (v[1] == 'g' || v[1] == 'k') && v[2] == ']') {
            n += (size_t)snprintf(out + n, len - n, "[%s]", v[1] == 'g' ? g : "i");
            v += 2;
        } else {
            out[n++] = *v;
        }
    }
    out[n] = '\0';
}

/* "push_src_i[(3s+i)*R +: R]" and "3 × R per scheduler" */
static void doc_port(const port_row *r, char *slice, size_t slen, char *width, size_t wlen)
{
    const char *e = doc_expr(r->width);
    const char *g = strcmp(r->rep, "WB") == 0 ? "k" : strcmp(r->rep, "WARP") == 0 ? "w" : "s";
    const char *unit = strcmp(r->rep, "WB") == 0     ? "writeback port"
                       : strcmp(r->rep, "WARP") == 0 ? "warp"
                                                     : "scheduler";
    if (strcmp(r->rep, "ONE") == 0) {
        snprintf(slice, slen, "`%s`", r->name);
        snprintf(width, wlen, "%s", strcmp(e, "NumWarps") == 0 ? "`NumWarps`" : e);
    } else if (r->per == 1) {
        if (strcmp(e, "1") == 0)
            snprintf(slice, slen, "`%s[%s]`", r->name, g);
        else
            snprintf(slice, slen, "`%s[%s*%s +: %s]`", r->name, g, e, e);
        snprintf(width, wlen, "%s per %s", e, unit);
    } else {
        snprintf(slice, slen, "`%s[(%u%s+i)*%s +: %s]`", r->name, r->per, g, e, e);
        snprintf(width, wlen, "%u × %s per %s", r->per, e, unit);
    }
}

static void gen_ports_table(FILE *out, int inputs)
{
    if (inputs)
        fprintf(out, "| RTL port | C field (`sched_inputs`) | width | kind | meaning |\n"
                     "|---|---|---|---|---|\n");
    else
        fprintf(out, "| RTL port | C field (`sched_outputs`) | width | meaning |\n"
                     "|---|---|---|---|\n");
    for (unsigned i = 0; i < NUM_ROWS; i++) {
        const port_row *r = &rows[i];
        if (r->clock || (strcmp(r->dir, "IN") == 0) != inputs) continue;
        char field[96], slice[96], width[64];
        doc_field(r, field, sizeof field);
        doc_port(r, slice, sizeof slice, width, sizeof width);
        if (inputs)
            fprintf(out, "| %s | `%s` | %s | %s | %s |\n", slice, field, width, r->kind, r->doc);
        else
            fprintf(out, "| %s | `%s` | %s | %s |\n", slice, field, width, r->doc);
    }
}

static void gen_reasons_table(FILE *out)
{
    fprintf(out, "| code | `enum sched_reason` | name | statistics key | meaning |\n"
                 "|---|---|---|---|---|\n");
    for (unsigned i = 0; i < NUM_REASONS; i++)
        fprintf(out, "| %u | `SCHED_REASON_%s` | `%s` | `%s` | %s |\n", reasons[i].code,
                reasons[i].id, reasons[i].name, reasons[i].stat, reasons[i].doc);
}

static int gen_rtl_reasons(FILE *out)
{
    /* the codes are as wide as one field of stall_reason_o */
    unsigned bits = 0;
    for (unsigned i = 0; i < NUM_ROWS; i++)
        if (strcmp(rows[i].name, "stall_reason_o") == 0) bits = (unsigned)atoi(rows[i].width);
    if (bits == 0 || (1u << bits) < NUM_REASONS) {
        fprintf(stderr, "sched_ports_gen: stall_reason_o's field (%u bits) cannot hold %u codes\n",
                bits, (unsigned)NUM_REASONS);
        return -1;
    }
    for (unsigned i = 0; i < NUM_REASONS; i++)
        fprintf(out, "`define SCHED_REASON_%-10s %u'd%u  // %s\n", reasons[i].id, bits,
                reasons[i].code, reasons[i].name);
    fprintf(out, "`define SCHED_NUM_REASONS %u\n", (unsigned)NUM_REASONS);
    return 0;
}

/* A port's total width as a Verilog expression in sched_core's parameter
 * names: groups x fields x field width. */
static void rtl_width_expr(const port_row *r, char *out, size_t len)
{
    const char *groups = strcmp(r->rep, "SCHED") == 0 ? "NumSchedulers"
                         : strcmp(r->rep, "WB") == 0  ? "WbPorts"
                         : strcmp(r->rep, "WARP") == 0 ? "NumWarps"
                                                      : NULL;
    if (groups && r->per != 1)
        snprintf(out, len, "%s * %u * (%s)", groups, r->per, r->width);
    else if (groups)
        snprintf(out, len, "%s * (%s)", groups, r->width);
    else if (r->per != 1)
        snprintf(out, len, "%u * (%s)", r->per, r->width);
    else
        snprintf(out, len, "(%s)", r->width);
}

/* The board kernel's token widths (fpga/board/, docs/offload.md "Board
 * kernel"): localparams InBits / OutBits, the sum of the input / output
 * ports' widths, as offload_in_bits() / offload_out_bits() count them. */
static void gen_board_bits(FILE *out)
{
    for (int inputs = 1; inputs >= 0; inputs--) {
        fprintf(out, "  localparam int unsigned %s = 0\n", inputs ? "InBits" : "OutBits");
        for (unsigned i = 0; i < NUM_ROWS; i++) {
            const port_row *r = &rows[i];
            if (r->clock || (strcmp(r->dir, "IN") == 0) != inputs) continue;
            char w[160];
            rtl_width_expr(r, w, sizeof w);
            fprintf(out, "      + %-40s // %s\n", w, r->name);
        }
        fprintf(out, "      ;\n");
    }
}

/* One core with its ports flattened into tokens (fpga/board/
 * sched_kernel_lane.sv): a wire per port, the input token split into them
 * (first port in the low bits, as offload_token.h packs it), the output
 * token their concatenation, and the instance. The lane module provides
 * the parameters, in_token_i, out_token_o, core_clk and core_rst_n. */
static void gen_board_lane(FILE *out)
{
    const char *clk = NULL, *rst = NULL;
    for (unsigned i = 0; i < NUM_ROWS; i++) {
        const port_row *r = &rows[i];
        if (r->clock) {
            if (!clk) clk = r->name; else rst = r->name;
            continue;
        }
        char w[160];
        rtl_width_expr(r, w, sizeof w);
        fprintf(out, "  logic [%s-1:0] %s;\n", w, r->name);
    }
    for (int inputs = 1; inputs >= 0; inputs--) {
        fprintf(out, inputs ? "  assign {\n" : "  assign out_token_o = {\n");
        int first = 1;
        for (unsigned i = NUM_ROWS; i-- > 0;) {   /* last port first: the MSBs */
            const port_row *r = &rows[i];
            if (r->clock || (strcmp(r->dir, "IN") == 0) != inputs) continue;
            fprintf(out, "%s    %s", first ? "" : ",\n", r->name);
            first = 0;
        }
        fprintf(out, inputs ? "\n  } = in_token_i;\n" : "\n  };\n");
    }
    fprintf(out, "  sched_core #(\n"
                 "    .NumWarps(NumWarps), .NumSchedulers(NumSchedulers), .RegIdWidth(RegIdWidth),\n"
                 "    .IbufDepth(IbufDepth), .SbEntries(SbEntries), .WbPorts(WbPorts),\n"
                 "    .RcuDepth(RcuDepth), .RenEntries(RenEntries)\n"
                 "  ) u_core (\n"
                 "    .%s(core_clk),\n"
                 "    .%s(core_rst_n)", clk ? clk : "clk_i", rst ? rst : "rst_ni");
    for (unsigned i = 0; i < NUM_ROWS; i++)
        if (!rows[i].clock)
            fprintf(out, ",\n    .%s(%s)", rows[i].name, rows[i].name);
    fprintf(out, "\n  );\n");
}

static int gen_region(FILE *out, const char *name)
{
    if (strcmp(name, "inputs") == 0) gen_ports_table(out, 1);
    else if (strcmp(name, "outputs") == 0) gen_ports_table(out, 0);
    else if (strcmp(name, "reasons") == 0) gen_reasons_table(out);
    else if (strcmp(name, "rtl-reasons") == 0) return gen_rtl_reasons(out);
    else if (strcmp(name, "board-bits") == 0) gen_board_bits(out);
    else if (strcmp(name, "board-lane") == 0) gen_board_lane(out);
    else {
        fprintf(stderr, "sched_ports_gen: unknown generated region '%s'\n", name);
        return -1;
    }
    return 0;
}

/* The region name after `tag` in line, or NULL. */
static const char *region_of(const char *line, const char *tag, char *name, size_t len)
{
    const char *p = strstr(line, tag);
    if (!p) return NULL;
    p += strlen(tag);
    size_t n = 0;
    while (p[n] && p[n] != ' ' && p[n] != '\n' && n + 1 < len) n++;
    memcpy(name, p, n);
    name[n] = '\0';
    return name;
}

static int splice(const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        return 1;
    }
    char line[4096], name[64], end_name[64];
    int inside = 0, regions = 0;
    unsigned lineno = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        if (inside) {
            if (region_of(line, "END generated:", end_name, sizeof end_name)) {
                if (strcmp(end_name, name) != 0) {
                    fprintf(stderr, "%s:%u: END generated:%s inside region %s\n", path, lineno,
                            end_name, name);
                    fclose(in);
                    return 1;
                }
                inside = 0;
                fputs(line, stdout);
            }
            continue;
        }
        fputs(line, stdout);
        if (region_of(line, "BEGIN generated:", name, sizeof name)) {
            if (gen_region(stdout, name) != 0) {
                fclose(in);
                return 1;
            }
            inside = 1;
            regions++;
        }
    }
    fclose(in);
    if (inside) {
        fprintf(stderr, "%s: region %s has no END line\n", path, name);
        return 1;
    }
    if (regions == 0) {
        fprintf(stderr, "%s: no generated region\n", path);
        return 1;
    }
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: sched_ports_gen ports W S R D E P C N | splice FILE | stats\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage();
    for (unsigned i = 0; i < NUM_REASONS; i++)
        if (reasons[i].code != i) {
            fprintf(stderr, "sched_reasons.def: line %u has code %u (codes go 0, 1, ... in order)\n",
                    i, reasons[i].code);
            return 1;
        }
    if (strcmp(argv[1], "ports") == 0 && argc == 10) {
        sched_params p = { 0 };
        unsigned *f[8] = { &p.num_warps, &p.num_schedulers, &p.reg_id_width, &p.ibuf_depth,
                           &p.sb_entries, &p.wb_ports, &p.rcu_depth, &p.ren_entries };
        for (int i = 0; i < 8; i++) *f[i] = (unsigned)strtoul(argv[2 + i], NULL, 10);
        char err[256];
        if (sched_params_check(&p, err, sizeof err) != 0) {
            fprintf(stderr, "sched_ports_gen: %s\n", err);
            return 1;
        }
        unsigned w[NUM_ROWS];
        port_widths(&p, w);
        for (unsigned i = 0; i < NUM_ROWS; i++)
            printf("%s %s %u\n", rows[i].name, strcmp(rows[i].dir, "IN") == 0 ? "input" : "output",
                   w[i]);
        return 0;
    }
    if (strcmp(argv[1], "splice") == 0 && argc == 3) return splice(argv[2]);
    if (strcmp(argv[1], "stats") == 0 && argc == 2) {
        for (unsigned i = 0; i < NUM_REASONS; i++) printf("%s\n", reasons[i].stat);
        return 0;
    }
    return usage();
}
