// DL marshaling kernels: AoS <-> ASTA(T) in place by cycle following inside one ASTA
// instance (PTTWAC, paper §4.4), for tiles too large for local memory.
//
// An instance of w records (w = T, or m = n % T for the last partial tile) is cut into
// chunks of b records (b divides w, b*R fits local memory). AoS -> ASTA(w) runs in two
// steps inside the instance:
//   1. every chunk is transposed AoS(b) -> ASTA(b) through local memory (barrier-
//      synchronised, coalesced 16-byte loads and stores);
//   2. the instance is now [T1 = w/b chunks][ru minitiles of b units], and ASTA(w) is a
//      permutation of these minitiles (dl_asta_to_da_tile with np = T1: the minitiles of
//      slot (o, z) of chunk c go to T1*o + c*z + (q - o)). It is applied by PTTWAC cycle
//      following with one done bit per minitile in local memory; every work-item moves
//      whole minitiles (16-byte vectors when a minitile is a multiple of 16 bytes), so each
//      access uses whole 32-byte sectors instead of one unit.
// ASTA(w) -> AoS is the exact reverse (step 2 inverse, then step 1 inverse). b = 1 is the
// unit-level algorithm (step 1 is the identity); b = w is the local transpose alone.
//
// A work-group takes G consecutive full instances at once (both steps over all of
// them, done bits for all of them), groups stride over instance groups; the partial
// last instance is one more item with its own chunk width bm. The work-group's range
// stays hot in L1/L2 between the steps.
//
// Race fix of the paper's scheme: a work-item starting at p may load A[p] after another
// work-item claimed p and overwrote it. DL re-checks p's done bit after the load (with
// fences in between) and gives up p if it is set; whoever claimed p then carries the
// original value on (it read A[p] before writing it), so every minitile is written
// exactly once, with the right value.
//
// dir 0: AoS -> ASTA(T); dir 1: ASTA(T) -> AoS.

#define DL_TI_MAXV 4  // 16-byte vectors per minitile (64 bytes)
#if DL_UNIT_BYTES >= 4
#define DL_TI_MAXU (64 / DL_UNIT_BYTES)
#else
#define DL_TI_MAXU 16
#endif

// Step 2: minitile p of an instance of T1 chunks -> its destination.
// dir 0: ASTA(b) chunks -> ASTA(w) (dl_asta_to_da_tile); dir 1: the inverse.
inline uint dl_ti_next(uint p, uint T1, dl_div dT1, uint ru, dl_div dru, uint dir, uint uni,
                       DL_ST_SPACE const uint* st) {
  if (dir == 0) {
    const uint j = dl_udiv(p, dru);
    const uint q = p - j * ru;
    if (uni) return q * T1 + j;
    const uint o = DL_START(st, q);
    return T1 * o + j * DL_SIZE(st, q) + (q - o);
  }
  const uint q = dl_udiv(p, dT1);
  if (uni) return (p - q * T1) * ru + q;
  const uint o = DL_START(st, q);
  const uint z = DL_SIZE(st, q);
  const uint r = p - T1 * o;
  const uint j = r / z;
  return j * ru + o + (r - j * z);
}

// Step 1: source position, inside a chunk of b records, of output position p.
// dir 0: output ASTA(b) <- AoS; dir 1: output AoS <- ASTA(b).
inline uint dl_ti_chunk_src(uint p, uint b, dl_div db, uint ru, dl_div dru, uint dir, uint uni,
                            DL_ST_SPACE const uint* st) {
  if (dir == 0) {
    const uint q = dl_udiv(p, db);
    if (uni) return (p - q * b) * ru + q;
    const uint o = DL_START(st, q);
    const uint z = DL_SIZE(st, q);
    const uint r = p - b * o;
    const uint k = r / z;
    return k * ru + o + (r - k * z);
  }
  const uint k = dl_udiv(p, dru);
  const uint q = p - k * ru;
  if (uni) return q * b + k;
  const uint o = DL_START(st, q);
  return b * o + k * DL_SIZE(st, q) + (q - o);
}

