// DL marshaling kernels: AoS <-> ASTA(T) in place for square tiles (dl::Algorithm::Square),
// records of T slots of z units each: inside a tile, slot j of record i (element (i, j) of
// a T x T matrix of z-unit elements) and element (j, i) trade places. That is the swap of
// two dimensions of equal extent (a row of z units is one element) and the 2-D transpose
// of a square matrix; the permutation is its own inverse, so one kernel serves both ways.
//
// The matrix is cut into B x B blocks of elements. A work-group takes a pair of blocks
// (bi, bj), bi <= bj: it reads both into local memory (their element runs of B·z units
// coalesced), barriers, and writes each transposed into the other's place (a diagonal
// block into its own). Every byte is read once and written once; blocks of different
// pairs are disjoint, so there is no race and no scratch. Positions inside a tile are
// 32-bit (the planner keeps T·T·z below 2^31); groups stride over (tile, pair) items.
//
// The group is X lanes by Y rows (X = 32 where the group allows): lanes walk the units of
// a block row, rows walk the block's rows, so the loops need no division per unit (one per
// X units of the transposed writes, shared by the rows). Local rows of units are B·z units
// padded to a stride congruent to z modulo 32 (z < 32), so the 32 lanes that write one
// global row read 32 distinct local banks from the other block's columns.
inline uint dl_square_stride(uint units, uint z) {
  return z < 32 ? units + ((z - units) & 31u) : units;
}

// Item `item` of the (tile, block pair) items: tile t, blocks (bi, bj), bi <= bj, of nb
// blocks per side (`pairs` = nb (nb + 1) / 2 per tile), the upper triangle row by row.
inline void dl_square_pair(ulong item, uint pairs, uint nb, ulong* t, uint* bi, uint* bj) {
  *t = item / pairs;
  uint k = (uint)(item - *t * pairs), i = 0;
  while (k >= nb - i) k -= nb - i++;
  *bi = i;
  *bj = i + k;
}

