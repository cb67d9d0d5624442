// DL marshaling kernels: AoS <-> ASTA(T) (or DA, T = n), or AoS <-> SWAP(T, M), out of
// place, from one buffer into another, where a record is M x D slots of one size (z units;
// M = 1 but for SWAP): inside each tile of w records (T, the last n - t·T), for each b < M,
// the w x D matrix of z-unit elements (slots b·D .. b·D + D - 1 of each record) becomes its
// D x w transpose, stored at rows c·M + b of the tile's D·M rows of w elements. That is the
// transpose of a matrix of any shape, a swap of two dimensions (a row of z units is one
// element; with M > 1 two dimensions with M others between them), batched over the tiles
// and b. dir 0: src AoS, dst tiled; dir 1: src tiled, dst AoS. Every unit is read once and
// written once, both coalesced: a work-group takes a B x B block of elements of a source
// matrix into local memory and writes it transposed. Positions inside a tile are 32-bit
// (the host keeps T·M·D·z below 2^32); dl_oop_block's groups stride over (tile, b, block)
// items, a matrix's blocks row by row (nbr x nbc of the widest tile; blocks beyond a short
// last tile are skipped); dl_oop_block1 takes a tile's M matrices as one (below).
//
// Item `item` -> the tile's first record, its source matrix rows x cols, the block corner,
// and where the block's matrix starts in the tile: the units of b·cols and b·rows
// elements (source, target), the rows' strides M·cols and M·rows elements.
inline bool dl_oop_block_item(ulong item, ulong n, uint T, uint D, uint M, uint dir, uint B,
                              uint nbr, uint nbc, ulong* first, uint* rows, uint* cols, uint* r0,
                              uint* c0, uint* b) {
  const uint per_mat = nbr * nbc;
  const ulong tb = item / per_mat;
  const uint k = (uint)(item - tb * per_mat), bi = k / nbc;
  const ulong t = tb / M;
  *b = (uint)(tb - t * M);
  *first = t * T;
  const uint w = (uint)min((ulong)T, n - *first);
  *rows = dir ? D : w;
  *cols = dir ? w : D;
  *r0 = bi * B;
  *c0 = (k - bi * nbc) * B;
  return *r0 < *rows && *c0 < *cols;
}

