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
// a work-group takes a block of TB records, reads it coalesced from its source side into
// local memory, and writes it coalesced to the other side. dir 0: AoS src -> DA dst;
// dir 1: DA src -> AoS dst. Local memory holds the AoS side: unit s of the block at
// s + (pad ? s / ru : 0) (an odd pitch when ru is even, so the column walks of the DA
// side do not all hit one bank); unpadded, the AoS side moves 16-byte vectors between
// global and local memory. Blocks of many records (the host picks TB so a block fills
// the local budget) keep many loads in flight between the two barriers.
// The AoS side is TB*ru contiguous units, moved in 16-byte vectors when aligned. The DA
// side is one run of TB*z units per slot; where every slot is one unit and each run is
// vector-aligned (n, TB and the DA base multiples of DL_V), a work-item moves DL_V
// consecutive records of one slot as one 16-byte vector, so an element costs no
// division and no 64-bit address of its own (-DDL_OOP_DA_SCALAR keeps one unit per
// work-item, for comparison); otherwise one unit per work-item.
// Block position p in ASTA(w) order -> (DA offset, AoS position inside the block).
inline uint dl_oop_asta(uint p, uint w, dl_div dw, uint ru, uint uni,
                        DL_ST_SPACE const uint* st, ulong n, ulong i0, ulong* da) {
  const uint q = dl_udiv(p, dw);  // unit row of the ASTA(w) block
  if (uni) {
    const uint k = p - q * w;
    *da = n * q + i0 + k;
    return k * ru + q;
  }
  // Non-uniform slots: the slot holding unit q (start o, z units) covers block
  // positions [w*o, w*(o+z)) and DA positions [n*o, n*(o+z)).
  const uint o = DL_START(st, q);
  const uint z = DL_SIZE(st, q);
  const uint r = p - w * o;
  const uint k = r / z;
  *da = n * o + i0 * z + r;
  return k * ru + o + (r - k * z);
}

// Whether the DA side moves 16-byte vectors (see above).
inline bool dl_oop_da_vector(uint uni, ulong n, uint TB, ulong da_base) {
#ifdef DL_OOP_DA_SCALAR
  return false;
#else
  return uni && DL_V > 1 && n % DL_V == 0 && TB % DL_V == 0 && da_base % DL_V == 0;
#endif
}

// The DA side of a block of w records (w a multiple of DL_V) as 16-byte vectors: item t
// is DL_V consecutive records (k .. k+DL_V-1) of slot q, whose units sit at
// (k + j) * pitch + q in local memory. to_lds: DA -> local memory, else local -> DA.
inline void dl_oop_da_vectors(__global U* da, ulong n, ulong i0, uint w, uint ru, uint pitch,
                              __local U* lds, uint to_lds) {
  const uint wv = w / DL_V;
  const dl_div dwv = dl_div_make(wv);
  for (uint t = get_local_id(0); t < ru * wv; t += get_local_size(0)) {
    const uint q = dl_udiv(t, dwv);
    const uint k = (t - q * wv) * DL_V;
    __global uint4* g = (__global uint4*)(da + n * q + i0 + k);
    dl_vec v;
    if (to_lds) {
      v.v = *g;
      for (uint j = 0; j < DL_V; ++j) lds[(k + j) * pitch + q] = v.u[j];
    } else {
      for (uint j = 0; j < DL_V; ++j) v.u[j] = lds[(k + j) * pitch + q];
      *g = v.v;
    }
  }
}

