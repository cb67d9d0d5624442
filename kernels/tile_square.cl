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

__kernel void dl_square(__global U* buf, ulong base, uint T, uint z, uint B, uint nb, uint pairs,
                        ulong items, uint X, __local U* lp, __local U* lq) {
  const uint lid = get_local_id(0);
  const uint x = lid % X, y = lid / X, Y = get_local_size(0) / X;
  const ulong tile_units = (ulong)T * T * z;
  const uint row = T * z;  // units of one record (a row of the matrix)
  const dl_div dz = dl_div_make(z);
  const uint sp = dl_square_stride(B * z, z);  // local row stride of both blocks
  for (ulong item = get_group_id(0); item < items; item += get_num_groups(0)) {
    const ulong t = item / pairs;
    uint k = (uint)(item - t * pairs);
    uint bi = 0;
    while (k >= nb - bi) k -= nb - bi++;  // upper triangle, row by row
    const uint bj = bi + k;
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