__kernel void dl_square(__global U* buf, ulong base, uint T, uint z, uint B, uint nb, uint pairs,
                        ulong items, uint X, __local U* lp, __local U* lq) {
  const uint lid = get_local_id(0);
  const uint x = lid % X, y = lid / X, Y = get_local_size(0) / X;
  const ulong tile_units = (ulong)T * T * z;
  const uint row = T * z;  // units of one record (a row of the matrix)
  const dl_div dz = dl_div_make(z);
  const uint sp = dl_square_stride(B * z, z);  // local row stride of both blocks
  for (ulong item = get_group_id(0); item < items; item += get_num_groups(0)) {
    ulong t;
    uint bi, bj;
    dl_square_pair(item, pairs, nb, &t, &bi, &bj);
    const uint i0 = bi * B, j0 = bj * B;
    const uint hi = min(B, T - i0), hj = min(B, T - j0);
    const uint pw = hj * z, qw = hi * z;  // units of one block row of P and of Q
    __global U* tp = buf + base + t * tile_units;
    __global U* P = tp + i0 * row + j0 * z;  // block (bi, bj): hi runs of pw units
    __global U* Q = tp + j0 * row + i0 * z;  // block (bj, bi): hj runs of qw units
    for (uint r = y; r < hi; r += Y)
      for (uint w = x; w < pw; w += X) lp[r * sp + w] = P[r * row + w];
    if (bi != bj)
      for (uint c = y; c < hj; c += Y)
        for (uint w = x; w < qw; w += X) lq[c * sp + w] = Q[c * row + w];
    barrier(CLK_LOCAL_MEM_FENCE);
    // P's place takes Q transposed (a diagonal block: P transposed): unit u of element
    // (r, c) of the block is unit u of element (c, r) of the other, at lq[c·sp + r·z + u].
    __local const U* src = bi != bj ? lq : lp;
    for (uint w = x; w < pw; w += X) {
      const uint c = dl_udiv(w, dz);
      __local const U* s = src + c * sp + (w - c * z);
      for (uint r = y; r < hi; r += Y) P[r * row + w] = s[r * z];
    }
    if (bi != bj)  // Q's place takes P transposed
      for (uint w = x; w < qw; w += X) {
        const uint r = dl_udiv(w, dz);
        __local const U* s = lp + r * sp + (w - r * z);
        for (uint c = y; c < hj; c += Y) Q[c * row + w] = s[c * z];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// dl_square1: the same permutation where an element is one unit (z = 1: a square matrix
// of units, e.g. the transpose of float planes), in blocks of DL_SQ_B x DL_SQ_B units with
// every load of a pair issued before any is written to local memory: each of the 128
// work-items has 2 x DL_SQ_PER loads in flight, where dl_square has one (on the H200,
// 1 GiB of floats: 0.85-0.95 of copy against 0.53). Work-item (tx, ty) =
// (lid % B, lid / B) takes column tx of rows ty, ty + RY, ... of both blocks. An element
// outside the tile's edge loads the block's first unit instead (no branch around the
// load) and is never stored. One group per (tile, pair) item, looping where there are
// more items than groups. `lp`, `lq`: B x (B + 1) units each. Launched with 128
// work-items per group.
#if DL_UNIT_BYTES >= 8
#define DL_SQ_B 32
#else
#define DL_SQ_B 64
#endif
#define DL_SQ_WI 128
#define DL_SQ_RY (DL_SQ_WI / DL_SQ_B)
#define DL_SQ_PER (DL_SQ_B / DL_SQ_RY)
#ifdef cl_nv_pragma_unroll
#define DL_SQ_UNROLL _Pragma("unroll")
#else
#define DL_SQ_UNROLL
#endif
__kernel __attribute__((reqd_work_group_size(DL_SQ_WI, 1, 1))) void dl_square1(
    __global U* buf, ulong base, uint T, uint nb, uint pairs, ulong items, __local U* lp,
    __local U* lq) {
  const uint B = DL_SQ_B, pitch = DL_SQ_B + 1;
  const uint lid = get_local_id(0), tx = lid % B, ty = lid / B;
  const ulong tile_units = (ulong)T * T;
  for (ulong item = get_group_id(0); item < items; item += get_num_groups(0)) {
    ulong t;
    uint bi, bj;
    dl_square_pair(item, pairs, nb, &t, &bi, &bj);
    const uint i0 = bi * B, j0 = bj * B;
    const uint hi = min(B, T - i0), hj = min(B, T - j0);
    const bool two = bi != bj;
    __global U* tp = buf + base + t * tile_units;
    __global U* P = tp + i0 * T + j0;  // block (bi, bj): hi rows of hj units
    __global U* Q = tp + j0 * T + i0;  // block (bj, bi): hj rows of hi units
    U p[DL_SQ_PER], q[DL_SQ_PER];
    DL_SQ_UNROLL for (uint n = 0; n < DL_SQ_PER; ++n) {
      const uint r = ty + n * DL_SQ_RY;
      p[n] = P[r < hi && tx < hj ? r * T + tx : 0];
    }
    if (two)
      DL_SQ_UNROLL for (uint n = 0; n < DL_SQ_PER; ++n) {
        const uint c = ty + n * DL_SQ_RY;
        q[n] = Q[c < hj && tx < hi ? c * T + tx : 0];
      }
    for (uint n = 0; n < DL_SQ_PER; ++n) lp[(ty + n * DL_SQ_RY) * pitch + tx] = p[n];
    if (two)
      for (uint n = 0; n < DL_SQ_PER; ++n) lq[(ty + n * DL_SQ_RY) * pitch + tx] = q[n];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Element (r, tx) of P's place is element (tx, r) of Q (of P itself on the diagonal).
    __local const U* src = two ? lq : lp;
    for (uint n = 0; n < DL_SQ_PER; ++n) {
      const uint r = ty + n * DL_SQ_RY;
      if (r < hi && tx < hj) P[r * T + tx] = src[tx * pitch + r];
    }
    if (two)
      for (uint n = 0; n < DL_SQ_PER; ++n) {
        const uint c = ty + n * DL_SQ_RY;
        if (c < hj && tx < hi) Q[c * T + tx] = lp[tx * pitch + c];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// dl_square_batched: the same for elements of z = 2^lz units, z >= 2, with the loads
// batched as in dl_square1: blocks of B x B elements holding B·B·z = DL_SQ_UNITS units (or
// half that, where DL_SQ_UNITS / z is not a square), so that each of the 128 work-items
// holds up to 2 x DL_SQ_UNITS / 128 units of the pair in registers. A block is walked as
// B rows of BU = B·z units (a power of two, at least 32): position f = lid + 128 n is unit
// f % BU of row f / BU, every walk shifts and masks. Local rows are BU units padded to a
// stride congruent to z modulo 32 (z < 32), as in dl_square. On the H200 (1 GiB): 0.87-0.99
// of copy where dl_square ran 0.83-0.91. For z = 1 the same code ran at half dl_square1's
// speed (not examined further), so one-unit elements keep dl_square1. `lp`, `lq`: B padded
// rows each. Launched with 128 work-items per group.
#if DL_UNIT_BYTES >= 8
#define DL_SQ_UNITS 1024
#else
#define DL_SQ_UNITS 4096
#endif
#define DL_SQB_PER (DL_SQ_UNITS / DL_SQ_WI)
__kernel __attribute__((reqd_work_group_size(DL_SQ_WI, 1, 1))) void dl_square_batched(
    __global U* buf, ulong base, uint T, uint nb, uint pairs, ulong items, uint lz, uint B,
    uint lbu, __local U* lp, __local U* lq) {
  const uint lid = get_local_id(0), z = 1u << lz, bu = 1u << lbu;
  const uint per = (B << lbu) / DL_SQ_WI;  // units of one block per work-item
  const uint row = T << lz;                 // units of one row of the tile
  const uint sp = dl_square_stride(bu, z);
  const ulong tile_units = (ulong)T * row;
  for (ulong item = get_group_id(0); item < items; item += get_num_groups(0)) {
    ulong t;
    uint bi, bj;
    dl_square_pair(item, pairs, nb, &t, &bi, &bj);
    const uint i0 = bi * B, j0 = bj * B;
    const uint hi = min(B, T - i0), hj = min(B, T - j0);
    const uint pw = hj << lz, qw = hi << lz;  // units of one block row of P and of Q
    const bool two = bi != bj;
    __global U* tp = buf + base + t * tile_units;
    __global U* P = tp + i0 * row + (j0 << lz);  // block (bi, bj): hi rows of pw units
    __global U* Q = tp + j0 * row + (i0 << lz);  // block (bj, bi): hj rows of qw units
    U p[DL_SQB_PER], q[DL_SQB_PER];
    DL_SQ_UNROLL for (uint n = 0; n < DL_SQB_PER; ++n) {
      const uint f = lid + n * DL_SQ_WI, r = f >> lbu, w = f & (bu - 1);
      if (n < per) p[n] = P[r < hi && w < pw ? r * row + w : 0];
    }
    if (two)
      DL_SQ_UNROLL for (uint n = 0; n < DL_SQB_PER; ++n) {
        const uint f = lid + n * DL_SQ_WI, c = f >> lbu, w = f & (bu - 1);
        if (n < per) q[n] = Q[c < hj && w < qw ? c * row + w : 0];
      }
    DL_SQ_UNROLL for (uint n = 0; n < DL_SQB_PER; ++n) {
      const uint f = lid + n * DL_SQ_WI;
      if (n < per) lp[(f >> lbu) * sp + (f & (bu - 1))] = p[n];
    }
    if (two)
      DL_SQ_UNROLL for (uint n = 0; n < DL_SQB_PER; ++n) {
        const uint f = lid + n * DL_SQ_WI;
        if (n < per) lq[(f >> lbu) * sp + (f & (bu - 1))] = q[n];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Unit u of element (r, c) of P's place is unit u of element (c, r) of Q (of P itself
    // on the diagonal): at src[c·sp + r·z + u]; and the other way round for Q's place.
    __local const U* src = two ? lq : lp;
    for (uint n = 0; n < per; ++n) {
      const uint f = lid + n * DL_SQ_WI, r = f >> lbu, w = f & (bu - 1), c = w >> lz;
      if (r < hi && w < pw) P[r * row + w] = src[c * sp + (r << lz) + (w & (z - 1))];
    }
    if (two)
      for (uint n = 0; n < per; ++n) {
        const uint f = lid + n * DL_SQ_WI, c = f >> lbu, w = f & (bu - 1), r = w >> lz;
        if (c < hj && w < qw) Q[c * row + w] = lp[r * sp + (c << lz) + (w & (z - 1))];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