// Records [lo, lo + count) of the n move: the AoS side holds only those (record lo at its
// base), the DA side is the whole array of n (a chunk of an upload, docs/runtime.md).
inline void dl_oop_transpose_pad(__global const U* restrict src, ulong sbase,
                                 __global U* restrict dst, ulong dbase, ulong n, ulong lo,
                                 ulong count, uint TB, uint ru, uint dir, uint uni,
                                 DL_ST_SPACE const uint* restrict st, __local U* lds, uint pad) {
  const ulong nblocks = (count + TB - 1) / TB;
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const dl_div dru = dl_div_make(ru);
  const bool dvec =
      (lo | count) % DL_V == 0 && dl_oop_da_vector(uni, n, TB, dir == 0 ? dbase : sbase);
  const uint pitch = ru + (pad ? 1 : 0);
  for (ulong b = get_group_id(0); b < nblocks; b += get_num_groups(0)) {
    const ulong i0 = lo + b * TB;
    const uint w = (uint)min((ulong)TB, lo + count - i0);
    const uint cnt = w * ru;
    const dl_div dw = dl_div_make(w);
    if (dir == 0) {
      const ulong a0 = sbase + (i0 - lo) * ru;
      const uint cv = (a0 % DL_V == 0) ? cnt / DL_V : 0;
      __global const uint4* s4 = (__global const uint4*)(src + a0);
      for (uint k = lid; k < cv; k += lsz) {
        dl_vec v;
        v.v = s4[k];
        const uint s = k * DL_V;
        if (!pad) {
          *(__local uint4*)(lds + s) = v.v;
          continue;
        }
        uint r = dl_udiv(s, dru);
        uint c = s - r * ru;
        for (uint j = 0; j < DL_V; ++j) {
          lds[s + j + r] = v.u[j];
          if (++c == ru) {
            c = 0;
            ++r;
          }
        }
      }
      for (uint k = cv * DL_V + lid; k < cnt; k += lsz)
        lds[k + (pad ? dl_udiv(k, dru) : 0)] = src[a0 + k];
    } else if (dvec) {
      dl_oop_da_vectors((__global U*)src + sbase, n, i0, w, ru, pitch, lds, 1);
    } else {
      for (uint p = lid; p < cnt; p += lsz) {
        ulong da;
        const uint a = dl_oop_asta(p, w, dw, ru, uni, st, n, i0, &da);
        lds[a + (pad ? dl_udiv(a, dru) : 0)] = src[sbase + da];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (dir == 0 && dvec) {
      dl_oop_da_vectors(dst + dbase, n, i0, w, ru, pitch, lds, 0);
    } else if (dir == 0) {
      for (uint p = lid; p < cnt; p += lsz) {
        ulong da;
        const uint a = dl_oop_asta(p, w, dw, ru, uni, st, n, i0, &da);
        dst[dbase + da] = lds[a + (pad ? dl_udiv(a, dru) : 0)];
      }
    } else {
      // 16-byte stores of the AoS block, as the AoS side is loaded for dir 0.
      const ulong a0 = dbase + (i0 - lo) * ru;
      const uint cv = (a0 % DL_V == 0) ? cnt / DL_V : 0;
      __global uint4* d4 = (__global uint4*)(dst + a0);
      for (uint k = lid; k < cv; k += lsz) {
        dl_vec v;
        const uint s = k * DL_V;
        if (!pad) {
          d4[k] = *(__local const uint4*)(lds + s);
          continue;
        }
        uint r = dl_udiv(s, dru);
        uint c = s - r * ru;
        for (uint j = 0; j < DL_V; ++j) {
          v.u[j] = lds[s + j + r];
          if (++c == ru) {
            c = 0;
            ++r;
          }
        }
        d4[k] = v.v;
      }
      for (uint k = cv * DL_V + lid; k < cnt; k += lsz)
        dst[a0 + k] = lds[k + (pad ? dl_udiv(k, dru) : 0)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// Unpadded (the per-record programs of marshal_program_source() size local memory so).
inline void dl_oop_transpose_run(__global const U* restrict src, ulong sbase,
                                 __global U* restrict dst, ulong dbase, ulong n, uint TB, uint ru,
                                 uint dir, uint uni, DL_ST_SPACE const uint* restrict st,
                                 __local U* lds) {
  dl_oop_transpose_pad(src, sbase, dst, dbase, n, 0, n, TB, ru, dir, uni, st, lds, 0);
}

__kernel void dl_oop_transpose(__global const U* restrict src, ulong sbase,
                               __global U* restrict dst, ulong dbase, ulong n, ulong lo,
                               ulong count, uint TB, uint ru, uint dir, uint uni,
                               DL_ST_SPACE const uint* restrict st, __local uint4* lds, uint pad) {
  dl_oop_transpose_pad(src, sbase, dst, dbase, n, lo, count, TB, ru, dir, uni, st,
                       (__local U*)lds, pad);
}
