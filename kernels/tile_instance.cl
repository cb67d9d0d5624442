// DL marshaling kernels: AoS <-> ASTA(T) in place by cycle following inside one ASTA
// instance (PTTWAC, paper §4.4), for tiles too large for local memory.
//
// An instance of w records (w = T, or m = n % T for the last partial tile) is cut into
// chunks of b records (b divides w, b*R fits local memory). AoS -> ASTA(w) runs in two
// steps inside the instance:
//   1. every chunk is transposed AoS(b) -> ASTA(b) through local memory (barrier-
//      synchronised, coalesced 16-byte loads and stores);
//   2. the instance is now [T1 = w/b chunks][ru minitiles of b units], and ASTA(w) is a
//      permutation of these minitiles (dl::asta_to_da_tile with np = T1: the minitiles of
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
// Race fix of the paper's scheme: there, a work-item starting at p may load A[p] after
// another work-item claimed p and overwrote it. DL follows cycles in rounds instead: the
// start minitiles of a round are read before a barrier, every write of the round comes
// after it, and a claimed minitile is read and written only by its claimer, so a start
// always holds its original value (see dl_ti_cycles) and no global fence is needed.
//
// dir 0: AoS -> ASTA(T); dir 1: ASTA(T) -> AoS.

#define DL_TI_MAXV 4  // 16-byte vectors per minitile (64 bytes)
#if DL_UNIT_BYTES >= 4
#define DL_TI_MAXU (64 / DL_UNIT_BYTES)
#else
#define DL_TI_MAXU 16
#endif



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
        v.u[j] = lds[c * cu + dl_tile_perm32(u - c * cu, b, db, ru, dru, dir, uni, st)];
      }
      p4[k] = v.v;
    }
    for (uint k = cv * DL_V + lid; k < cnt; k += lsz) {
      const uint c = dl_udiv(k, dcu);
      p[k] = lds[c * cu + dl_tile_perm32(k - c * cu, b, db, ru, dru, dir, uni, st)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

#define DL_TI_BIT(P) (1u << ((P)&31))

// Minitile moves: vectors (V = uint4, minitile at a4 + P*nv, nv vectors) or units
// (V = U, minitile at a + P*b). Fixed-size private arrays with guarded, unrolled loops
// stay in registers (the compiler unrolls them).
#define DL_TI_LOAD(V, MAX, CNT, SRC, v, P)        \
  for (uint j = 0; j < MAX; ++j) \
    if (j < CNT) v[j] = SRC[(P) * (CNT) + j];
#define DL_TI_SWAP(V, MAX, CNT, SRC, v, G)         \
  for (uint j = 0; j < MAX; ++j) \
    if (j < CNT) {                                 \
      const V t_ = SRC[(G) * (CNT) + j];           \
      SRC[(G) * (CNT) + j] = v[j];                 \
      v[j] = t_;                                   \
    }

// Step 2 runs in rounds: in round r, the work-items copy their start minitiles P = r*lsz + lid
// (those not yet claimed, not fixed points) to their slot of local memory (the chunk
// staging buffer, free during step 2), barrier, then follow the cycle from P:
// claim next's done bit (local atomic_or), and if it was free, swap. Every minitile is
// read and written only by its claimer during a round, and start loads precede the
// round's writes (barrier), so no global fences are needed: a start that someone else
// claims in the same round still carries the original value, as its claimer does, and
// only one of them wins the next bit.
// Follows the cycle of a start minitile whose value is in the work-item's slot of LDS
// (CNT elements; SRC: the minitiles in global memory). No barrier inside.
#define DL_TI_CHAIN(V, MAX, CNT, SRC, LDS)                                 \
  {                                                                        \
    V v[MAX];                                                              \
    DL_TI_LOAD(V, MAX, CNT, LDS, v, lid)                                   \
    for (;;) {                                                             \
      const uint g = ib + nx;                                              \
      if (atomic_or(&done[g >> 5], DL_TI_BIT(g)) & DL_TI_BIT(g)) break;    \
      DL_TI_SWAP(V, MAX, CNT, SRC, v, g)                                   \
      pos = nx;                                                            \
      nx = dl_tile_perm32(pos, T1, dT1, ru, dru, 1 - dir, uni, st);                \
    }                                                                      \
  }

// Step 2 over cnt instances of mpi = T1*ru minitiles of b units each, at a.
// vec: a minitile is b/DL_V 16-byte vectors at 16-byte aligned addresses. lds holds
// one minitile per work-item.
inline void dl_ti_cycles(__global U* a, uint cnt, uint b, uint T1, uint ru, uint dir, uint uni,
                         uint vec, DL_ST_SPACE const uint* st, __local uint* done,
                         __local uint4* lds) {
  __local U* ldsu = (__local U*)lds;
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const uint mpi = T1 * ru;
  const uint total = cnt * mpi;
  const dl_div dmpi = dl_div_make(mpi), dT1 = dl_div_make(T1), dru = dl_div_make(ru);
  for (uint k = lid; k < (total + 31) / 32; k += lsz) done[k] = 0;
  __global uint4* a4 = (__global uint4*)a;
  const uint nv = b / DL_V;
  for (uint r0 = 0; r0 < total; r0 += lsz) {
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    const uint P = r0 + lid;
    uint ib = 0, pos = 0, nx = 0;
    int go = 0;
    if (P < total && !(done[P >> 5] & DL_TI_BIT(P))) {
      ib = dl_udiv(P, dmpi) * mpi;
      pos = P - ib;
      nx = dl_tile_perm32(pos, T1, dT1, ru, dru, 1 - dir, uni, st);
      go = nx != pos;
      if (go) {
        if (vec)
          for (uint j = 0; j < nv; ++j) lds[lid * nv + j] = a4[P * nv + j];
        else
          for (uint j = 0; j < b; ++j) ldsu[lid * b + j] = a[P * b + j];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (go) {
      if (vec)
        DL_TI_CHAIN(uint4, DL_TI_MAXV, nv, a4, lds)
      else
        DL_TI_CHAIN(U, DL_TI_MAXU, b, a, ldsu)
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// Step 2 from the host's table of the instance permutation's cycles (`cyc`: ncyc entries
// (start, moves), the same for every full instance). Whole cycles (cut = 0): work-item k
// of the group follows cycle k % ncyc of instance k / ncyc alone, so there are no rounds,
// done bits or barriers, and every cycle of every instance is in flight at once; the last
// move of a cycle stores into its start. Segments (cut = 1, the host keeps cnt * ncyc within
// the work-group, for instances with few long cycles): every work-item loads the start
// minitile of its segment, a barrier, then each moves its segment; a segment's last move
// stores into the next segment's start, whose value that segment's worker already holds
// (Segmented's scheme with the saved starts in registers). A worker computes K positions
// ahead and loads their minitiles before storing the carried ones (K loads in flight).
#ifndef DL_TI_K
#define DL_TI_K 4
#endif
#define DL_TI_WALK(V, MAX, CNT, SRC, SYNC)                                          \
  {                                                                                 \
    V v[MAX], w[DL_TI_K][MAX];                                                      \
    if (act)                                                                        \
      for (uint q = 0; q < MAX; ++q)                                                \
        if (q < CNT) v[q] = SRC[(ib + pos) * (CNT) + q];                            \
    if (SYNC) barrier(CLK_GLOBAL_MEM_FENCE);                                        \
    for (uint d = 0; act && d < moves; d += DL_TI_K) {                              \
      uint ps[DL_TI_K];                                                             \
      const uint k = min((uint)DL_TI_K, moves - d);                                 \
      for (uint j = 0; j < DL_TI_K; ++j)                                            \
        if (j < k) {                                                                \
          pos = dl_tile_perm32(pos, T1, dT1, ru, dru, 1 - dir, uni, st);            \
          ps[j] = ib + pos;                                                         \
          if (d + j + 1 < moves)                                                    \
            for (uint q = 0; q < MAX; ++q)                                          \
              if (q < CNT) w[j][q] = SRC[ps[j] * (CNT) + q];                        \
        }                                                                           \
      for (uint j = 0; j < DL_TI_K; ++j)                                            \
        if (j < k) {                                                                \
          for (uint q = 0; q < MAX; ++q)                                            \
            if (q < CNT) {                                                          \
              SRC[ps[j] * (CNT) + q] = v[q];                                        \
              v[q] = w[j][q];                                                       \
            }                                                                       \
        }                                                                           \
    }                                                                               \
  }

inline void dl_ti_table(__global U* a, uint cnt, uint b, uint T1, uint ru, uint dir, uint uni,
                        uint vec, DL_ST_SPACE const uint* st, __global const ulong2* cyc,
                        uint ncyc, uint cut) {
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const uint mpi = T1 * ru;
  const dl_div dT1 = dl_div_make(T1), dru = dl_div_make(ru), dnc = dl_div_make(ncyc);
  __global uint4* a4 = (__global uint4*)a;
  const uint nv = b / DL_V;
  // cut: one pass (cnt * ncyc <= lsz), every start loaded before the barrier.
  for (uint t0 = 0; t0 < cnt * ncyc; t0 += lsz) {
    const uint t = t0 + lid;
    const int act = t < cnt * ncyc;
    const uint inst = act ? dl_udiv(t, dnc) : 0;
    const ulong2 e = act ? cyc[t - inst * ncyc] : (ulong2)(0, 0);
    const uint ib = inst * mpi;
    uint pos = (uint)e.x;
    const uint moves = (uint)(e.y & 0x7fffffffUL);
    if (vec)
      DL_TI_WALK(uint4, DL_TI_MAXV, nv, a4, cut)
    else
      DL_TI_WALK(U, DL_TI_MAXU, b, a, cut)
  }
}

// G: full instances per work-group; bf, vf: chunk width and vector flag of full
// instances; bm, vm: those of the partial last instance (m = n % T records, if any);
// cap: units of `lds` (at least one chunk, and one minitile per work-item); cyc, ncyc, cut:
// the cycle (or segment) table of a full instance's step 2 (only with `table`; the partial
// instance runs in rounds). b == 1 runs the unit-level algorithm (no step 1). Minitiles
// wider than DL_TI_MAXV vectors or DL_TI_MAXU units are the host's to avoid.
inline void dl_ti_run(__global U* buf, ulong base, ulong n, uint T, uint ru, uint dir, uint uni,
                      DL_ST_SPACE const uint* restrict st, uint G, uint bf, uint vf, uint bm,
                      uint vm, uint cap, __local uint4* lds, __local uint* done,
                      __global const ulong2* restrict cyc, uint ncyc, uint cut,
                      const uint table) {
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
    // dir 0: chunk transposes, then the minitile cycles; dir 1: the reverse.
    for (uint ph = 0; ph < 2; ++ph) {
      if ((ph == 0) == (dir == 0)) {
        if (b > 1) dl_ti_chunks(a, abs, units, b, ru, dir, uni, st, lds, cap);
      } else if (T1 > 1 && table && !partial) {
        dl_ti_table(a, cnt, b, T1, ru, dir, uni, vec, st, cyc, ncyc, cut);
      } else if (T1 > 1) {
        dl_ti_cycles(a, cnt, b, T1, ru, dir, uni, vec, st, done, lds);
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
  }
}

// Two kernels, so that the rounds keep their registers: step 2 in rounds with done bits,
// and step 2 of full instances from the cycle table.
__kernel void dl_tile_instance(__global U* buf, ulong base, ulong n, uint T, uint ru, uint dir,
                               uint uni, DL_ST_SPACE const uint* restrict st, uint G, uint bf,
                               uint vf, uint bm, uint vm, uint cap, __local uint4* lds,
                               __local uint* done) {
  dl_ti_run(buf, base, n, T, ru, dir, uni, st, G, bf, vf, bm, vm, cap, lds, done, 0, 0, 0, 0);
}
__kernel void dl_tile_instance_table(__global U* buf, ulong base, ulong n, uint T, uint ru,
                                     uint dir, uint uni, DL_ST_SPACE const uint* restrict st,
                                     uint G, uint bf, uint vf, uint bm, uint vm, uint cap,
                                     __local uint4* lds, __local uint* done,
                                     __global const ulong2* restrict cyc, uint ncyc,
                                     uint cut) {
  dl_ti_run(buf, base, n, T, ru, dir, uni, st, G, bf, vf, bm, vm, cap, lds, done, cyc, ncyc, cut,
            1);
}
