// DL marshaling kernels: the index functions of include/dl/cycles.hpp, on the device.
//
// Build options: -DDL_UNIT_BYTES=1|2|4|8|16 picks the unit type U every kernel moves.
// A record is ru units; the slot table `st` holds, per unit q, (slot start << 16) | slot
// size in units (dl::SlotTable::packed()). `uni` != 0 says every slot is one unit (a
// plain transpose: the fast path that skips the table).
#ifndef DL_UNIT_BYTES
#define DL_UNIT_BYTES 4
#endif
#if DL_UNIT_BYTES == 1
typedef uchar U;
#elif DL_UNIT_BYTES == 2
typedef ushort U;
#elif DL_UNIT_BYTES == 4
typedef uint U;
#elif DL_UNIT_BYTES == 8
typedef uint2 U;
#elif DL_UNIT_BYTES == 16
typedef uint4 U;
#else
#error "DL_UNIT_BYTES must be 1, 2, 4, 8 or 16"
#endif
// Units per 16-byte vector (wide loads and stores).
#define DL_V (16 / DL_UNIT_BYTES)
typedef union {
  U u[DL_V];
  uint4 v;
} dl_vec;

// Address space of the slot table: kernel arguments (__global) in DL's library; a
// program-scope __constant table in the per-record programs of marshal_program_source().
#ifndef DL_ST_SPACE
#define DL_ST_SPACE __global
#endif

#define DL_START(st, q) ((st)[q] >> 16)
#define DL_SIZE(st, q) ((st)[q] & 0xffffu)

// Division by a run-time divisor d as a multiply-high by m = ceil(2^32 / d), which gives
// floor(x / d) or one more (x < 2^31); one multiply-compare corrects it.
typedef struct {
  uint d, m;
} dl_div;
inline dl_div dl_div_make(uint d) {
  dl_div r;
  r.d = d;
  r.m = d > 1 ? 0xffffffffu / d + 1u : 0u;
  return r;
}
inline uint dl_udiv(uint x, dl_div v) {
  if (v.d == 1) return x;
  const uint q = mul_hi(x, v.m);
  return q * v.d > x ? q - 1 : q;
}

// The permutation of a [rows][w] <-> [w][rows] block of units with 32-bit positions and
// reciprocal divisions (dw = dl_div_make(w), dru = dl_div_make(ru)), rows given by the
// slot table (a slot of z units is z rows). dir 0: position p of the [q][w] form (ASTA(w)
// inside one tile; DA over np = w minitiles) -> the [w][q] form (AoS); dir 1: inverse.
// Used by the barrier-sync gather, PttwacInstance's chunks and minitile cycles, and
// Segmented's next() (dl::asta_to_aos_unit / dl::da_to_asta_tile on the host).
inline uint dl_tile_perm32(uint p, uint w, dl_div dw, uint ru, dl_div dru, uint dir, uint uni,
                           DL_ST_SPACE const uint* st) {
  if (dir == 0) {
    const uint q = dl_udiv(p, dw);
    if (uni) return (p - q * w) * ru + q;
    const uint o = DL_START(st, q);
    const uint z = DL_SIZE(st, q);
    const uint r = p - w * o;
    const uint k = r / z;
    return k * ru + o + (r - k * z);
  }
  const uint k = dl_udiv(p, dru);
  const uint q = p - k * ru;
  if (uni) return q * w + k;
  const uint o = DL_START(st, q);
  return w * o + k * DL_SIZE(st, q) + (q - o);
}

// The same permutation with 64-bit positions, for whole buffers (w up to n): dir 0 is
// dl::asta_to_aos_unit and dl::da_to_asta_tile (w = np), dir 1 their inverses.
inline ulong dl_tile_perm64(ulong p, ulong w, uint ru, uint dir, uint uni,
                            DL_ST_SPACE const uint* st) {
  if (dir == 0) {
    const uint q = (uint)(p / w);
    if (uni) return (p - (ulong)q * w) * ru + q;
    const uint o = DL_START(st, q);
    const uint z = DL_SIZE(st, q);
    const ulong r = p - w * o;
    const ulong k = r / z;
    return k * ru + o + (r - k * z);
  }
  const ulong k = p / ru;
  const uint q = (uint)(p - k * ru);
  if (uni) return (ulong)q * w + k;
  const uint o = DL_START(st, q);
  return w * o + k * DL_SIZE(st, q) + (q - o);
}

// Unit position of unit q of record i in a buffer of n records tiled with width W
// (dl::tiled_offset in units): AoS is W = 1, DA is W = n.
inline ulong dl_tiled_unit(ulong W, ulong n, uint ru, ulong i, uint q, uint uni,
                           DL_ST_SPACE const uint* st) {
  const ulong base = (i / W) * W;
  const ulong w = min(n - base, W);
  if (uni) return base * ru + w * q + (i - base);
  const uint o = DL_START(st, q);
  return base * ru + w * o + (i - base) * DL_SIZE(st, q) + (q - o);
}

// Inverse: unit position p of a W-tiled buffer -> AoS unit position i * ru + q.
inline ulong dl_tiled_to_aos(ulong W, ulong n, uint ru, ulong p, uint uni,
                             DL_ST_SPACE const uint* st) {
  const ulong tile = p / (W * ru);
  const ulong base = tile * W;
  const ulong w = min(n - base, W);
  return base * ru + dl_tile_perm64(p - base * ru, w, ru, 0, uni, st);
}
