// DL marshaling kernels: AoS <-> ASTA(T) in place, barrier-synchronised (paper §4.2).
//
// An ASTA tile and the AoS records it holds occupy the same T*R contiguous bytes, so
// the conversion is a permutation inside each tile. A work-group loads G whole tiles
// (G*T*ru contiguous units) with 16-byte loads into local memory, waits at a barrier,
// then writes every unit of those tiles from its permuted source in local memory
// (16-byte coalesced stores). Groups stride over tile groups so one launch of a few
// groups per compute unit covers any n. The last tile holds m = n % T records and is
// permuted with width m (it is a mini-DA of m records).
//
// dir 0: AoS -> ASTA(T); dir 1: ASTA(T) -> AoS.

// Source position (in local memory) of output unit k of a group starting at tile t0.
inline uint dl_tl_src(uint k, uint tu, uint T, uint m, ulong t0, ulong full, uint ru, uint dir,
                      uint uni, DL_ST_SPACE const uint* st) {
  const uint tl = k / tu;
  const uint p = k - tl * tu;
  const uint w = (t0 + tl == full) ? m : T;
  const uint s = dir == 0 ? dl_asta_to_aos32(p, w, ru, uni, st) : dl_aos_to_asta32(p, w, ru, uni, st);
  return tl * tu + s;
}

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
  for (ulong g = get_group_id(0); g < groups; g += get_num_groups(0)) {
    const ulong t0 = g * G;
    const ulong u0 = t0 * tu;
    const uint cnt = (uint)min(total - u0, (ulong)G * tu);
    __global U* p = buf + base + u0;
    // 16-byte path when the group's bytes start on a 16-byte boundary.
    const uint cv = ((base + u0) % DL_V == 0) ? cnt / DL_V : 0;
    __global uint4* p4 = (__global uint4*)p;
    for (uint k = lid; k < cv; k += lsz) lds4[k] = p4[k];
    for (uint k = cv * DL_V + lid; k < cnt; k += lsz) lds[k] = p[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = lid; k < cv; k += lsz) {
      dl_vec v;
      for (uint j = 0; j < DL_V; ++j)
        v.u[j] = lds[dl_tl_src(k * DL_V + j, tu, T, m, t0, full, ru, dir, uni, st)];
      p4[k] = v.v;
    }
    for (uint k = cv * DL_V + lid; k < cnt; k += lsz)
      p[k] = lds[dl_tl_src(k, tu, T, m, t0, full, ru, dir, uni, st)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

__kernel void dl_tile_local(__global U* buf, ulong base, ulong n, uint T, uint ru, uint G,
                            uint dir, uint uni, DL_ST_SPACE const uint* restrict st,
                            __local uint4* lds4) {
  dl_tile_local_run(buf, base, n, T, ru, G, dir, uni, st, lds4);
}