// Step 1 over `units` units at a (whole chunks of cu = b*ru units), in passes of as many
// chunks as `cap` units of local memory hold. `abs` is a's unit offset in the buffer.
inline void dl_ti_chunks(__global U* a, ulong abs, uint units, uint b, uint ru, uint dir, uint uni,
                         DL_ST_SPACE const uint* st, __local uint4* lds4, uint cap) {
  __local U* lds = (__local U*)lds4;
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const uint cu = b * ru;
  const uint pass = (cap / cu) * cu;
  const dl_div dcu = dl_div_make(cu), db = dl_div_make(b), dru = dl_div_make(ru);
  for (uint u0 = 0; u0 < units; u0 += pass) {
    const uint cnt = min(pass, units - u0);
    __global U* p = a + u0;
    const uint cv = ((abs + u0) % DL_V == 0) ? cnt / DL_V : 0;
    __global uint4* p4 = (__global uint4*)p;
    for (uint k = lid; k < cv; k += lsz) lds4[k] = p4[k];
    for (uint k = cv * DL_V + lid; k < cnt; k += lsz) lds[k] = p[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = lid; k < cv; k += lsz) {
      dl_vec v;
      for (uint j = 0; j < DL_V; ++j) {
        const uint u = k * DL_V + j;
        const uint c = dl_udiv(u, dcu);
        v.u[j] = lds[c * cu + dl_ti_chunk_src(u - c * cu, b, db, ru, dru, dir, uni, st)];
      }
      p4[k] = v.v;
    }
    for (uint k = cv * DL_V + lid; k < cnt; k += lsz) {
      const uint c = dl_udiv(k, dcu);
      p[k] = lds[c * cu + dl_ti_chunk_src(k - c * cu, b, db, ru, dru, dir, uni, st)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

#define DL_TI_BIT(P) (1u << ((P)&31))

// Step 2 over cnt instances of mpi = T1*ru minitiles of b units each, at a.
// vec: a minitile is b/DL_V 16-byte vectors at 16-byte aligned addresses.
inline void dl_ti_cycles(__global U* a, uint cnt, uint b, uint T1, uint ru, uint dir, uint uni,
                         uint vec, DL_ST_SPACE const uint* st, __local uint* done) {
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const uint mpi = T1 * ru;
  const uint total = cnt * mpi;
  const dl_div dmpi = dl_div_make(mpi), dT1 = dl_div_make(T1), dru = dl_div_make(ru);
  for (uint k = lid; k < (total + 31) / 32; k += lsz) done[k] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (vec) {
    const uint nv = b / DL_V;
    __global uint4* a4 = (__global uint4*)a;
    for (uint P = lid; P < total; P += lsz) {
      if (done[P >> 5] & DL_TI_BIT(P)) continue;
      const uint inst = dl_udiv(P, dmpi);
      const uint ib = inst * mpi;
      uint pos = P - ib;
      uint nx = dl_ti_next(pos, T1, dT1, ru, dru, dir, uni, st);
      if (nx == pos) continue;  // fixed point: stays
      uint4 v[DL_TI_MAXV];
#pragma unroll
      for (uint j = 0; j < DL_TI_MAXV; ++j)
        if (j < nv) v[j] = a4[P * nv + j];
      mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      if (atomic_or(&done[P >> 5], 0u) & DL_TI_BIT(P)) continue;
      for (;;) {
        const uint g = ib + nx;
        if (atomic_or(&done[g >> 5], DL_TI_BIT(g)) & DL_TI_BIT(g)) break;
        mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (uint j = 0; j < DL_TI_MAXV; ++j)
          if (j < nv) {
            const uint4 t = a4[g * nv + j];
            a4[g * nv + j] = v[j];
            v[j] = t;
          }
        pos = nx;
        nx = dl_ti_next(pos, T1, dT1, ru, dru, dir, uni, st);
      }
    }
  } else {
    for (uint P = lid; P < total; P += lsz) {
      if (done[P >> 5] & DL_TI_BIT(P)) continue;
      const uint inst = dl_udiv(P, dmpi);
      const uint ib = inst * mpi;
      uint pos = P - ib;
      uint nx = dl_ti_next(pos, T1, dT1, ru, dru, dir, uni, st);
      if (nx == pos) continue;
      U v[DL_TI_MAXU];
#pragma unroll
      for (uint j = 0; j < DL_TI_MAXU; ++j)
        if (j < b) v[j] = a[P * b + j];
      mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      if (atomic_or(&done[P >> 5], 0u) & DL_TI_BIT(P)) continue;
      for (;;) {
        const uint g = ib + nx;
        if (atomic_or(&done[g >> 5], DL_TI_BIT(g)) & DL_TI_BIT(g)) break;
        mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (uint j = 0; j < DL_TI_MAXU; ++j)
          if (j < b) {
            const U t = a[g * b + j];
            a[g * b + j] = v[j];
            v[j] = t;
          }
        pos = nx;
        nx = dl_ti_next(pos, T1, dT1, ru, dru, dir, uni, st);
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// G: full instances per work-group; bf, vf: chunk width and vector flag of full
// instances; bm, vm: those of the partial last instance (m = n % T records, if any);
// cap: units of `lds`. b == 1 runs the unit-level algorithm (no step 1); wider minitiles
// than DL_TI_MAXV vectors / DL_TI_MAXU units are the host's to avoid.
__kernel void dl_tile_instance(__global U* buf, ulong base, ulong n, uint T, uint ru, uint dir,
                               uint uni, DL_ST_SPACE const uint* restrict st, uint G, uint bf,
                               uint vf, uint bm, uint vm, uint cap, __local uint4* lds,
                               __local uint* done) {
  const ulong full = n / T;
  const uint m = (uint)(n - full * T);
  const ulong ngroups = (full + G - 1) / G;
  const ulong items = ngroups + (m != 0);
  for (ulong it = get_group_id(0); it < items; it += get_num_groups(0)) {
    const int partial = it == ngroups;
    const ulong t0 = partial ? full : it * G;
    const uint cnt = partial ? 1u : (uint)min((ulong)G, full - t0);
    const uint w = partial ? m : T;
    const uint b = partial ? bm : bf;
    const uint vec = partial ? vm : vf;
    const ulong abs = base + t0 * T * ru;
    __global U* a = buf + abs;
    const uint units = cnt * w * ru;
    const uint T1 = w / b;
    if (dir == 0 && b > 1) {
      dl_ti_chunks(a, abs, units, b, ru, 0, uni, st, lds, cap);
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    if (T1 > 1) dl_ti_cycles(a, cnt, b, T1, ru, dir, uni, vec, st, done);
    if (dir == 1 && b > 1) {
      dl_ti_chunks(a, abs, units, b, ru, 1, uni, st, lds, cap);
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
  }
}
