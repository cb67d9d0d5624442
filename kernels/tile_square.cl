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
__kernel void dl_square(__global U* buf, ulong base, uint T, uint z, uint B, uint nb, uint pairs,
                        ulong items, __local U* lp, __local U* lq) {
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const ulong tile_units = (ulong)T * T * z;
  const uint row = T * z;  // units of one record (a row of the matrix)
  const dl_div dz = dl_div_make(z);
  for (ulong item = get_group_id(0); item < items; item += get_num_groups(0)) {
    const ulong t = item / pairs;
    uint k = (uint)(item - t * pairs);
    uint bi = 0;
    while (k >= nb - bi) k -= nb - bi++;  // upper triangle, row by row
    const uint bj = bi + k;
    const uint i0 = bi * B, j0 = bj * B;
    const uint hi = min(B, T - i0), hj = min(B, T - j0);
    const uint pw = hj * z, qw = hi * z;  // units of one block row of P and of Q
    const dl_div dp = dl_div_make(pw), dq = dl_div_make(qw);
    __global U* tp = buf + base + t * tile_units;
    __global U* P = tp + i0 * row + j0 * z;  // block (bi, bj): hi runs of pw units
    __global U* Q = tp + j0 * row + i0 * z;  // block (bj, bi): hj runs of qw units
    const uint np = hi * pw;
    for (uint e = lid; e < np; e += lsz) {
      const uint r = dl_udiv(e, dp);
      lp[e] = P[r * row + (e - r * pw)];
    }
    if (bi != bj)
      for (uint e = lid; e < np; e += lsz) {
        const uint c = dl_udiv(e, dq);
        lq[e] = Q[c * row + (e - c * qw)];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
    // P's place takes Q transposed (a diagonal block: P transposed): element (r, c) of
    // the block is element (c, r) of the other, at lq[(c·hi + r)·z + u].
    __local const U* src = bi != bj ? lq : lp;
    for (uint e = lid; e < np; e += lsz) {
      const uint r = dl_udiv(e, dp), w = e - r * pw;
      const uint c = dl_udiv(w, dz), u = w - c * z;
      P[r * row + w] = src[(c * hi + r) * z + u];
    }
    if (bi != bj)  // Q's place takes P transposed
      for (uint e = lid; e < np; e += lsz) {
        const uint c = dl_udiv(e, dq), w = e - c * qw;
        const uint r = dl_udiv(w, dz), u = w - r * z;
        Q[c * row + w] = lp[(r * hj + c) * z + u];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
