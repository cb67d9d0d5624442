// DL marshaling kernels: the tail of DA <-> ASTA(T) when n = N'T + m, 0 < m < T.
//
// DA -> ASTA(T): (1) dl_tail_gather copies the last m*z units of every slot's DA array
// (in slot order: DA(m) of the tail records = the ASTA tail tile) to scratch; (2) the
// head arrays (N'T*z units each) are compacted, slot s moving left by m*o_s units (o_s =
// its unit offset), so they form DA(N'T); (3) the N' full tiles are transposed; (4) the
// tail tile is copied back from scratch. ASTA -> DA runs the exact reverse.
//
// Compaction (2) of ALL slots in one save and one move launch. Let f map a head unit x of
// DA(n) to its DA(N'T) position (f(x) = x - m*o of x's slot: monotone, so every image
// position y in [N'T*z_0, N'T*ru) receives the unit at f^-1(y) = y + m*o(y), o(y) = the
// offset of y's slot in DA(N'T)). Following y -> f^-1(y) upwards gives disjoint chains that
// start at free positions (DA(n) tail units, already saved) and leave the image at the
// top. The image is cut into bands [t, t + width); a band's chains start at its window
// [t, f^-1(t)) (D = m*o(t) units: heads whose target lies below t, and tail units) and at
// the tail units inside it, and stop at the first position past the band, which belongs
// to the next band's window. dl_chunk_save copies every band's window (but the first
// band's, which holds tail units only) to scratch before anything moves, so bands run in
// parallel: a left shift reads the next band's window from scratch, a right shift reads
// its own window from scratch (the previous band writes it). Within a band:
//   block mode (small D): one work-group walks the band's image positions in blocks,
//     loading a whole block before storing it (memmove order; any D);
//   chain mode (D >= 256): one work-item per chain, no barriers; a right shift walks
//     its chain to the top first and then moves backwards (f(x) = x - m*o(x in DA(n))).
// Extra memory: one unit per window unit (bands are made so the windows sum to about 1%
// of the buffer) plus the band table. The host table (src/marshal/ops_tail.cpp):
//   entry 0: (head = N'T, 0, n, ru | uni << 32)
//   entry 1: (image end, 0, nbands | first band << 32, 0)
//   entries 2..: unit-row slot offsets, 12 ushorts per entry in lanes x, z, w (not uni)
//   bands: (t, width, D | flags << 48, scratch offset of the window); flags: 1 chain
//     mode, 2 window saved, 4 last band
//   chain tasks: (first start, 0, band entry, count): `count` chains starting at
//     consecutive positions.
// Every non-band entry has .y == 0 and a band's .y is its width, so the sum of .y over the
// table is the number of units moved (Plan::bytes_moved).

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

#define DL_TS_CHAIN 1ul
#define DL_TS_SAVED 2ul
#define DL_TS_LAST 4ul
#define DL_TS_PER 4  // units per work-item per block (block mode)
#define DL_TS_K 8    // loads in flight per chain (chain mode)

inline ulong dl_ts_div(ulong a, ulong b) {
  return (a >> 32) == 0 && (b >> 32) == 0 ? (ulong)((uint)a / (uint)b) : a / b;
}

// Slot offset of unit row q (a row is one unit of every record of a DA array).
inline ulong dl_ts_row_start(__global const ulong4* info, ulong q, uint uni) {
  if (uni) return q;
  const ulong4 e = info[2 + q / 12];
  const uint r = (uint)(q % 12);
  const ulong w = r < 4 ? e.x : (r < 8 ? e.z : e.w);
  return (w >> ((r % 4) * 16)) & 0xffffu;
}

typedef struct {
  ulong head, n, m, end;
  uint uni;
} dl_ts_geo;

inline dl_ts_geo dl_ts_geometry(__global const ulong4* info) {
  const ulong4 h = info[0], g = info[1];
  dl_ts_geo r;
  r.head = h.x;
  r.n = h.z;
  r.m = h.z - h.x;
  r.uni = (uint)(h.w >> 32);
  r.end = g.x;
  return r;
}

// Saves every band's window (the units its neighbour overwrites or reads).
__kernel void dl_chunk_save(__global const U* restrict buf, ulong base, __global U* scratch,
                            __global const ulong4* restrict info, uint nentries, uint left) {
  const ulong4 g = info[1];
  const uint nb = (uint)g.z, b0 = (uint)(g.z >> 32);
  for (uint b = get_group_id(0); b < nb && b0 + b < nentries; b += get_num_groups(0)) {
    const ulong4 e = info[b0 + b];
    const ulong flags = e.z >> 48, D = e.z & 0xffffffffffffull;
    if (!(flags & DL_TS_SAVED)) continue;
    for (ulong j = get_local_id(0); j < D; j += get_local_size(0))
      scratch[e.w + j] = buf[base + e.x + j];
  }
}

