// DL marshaling kernels: the generic out-of-place copy between two tiled maps.
//
// dst (tiled with width wt) receives every unit of src (tiled with width wf); one
// work-item per destination unit (coalesced stores), grid-stride. This is the
// reference every in-place algorithm is tested against on the device, and the
// OutOfPlace algorithm (the host copies the buffer to a temporary first).
__kernel void dl_copy_map(__global const U* restrict src, ulong sbase, __global U* restrict dst,
                          ulong dbase, ulong n, uint ru, ulong wf, ulong wt, uint uni,
                          DL_ST_SPACE const uint* restrict st) {
  const ulong total = n * ru;
  for (ulong p = get_global_id(0); p < total; p += get_global_size(0)) {
    const ulong a = dl_tiled_to_aos(wt, n, ru, p, uni, st);  // i * ru + q
    const ulong i = a / ru;
    const uint q = (uint)(a - i * ru);
    dst[dbase + p] = src[sbase + dl_tiled_unit(wf, n, ru, i, q, uni, st)];
  }
}

// Out-of-place tiled transpose AoS <-> DA (the reference the paper compares against):
// a work-group takes a block of TB records, reads it coalesced from its source side
// (AoS: TB*ru contiguous units; DA: one contiguous run of TB*z units per slot) into
// local memory in ASTA(w) order, and writes it coalesced to the other side.
// dir 0: AoS src -> DA dst; dir 1: DA src -> AoS dst.
inline ulong dl_da_run(ulong n, ulong i0, uint w, uint p, uint uni, DL_ST_SPACE const uint* st) {
  const uint q = p / w;
  if (uni) return n * q + i0 + (p - q * w);
  const uint o = DL_START(st, q);
  return n * o + i0 * DL_SIZE(st, q) + (p - w * o);
}

inline void dl_oop_transpose_run(__global const U* restrict src, ulong sbase,
                                 __global U* restrict dst, ulong dbase, ulong n, uint TB, uint ru,
                                 uint dir, uint uni, DL_ST_SPACE const uint* restrict st,
                                 __local U* lds) {
  const ulong nblocks = (n + TB - 1) / TB;
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  for (ulong b = get_group_id(0); b < nblocks; b += get_num_groups(0)) {
    const ulong i0 = b * TB;
    const uint w = (uint)min((ulong)TB, n - i0);
    const uint cnt = w * ru;
    if (dir == 0) {
      for (uint k = lid; k < cnt; k += lsz) lds[k] = src[sbase + i0 * ru + k];
    } else {
      for (uint p = lid; p < cnt; p += lsz) lds[p] = src[sbase + dl_da_run(n, i0, w, p, uni, st)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (dir == 0) {
      for (uint p = lid; p < cnt; p += lsz)
        dst[dbase + dl_da_run(n, i0, w, p, uni, st)] = lds[dl_asta_to_aos32(p, w, ru, uni, st)];
    } else {
      for (uint k = lid; k < cnt; k += lsz)
        dst[dbase + i0 * ru + k] = lds[dl_aos_to_asta32(k, w, ru, uni, st)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

__kernel void dl_oop_transpose(__global const U* restrict src, ulong sbase,
                               __global U* restrict dst, ulong dbase, ulong n, uint TB, uint ru,
                               uint dir, uint uni, DL_ST_SPACE const uint* restrict st,
                               __local U* lds) {
  dl_oop_transpose_run(src, sbase, dst, dbase, n, TB, ru, dir, uni, st, lds);
}
