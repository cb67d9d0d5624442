// DL marshaling kernels: AoS <-> ASTA(T) in place, barrier-synchronised (paper §4.2).
//
// An ASTA tile and the AoS records it holds occupy the same T*R contiguous bytes, so
// the conversion is a permutation inside each tile. A work-group loads G whole tiles
// (G*T*ru contiguous units) with 16-byte loads into local memory, waits at a barrier,
// then writes every unit of those tiles from its permuted source in local memory
// (coalesced stores). Groups stride over tile groups so one launch of a few groups per
// compute unit covers any n. The last tile holds m = n % T records and is permuted with
// width m (it is a mini-DA of m records).
//
// Divisions by run-time values use dl_udiv (a multiply-high by a reciprocal: exact for
// x, d <= 2^16, which local-memory positions satisfy).
//
// dir 0: AoS -> ASTA(T); dir 1: ASTA(T) -> AoS.


// log2(DL_V)
#if DL_UNIT_BYTES == 1
#define DL_LGV 4
#elif DL_UNIT_BYTES == 2
#define DL_LGV 3
#elif DL_UNIT_BYTES == 4
#define DL_LGV 2
#elif DL_UNIT_BYTES == 8
#define DL_LGV 1
#else
#define DL_LGV 0
#endif

// Swizzled local layout of full tiles (every slot one unit, sw != 0): the tile is read
// by source rows of rl units (AoS -> ASTA: records; ASTA -> AoS: slot rows), and the
// 16-byte vector v of row a is kept at vector v ^ ((a / DL_V) & sw) of that row. The
// gather reads one column of consecutive rows across a warp: with rows a multiple of 32
// bytes that column sits in few banks (one for 4-byte units and ru = 32), swizzled it
// spreads over sw + 1 vectors.
inline uint dl_tl_key(uint a, uint sw) { return ((a >> DL_LGV) & sw) << DL_LGV; }

inline void dl_tile_local_run(__global U* buf, ulong base, ulong n, uint T, uint ru, uint G,
                              uint dir, uint uni, DL_ST_SPACE const uint* restrict st,
                              __local uint4* lds4) {
  __local U* lds = (__local U*)lds4;
  const uint tu = T * ru;
  const ulong full = n / T;
  const uint m = (uint)(n - full * T);
  const ulong ntiles = full + (m != 0);
  const ulong total = n * ru;
  const ulong groups = (ntiles + G - 1) / G;
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const dl_div dtu = dl_div_make(tu), dT = dl_div_make(T), dru = dl_div_make(ru);
  const dl_div dm = dl_div_make(m ? m : 1);
  // Full tiles of a uniform record: output rows of ol units (ASTA slot rows, or AoS
  // records) are source columns, source rows have rl units. A work-item's DL_V units
  // stay in one tile, so their sources follow from the first one by steps of rl.
  const uint ol = dir ? ru : T, rl = dir ? T : ru;
  const dl_div dol = dir ? dru : dT, drl = dir ? dT : dru;
  const uint fast = uni && tu % DL_V == 0;
  // Swizzle (see dl_tl_key) when rows are whole pairs of vectors, vectors stay aligned
  // and a work-item's DL_V sources share one key (ol % DL_V == 0): sw + 1 = the largest
  // power of two, at most 8 (128 bytes: every bank), dividing the vectors of a row.
  const uint rv = rl >> DL_LGV;
  const uint sw = fast && base % DL_V == 0 && ol % DL_V == 0 && rl % (2 * DL_V) == 0
                      ? min(rv & (0u - rv), 8u) - 1
                      : 0;
  for (ulong g = get_group_id(0); g < groups; g += get_num_groups(0)) {
    const ulong t0 = g * G;
    const ulong u0 = t0 * tu;
    const uint cnt = (uint)min(total - u0, (ulong)G * tu);
    const uint ltl = (uint)min((ulong)G - 1, ntiles - 1 - t0);  // group's last tile
    const uint lastw = (m != 0 && t0 + ltl == full) ? m : T;    // and its width
    const uint nfull = lastw == T ? cnt : ltl * tu;  // units in the group's full tiles
    __global U* p = buf + base + u0;
    // 16-byte loads when the group's bytes start on a 16-byte boundary.
    const uint cv = ((base + u0) % DL_V == 0) ? cnt / DL_V : 0;
    __global uint4* p4 = (__global uint4*)p;
    if (sw) {
      for (uint k = lid; k < cv; k += lsz) {
        const uint u = k * DL_V;
        const uint a = dl_udiv(u, drl);
        lds4[(u < nfull ? a * rl + ((u - a * rl) ^ dl_tl_key(a, sw)) : u) >> DL_LGV] = p4[k];
      }
    } else {
      for (uint k = lid; k < cv; k += lsz) lds4[k] = p4[k];
    }
    for (uint k = cv * DL_V + lid; k < cnt; k += lsz) lds[k] = p[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    // DL_V gathered units per work-item, 16-byte stores.
    for (uint k = lid; k < cv; k += lsz) {
      dl_vec v;
      const uint u = k * DL_V;
      if (fast && u < nfull) {
        const uint x = dl_udiv(u, dol);  // output row (over the group), column y
        uint y = u - x * ol;
        const uint tl = dl_udiv(x, drl);
        const uint tb = tl * tu;
        uint c = x - tl * rl;  // source column
        uint s = tb + y * rl + (c ^ dl_tl_key(tl * ol + y, sw));
        for (uint j = 0; j < DL_V; ++j) {
          v.u[j] = lds[s];
          s += rl;
          if (++y == ol) {  // next output row (never with sw != 0)
            y = 0;
            s = tb + ++c;
          }
        }
      } else {
        for (uint j = 0; j < DL_V; ++j) {
          const uint tl = dl_udiv(u + j, dtu);
          const uint pp = u + j - tl * tu;
          const uint w = tl == ltl ? lastw : T;
          v.u[j] = lds[tl * tu + dl_tile_perm32(pp, w, w == T ? dT : dm, ru, dru, dir, uni, st)];
        }
      }
      p4[k] = v.v;
    }
    for (uint k = cv * DL_V + lid; k < cnt; k += lsz) {
      const uint tl = dl_udiv(k, dtu);
      const uint pp = k - tl * tu;
      const uint w = tl == ltl ? lastw : T;
      p[k] = lds[tl * tu + dl_tile_perm32(pp, w, w == T ? dT : dm, ru, dru, dir, uni, st)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

__kernel void dl_tile_local(__global U* buf, ulong base, ulong n, uint T, uint ru, uint G,
                            uint dir, uint uni, DL_ST_SPACE const uint* restrict st,
                            __local uint4* lds4) {
  dl_tile_local_run(buf, base, n, T, ru, G, dir, uni, st, lds4);
}