// One band in block mode (a whole work-group).
inline void dl_ts_block(__global U* buf, ulong base, __global const U* restrict scratch,
                        __global const ulong4* restrict info, dl_ts_geo g, ulong4 e,
                        ulong nbase, uint left) {
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const ulong B = (ulong)lsz * DL_TS_PER;
  const ulong t = e.x, width = e.y, tend = t + width;
  const ulong flags = e.z >> 48, D = e.z & 0xffffffffffffull;
  const int last = (flags & DL_TS_LAST) != 0, saved = (flags & DL_TS_SAVED) != 0;
  const ulong nblocks = (width + B - 1) / B;
  for (ulong b = 0; b < nblocks; ++b) {
    const ulong blk = left ? b : nblocks - 1 - b;
    U v[DL_TS_PER];
    ulong xs[DL_TS_PER];
    for (uint j = 0; j < DL_TS_PER; ++j) {
      const ulong u = blk * B + j * lsz + lid;
      if (u < width) {
        const ulong y = t + u;
        const ulong x = y + g.m * dl_ts_row_start(info, dl_ts_div(y, g.head), g.uni);
        xs[j] = x;
        if (left)
          v[j] = (x >= tend && !last) ? scratch[nbase + (x - tend)] : buf[base + x];
        else
          v[j] = (saved && u < D) ? scratch[e.w + u] : buf[base + y];
      }
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint j = 0; j < DL_TS_PER; ++j) {
      const ulong u = blk * B + j * lsz + lid;
      if (u < width) buf[base + (left ? t + u : xs[j])] = v[j];
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}

// One chain of a chain-mode band, starting at image position y.
inline void dl_ts_chain(__global U* buf, ulong base, __global const U* restrict scratch,
                        __global const ulong4* restrict info, dl_ts_geo g, ulong4 band,
                        ulong nbase, uint left, ulong y) {
  const ulong t = band.x, tend = t + band.y;
  const ulong flags = band.z >> 48, D = band.z & 0xffffffffffffull;
  const int last = (flags & DL_TS_LAST) != 0, saved = (flags & DL_TS_SAVED) != 0;
  const ulong start = y;
  // Image row of y (DA(N'T) rows of `head` units) and its shift.
  ulong q = dl_ts_div(y, g.head);
  ulong row_end = (q + 1) * g.head;
  ulong sh = g.m * dl_ts_row_start(info, q, g.uni);
  if (left) {
    for (;;) {
      ulong ys[DL_TS_K];
      U v[DL_TS_K];
      uint k = 0;
      int done = 0;
      while (k < DL_TS_K) {
        const ulong x = y + sh;
        ys[k] = y;
        if (x >= tend) {
          v[k++] = last ? buf[base + x] : scratch[nbase + (x - tend)];
          done = 1;
          break;
        }
        v[k++] = buf[base + x];
        y = x;
        if (y >= row_end) {
          while (y >= row_end) {
            ++q;
            row_end += g.head;
          }
          sh = g.m * dl_ts_row_start(info, q, g.uni);
        }
      }
      for (uint j = 0; j < k; ++j) buf[base + ys[j]] = v[j];
      if (done) return;
    }
  }
  // Right shift: find the chain's top inside the band, then move downwards.
  for (;;) {
    const ulong x = y + sh;
    if (x >= tend) break;
    y = x;
    if (y >= row_end) {
      while (y >= row_end) {
        ++q;
        row_end += g.head;
      }
      sh = g.m * dl_ts_row_start(info, q, g.uni);
    }
  }
  ulong cur = y + sh;  // written first: the next band's window, or past the image
  ulong p = y;         // its source
  // DA(n) row of p, for f(p) = p - m * o(p) (p is a head unit of DA(n) except at the start).
  ulong r = dl_ts_div(p, g.n);
  ulong row_begin = r * g.n;
  for (;;) {
    ulong cs[DL_TS_K];
    U v[DL_TS_K];
    uint k = 0;
    int done = 0;
    while (k < DL_TS_K) {
      cs[k] = cur;
      if (p == start) {
        v[k++] = (saved && p < t + D) ? scratch[band.w + (p - t)] : buf[base + p];
        done = 1;
        break;
      }
      v[k++] = buf[base + p];
      cur = p;
      if (p < row_begin) {
        while (p < row_begin) {
          --r;
          row_begin -= g.n;
        }
      }
      p -= g.m * dl_ts_row_start(info, r, g.uni);
      if (p < row_begin) {
        while (p < row_begin) {
          --r;
          row_begin -= g.n;
        }
      }
    }
    for (uint j = 0; j < k; ++j) buf[base + cs[j]] = v[j];
    if (done) return;
  }
}

// Moves tasks [c0, c1): block-mode bands (one work-group each) and chain tasks.
__kernel void dl_chunk_move(__global U* buf, ulong base, __global const U* restrict scratch,
                            __global const ulong4* restrict info, uint c0, uint c1,
                            uint left) {
  const dl_ts_geo g = dl_ts_geometry(info);
  for (uint c = c0 + get_group_id(0); c < c1; c += get_num_groups(0)) {
    const ulong4 e = info[c];
    if (e.y != 0) {  // a band
      const ulong flags = e.z >> 48;
      if (flags & DL_TS_CHAIN) continue;  // its chain tasks move it
      const ulong nbase = (flags & DL_TS_LAST) ? 0 : info[c + 1].w;
      dl_ts_block(buf, base, scratch, info, g, e, nbase, left);
    } else {
      const uint bi = (uint)e.z;
      const ulong4 band = info[bi];
      const ulong nbase = ((band.z >> 48) & DL_TS_LAST) ? 0 : info[bi + 1].w;
      for (ulong i = get_local_id(0); i < e.w; i += get_local_size(0))
        dl_ts_chain(buf, base, scratch, info, g, band, nbase, left, e.x + i);
    }
  }
}
