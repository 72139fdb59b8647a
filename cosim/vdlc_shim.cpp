// vdlc_shim.cpp -- the thin C++ layer between C and the Verilated DLC
// (rtl/macu_dlc.sv built once as class Vdlc with DlcEntries = 64 and four
// schedulers' read ports, cosim/module.mk; the entries in use are its
// entries_i input). C code uses dlc_open() (cosim/dlc.c), which finds these
// functions through vdlc_api_get().
//
// The DLC's registers change only at a rising edge with fill_i or clear_i,
// so the shim makes an edge exactly when there is one to write; a lookup
// sets its port's pc and evaluates the combinational read logic.

#include "dlc.h"

#include <cstdio>
#include <memory>

#include "verilated.h"
#include "Vdlc.h"
#include "vl_reset.h"

struct vdlc {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vdlc> m;
};

namespace {

constexpr unsigned kPcWidth = 32;

void edge(Vdlc *m)
{
    m->clk_i = 1;
    m->eval();
    m->clk_i = 0;
    m->fill_i = 0;
    m->clear_i = 0;
    m->eval();
}

vdlc *create(unsigned entries, char *err, size_t errlen)
{
    if (entries < 1 || entries > DLC_MAX_ENTRIES) {
        std::snprintf(err, errlen, "DLC RTL: %u entries (1..%d)", entries, DLC_MAX_ENTRIES);
        return nullptr;
    }
    vdlc *v = new vdlc;
    v->ctx.reset(new VerilatedContext);
    v->ctx->fatalOnError(false);
    v->m.reset(new Vdlc(v->ctx.get(), "dlc"));
    Vdlc *m = v->m.get();
    m->entries_i = entries;
    m->clk_i = 0;
    m->fill_i = 0;
    m->clear_i = 0;
    vl_async_reset(m);
    return v;
}

void destroy(vdlc *v)
{
    if (v) v->m->final();
    delete v;
}

void clear(vdlc *v)
{
    v->m->clear_i = 1;
    edge(v->m.get());
}

void fill(vdlc *v, uint32_t pc, unsigned acc, unsigned sets)
{
    Vdlc *m = v->m.get();
    m->fill_i = 1;
    m->fill_pc_i = pc;
    m->fill_acc_i = acc > DLC_FILL_MAX ? DLC_FILL_MAX : acc;
    m->fill_sets_i = sets > DLC_FILL_MAX ? DLC_FILL_MAX : sets;
    edge(m);
}

int lookup(vdlc *v, unsigned port, uint32_t pc, int *assoc)
{
    Vdlc *m = v->m.get();
    if (port >= DLC_MAX_PORTS) port = 0;
    static_assert(kPcWidth == 32, "one 32-bit word per read port");
    m->look_pc_i[port] = pc;
    m->eval();
    if (assoc) *assoc = (m->look_assoc_o >> port) & 1;
    return (m->look_hit_o >> port) & 1;
}

unsigned count(vdlc *v)
{
    return v->m->count_o;
}

const vdlc_api api = { create, destroy, clear, fill, lookup, count };

} // namespace

extern "C" const vdlc_api *vdlc_api_get(void)
{
    return &api;
}
