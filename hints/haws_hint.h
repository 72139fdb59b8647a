/*
 * haws_hint.h — the HAWS hint word: one 24-bit word per instruction (pc),
 * shared by the hint pass (hints/), the emulator, the timing model and the
 * scheduler core's C model. rtl/ decodes the same bits (docs/haws.md,
 * "Hint word"; ../shared/design/haws-locality.md C.3).
 *
 * The thesis (seed 000 §5.3.1, Fig. 5.4) gives two formats:
 *   format 1 (non-branch): target offset 9 bits, rename bit, Dst;
 *   format 2 (branch): type bit (0 conditional, 1 direct) and two target
 *            offsets of 11 bits ("two more bits than ... format 1").
 * Its widths need more than the 16 bits the core first reserved, so the
 * field is 24 bits; bit 23 says which format:
 *
 *   format 1, bit 23 = 0:
 *     [8:0]   signed offset of the NEXT chain member from the stall point,
 *             in PTX instructions (0 = end of chain)
 *     [9]     rename: this instruction writes the renamed register Dst
 *     [17:10] Dst: renamed register id when rename = 1, else the original
 *             destination id (or 0)
 *     [22:18] 0
 *   format 2, bit 23 = 1:
 *     [0]     type: 0 conditional branch, 1 direct branch
 *     [11:1]  signed offset (from the stall point) on the taken side
 *     [22:12] signed offset on the fall-through side (unused when direct)
 *
 * Every other pc carries 0. The stall point's word is format 1 with
 * rename = 0 and the offset of the first member (the entry hint). Every
 * member lies within [-256, 255] of its stall point, so the RCU's 9-bit
 * offset field (§5.3.3, Fig. 5.6) holds any member, format-2 targets too.
 */
#ifndef SMCOSIM_HAWS_HINT_H
#define SMCOSIM_HAWS_HINT_H

#include <stdint.h>

#define HAWS_HINT_BITS      24u
#define HAWS_HINT_MASK      0xFFFFFFu
#define HAWS_OFFSET_MIN     (-256)      /* 9-bit signed (format 1, RCU offset) */
#define HAWS_OFFSET_MAX     255
#define HAWS_RCU_DEPTH      8u          /* §5.3.3: 8 entries per warp */
#define HAWS_RENAME_ENTRIES 8u          /* §5.3.6: 8 x 16-bit renaming table */
#define HAWS_POOL_REGS      8u          /* renamed ids: [base, base + 8) */

static inline int haws_sext(uint32_t v, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    v &= (1u << bits) - 1u;
    return (int)(v ^ m) - (int)m;
}

static inline unsigned haws_hint_is_branch(uint32_t h) { return (h >> 23) & 1u; }

/* Format 1. */
static inline int      haws_hint_offset(uint32_t h) { return haws_sext(h, 9); }
static inline unsigned haws_hint_rename(uint32_t h) { return (h >> 9) & 1u; }
static inline unsigned haws_hint_dst(uint32_t h)    { return (h >> 10) & 0xFFu; }
static inline uint32_t haws_hint_f1(int offset, unsigned rename, unsigned dst)
{
    return ((uint32_t)offset & 0x1FFu) | ((rename & 1u) << 9) | ((dst & 0xFFu) << 10);
}

/* Format 2. */
static inline unsigned haws_hint_direct(uint32_t h)  { return h & 1u; }
static inline int      haws_hint_taken(uint32_t h)   { return haws_sext(h >> 1, 11); }
static inline int      haws_hint_fallthru(uint32_t h) { return haws_sext(h >> 12, 11); }
static inline uint32_t haws_hint_f2(unsigned direct, int taken, int fallthru)
{
    return (1u << 23) | (direct & 1u) | (((uint32_t)taken & 0x7FFu) << 1) |
           (((uint32_t)fallthru & 0x7FFu) << 12);
}

/* The first renamed id: registers per thread rounded up to even (a renamed
 * 64-bit value takes an aligned pair), so the pool is the registers the
 * allocator left free just above the kernel's own (§5.3.1, Fig. 5.5). */
static inline unsigned haws_pool_base(unsigned regs_per_thread) { return (regs_per_thread + 1u) & ~1u; }

#endif