// dl_oop_block: any z. The group is X lanes by Y rows as in dl_square
// (kernels/tile_square.cl): lanes walk the units of a block row, rows walk the block's rows,
// one division per X units of the transposed writes; local rows of B·z units padded to a
// stride congruent to z modulo 32 (z < 32). `l`: B padded rows.
__kernel void dl_oop_block(__global const U* restrict src, ulong sbase, __global U* restrict dst,
                           ulong dbase, ulong n, uint T, uint D, uint M, uint z, uint dir,
                           uint B, uint nbr, uint nbc, ulong items, uint X, __local U* l) {
  const uint lid = get_local_id(0);
  const uint x = lid % X, y = lid / X, Y = get_local_size(0) / X;
  const dl_div dz = dl_div_make(z);
  const uint sp = dl_square_stride(B * z, z);
  for (ulong item = get_group_id(0); item < items; item += get_num_groups(0)) {
    ulong first;
    uint rows, cols, r0, c0, b;
    if (!dl_oop_block_item(item, n, T, D, M, dir, B, nbr, nbc, &first, &rows, &cols, &r0, &c0,
                           &b))
      continue;  // the same for the whole group
    const uint hr = min(B, rows - r0), hc = min(B, cols - c0);
    const uint srow = M * cols * z, drow = M * rows * z;  // units between a matrix's rows
    const uint pw = hc * z, qw = hr * z;  // units of a block row, source and target
    const ulong tile = first * M * D * z;
    __global const U* S = src + sbase + tile + (b * cols + c0) * z + r0 * srow;
    __global U* P = dst + dbase + tile + (b * rows + r0) * z + c0 * drow;
    for (uint r = y; r < hr; r += Y)
      for (uint u = x; u < pw; u += X) l[r * sp + u] = S[r * srow + u];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Unit u of target row c holds unit u % z of element (u / z, c) of the block.
    for (uint u = x; u < qw; u += X) {
      const uint r = dl_udiv(u, dz);
      __local const U* s = l + r * sp + (u - r * z);
      for (uint c = y; c < hc; c += Y) P[c * drow + u] = s[c * z];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// The tiled side's row of column q of a record's M x D slots: slot (b, j) = (q / D, q % D)
// goes to row j·M + b.
inline uint dl_oop_row(uint q, uint D, dl_div dd, uint M) {
  const uint b = dl_udiv(q, dd);
  return (q - b * D) * M + b;
}

// dl_oop_block1: one-unit elements (z = 1, e.g. the transpose of float planes) in blocks of
// DL_SQ_B x DL_SQ_B units with every load of a block issued before any is written to
// local memory, as in dl_square1: work-item (tx, ty) = (lid % B, lid / B) loads column tx
// of rows ty, ty + RY, ... An element outside the matrix loads the block's first unit
// instead (no branch around the load) and is never stored. A tile's M matrices are taken
// as one: the AoS side's w x (M·D) matrix of its records' slots, whose column q is row
// (q % D)·M + q / D of the tiled side (for M = 1 the plain transpose), so that blocks run
// across matrices narrower than B. Items: (tile, block) over nbr x nbc blocks of the
// widest tile's source matrix (dir 0: w x M·D, dir 1: M·D x w). `l`: B x (B + 1) units.
// Launched with 128 work-items per group.
__kernel __attribute__((reqd_work_group_size(DL_SQ_WI, 1, 1))) void dl_oop_block1(
    __global const U* restrict src, ulong sbase, __global U* restrict dst, ulong dbase, ulong n,
    uint T, uint D, uint M, uint dir, uint nbr, uint nbc, ulong items, __local U* l) {
  const uint B = DL_SQ_B, pitch = DL_SQ_B + 1;
  const uint lid = get_local_id(0), tx = lid % B, ty = lid / B;
  const uint MD = M * D, per_tile = nbr * nbc;
  const dl_div dd = dl_div_make(D);
  for (ulong item = get_group_id(0); item < items; item += get_num_groups(0)) {
    const ulong t = item / per_tile;
    const uint kb = (uint)(item - t * per_tile), bi = kb / nbc;
    const ulong first = t * T;
    const uint w = (uint)min((ulong)T, n - first);
    const uint rows = dir ? MD : w, cols = dir ? w : MD;
    const uint r0 = bi * B, c0 = (kb - bi * nbc) * B;
    if (r0 >= rows || c0 >= cols) continue;  // the same for the whole group
    const uint hr = min(B, rows - r0), hc = min(B, cols - c0);
    __global const U* S = src + sbase + first * MD;
    __global U* P = dst + dbase + first * MD;
    // Row q of the tiled side's M·D rows of w units.
#define DL_OOP_ROW(q) (M == 1 ? (q) : dl_oop_row((q), D, dd, M))
    U v[DL_SQ_PER];
    if (dir == 0) {  // rows of M·D units in, rows of w units out
      DL_SQ_UNROLL for (uint k = 0; k < DL_SQ_PER; ++k) {
        const uint r = ty + k * DL_SQ_RY;
        v[k] = S[r < hr && tx < hc ? (r0 + r) * MD + c0 + tx : r0 * MD + c0];
      }
      for (uint k = 0; k < DL_SQ_PER; ++k) l[(ty + k * DL_SQ_RY) * pitch + tx] = v[k];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint k = 0; k < DL_SQ_PER; ++k) {
        const uint c = ty + k * DL_SQ_RY;
        if (c < hc && tx < hr) P[DL_OOP_ROW(c0 + c) * w + r0 + tx] = l[tx * pitch + c];
      }
    } else {  // rows of w units in, rows of M·D units out
      DL_SQ_UNROLL for (uint k = 0; k < DL_SQ_PER; ++k) {
        const uint r = ty + k * DL_SQ_RY;
        v[k] = S[r < hr && tx < hc ? DL_OOP_ROW(r0 + r) * w + c0 + tx : c0];
      }
      for (uint k = 0; k < DL_SQ_PER; ++k) l[(ty + k * DL_SQ_RY) * pitch + tx] = v[k];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint k = 0; k < DL_SQ_PER; ++k) {
        const uint c = ty + k * DL_SQ_RY;
        if (c < hc && tx < hr) P[(c0 + c) * MD + r0 + tx] = l[tx * pitch + c];
      }
    }
#undef DL_OOP_ROW
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
