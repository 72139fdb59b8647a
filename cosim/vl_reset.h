// vl_reset.h -- the asynchronous reset of a Verilated model, shared by the
// shims (vsched_shim.cpp, vdlc_shim.cpp).
#ifndef SMCOSIM_VL_RESET_H
#define SMCOSIM_VL_RESET_H

// The RTL's reset is asynchronous (negedge rst_ni): a fresh model starts
// with rst_ni 0, where lowering it is no edge and resets nothing, so raise
// it first (no clock edge: changes no state), then lower and raise it.
template <class M>
void vl_async_reset(M *m)
{
    m->rst_ni = 1;
    m->eval();
    m->rst_ni = 0;
    m->eval();
    m->rst_ni = 1;
    m->eval();
}

#endif
