// DL marshaling kernels: the tail of DA <-> ASTA(T) when n = N'T + m, 0 < m < T.
//
// DA -> ASTA(T): (1) dl_tail_gather copies the last m*z units of every slot's DA array
// (in slot order: DA(m) of the tail records = the ASTA tail tile) to scratch; (2) every
// slot's head array (N'T*z units) moves left by m*o units (o = the slot's unit offset),
// slots in increasing order, so the heads form DA(N'T); (3) the N' full tiles are
// transposed; (4) the tail tile is copied back from scratch. ASTA -> DA runs the exact
// reverse, with right shifts in decreasing slot order.
//
// A shift of one slot by d units runs in chunks (one work-group each): a chunk's moves
// clobber the d units of its neighbour nearest to it (the last d units of the previous
// chunk for a left shift, the first d of the next for a right shift), so dl_chunk_save
// saves those before any chunk moves, and dl_chunk_move takes them from scratch. Inside
// a chunk the group walks blocks in the shift's direction, loading a whole block before
// storing it (memmove order), so any d works. Chunk entry: (src, len, dst, save) in units.

// DA(n) position of tail unit t (of the DA(m) tail, m*ru units) of a buffer whose head
// holds `head` = N'T records.
inline ulong dl_tail_da_pos(ulong t, ulong n, ulong head, uint m, uint ru, uint uni,
                            DL_ST_SPACE const uint* st) {
  const uint q = (uint)(t / m);
  if (uni) return n * q + head + (t - (ulong)q * m);
  const uint o = DL_START(st, q);
  const uint z = DL_SIZE(st, q);
  return n * o + head * z + (t - (ulong)m * o);
}

// to_scratch 1: scratch[t] = DA tail unit t; 0: DA tail unit t = scratch[t].
__kernel void dl_tail_gather(__global U* buf, ulong base, __global U* scratch, ulong n,
                             ulong head, uint m, uint ru, uint to_scratch, uint uni,
                             DL_ST_SPACE const uint* restrict st) {
  const ulong total = (ulong)m * ru;
  for (ulong t = get_global_id(0); t < total; t += get_global_size(0)) {
    const ulong p = base + dl_tail_da_pos(t, n, head, m, ru, uni, st);
    if (to_scratch)
      scratch[t] = buf[p];
    else
      buf[p] = scratch[t];
  }
}

// Saves the units of every chunk that its neighbour's moves will clobber.
// left 1: the last min(d, len) units; left 0: the first min(d, len).
__kernel void dl_chunk_save(__global const U* restrict buf, ulong base, __global U* scratch,
                            __global const ulong4* restrict chunks, uint nchunks, uint left) {
  for (uint c = get_group_id(0); c < nchunks; c += get_num_groups(0)) {
    const ulong4 e = chunks[c];  // src, len, dst, save offset
    const ulong d = (e.z > e.x ? e.z - e.x : e.x - e.z);
    const ulong k = min(d, e.y);
    const ulong from = left ? e.x + e.y - k : e.x;
    for (ulong j = get_local_id(0); j < k; j += get_local_size(0))
      scratch[e.w + j] = buf[base + from + j];
  }
}

// Moves chunks [c0, c1) of one slot. Left shifts walk blocks upwards, right shifts
// downwards; each block is loaded whole (`per` units per work-item) before it is stored.
#define DL_SHIFT_PER 4
__kernel void dl_chunk_move(__global U* buf, ulong base, __global const U* restrict scratch,
                            __global const ulong4* restrict chunks, uint c0, uint c1,
                            uint left) {
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const ulong B = (ulong)lsz * DL_SHIFT_PER;
  for (uint c = c0 + get_group_id(0); c < c1; c += get_num_groups(0)) {
    const ulong4 e = chunks[c];
    const ulong len = e.y;
    const ulong d = (e.z > e.x ? e.z - e.x : e.x - e.z);
    const ulong k = min(d, len);
    // Units of [0, len) at or past `lo` (left) / below `k` (right) come from scratch.
    const ulong lo = len - k;
    const ulong nblocks = (len + B - 1) / B;
    for (ulong b = 0; b < nblocks; ++b) {
      const ulong blk = left ? b : nblocks - 1 - b;
      U v[DL_SHIFT_PER];
      for (uint j = 0; j < DL_SHIFT_PER; ++j) {
        const ulong u = blk * B + j * lsz + lid;
        if (u < len) {
          const int saved = left ? (u >= lo) : (u < k);
          v[j] = saved ? scratch[e.w + (left ? u - lo : u)] : buf[base + e.x + u];
        }
      }
      barrier(CLK_GLOBAL_MEM_FENCE);
      for (uint j = 0; j < DL_SHIFT_PER; ++j) {
        const ulong u = blk * B + j * lsz + lid;
        if (u < len) buf[base + e.z + u] = v[j];
      }
      barrier(CLK_GLOBAL_MEM_FENCE);
    }
  }
}
