// DL marshaling kernels: DA <-> ASTA(T) in place for n = N' * T records, as a
// permutation of minitiles (T consecutive units; dl::da_to_asta_tile in cycles.hpp).
// A worker is a group of `lanes` work-items moving one minitile: lane l moves lane
// element l (a unit U, or 16 bytes in the *_v kernels when minitiles are 16-byte
// multiples and the buffer offset is 16-byte aligned).
//
// Segmented (DL's scheme, also the P-IPT baseline with whole cycles):
//   the host walks the permutation's cycles once per shape and cuts them into segments
//   of at most L moves. Table entry s = (start minitile, moves | OWN_START).
//   dl_seg_save: minitile `start` of every cut segment s < nsave -> scratch slot s.
//   dl_seg_move: worker s carries the value of `start` (from scratch, or loaded itself
//   when the segment is a whole cycle) along the cycle: A[next] <- carried, carried <-
//   old A[next], `moves` times. Positions inside a segment belong to one worker, a
//   segment's last position is the next segment's start (saved by dl_seg_save), so
//   there are no races, no atomics and no barriers. Each worker loads K minitiles
//   before storing them (memory-level parallelism).
// Pttwac (paper Algorithm 1, the baseline): see dl_pttwac below.
#ifndef DL_SEG_K
#define DL_SEG_K 4
#endif

// dir 0: DA -> ASTA(T); dir 1: ASTA(T) -> DA. np = N'.
inline ulong dl_tt_next(ulong p, ulong np, uint ru, uint dir, uint uni, DL_ST_SPACE const uint* st) {
  return dl_tile_perm64(p, np, ru, dir, uni, st);
}


#define DL_SEG_KERNELS(SUFFIX, LT)                                                              \
  __kernel void dl_seg_save##SUFFIX(__global const LT* restrict buf, ulong base,               \
                                    __global LT* restrict scratch,                              \
                                    __global const ulong2* restrict table, ulong nsave,          \
                                    uint lanes) {                                                \
    const uint wpg = get_local_size(0) / lanes;                                                 \
    const uint lane = get_local_id(0) % lanes;                                                   \
    const ulong stride = (ulong)get_num_groups(0) * wpg;                                         \
    for (ulong s = get_group_id(0) * wpg + get_local_id(0) / lanes; s < nsave; s += stride)       \
      scratch[s * lanes + lane] = buf[base + table[s].x * lanes + lane];                         \
  }                                                                                              \
  __kernel void dl_seg_move##SUFFIX(__global LT* buf, ulong base,                               \
                                    __global const LT* restrict scratch,                        \
                                    __global const ulong2* restrict table, ulong nseg,           \
                                    ulong nsave, uint lanes, ulong np, uint ru, uint dir,        \
                                    uint uni, DL_ST_SPACE const uint* restrict st) {               \
    const uint wpg = get_local_size(0) / lanes;                                                 \
    const uint lane = get_local_id(0) % lanes;                                                   \
    const ulong stride = (ulong)get_num_groups(0) * wpg;                                         \
    const uint small = np * ru <= 0x80000000UL;                                                  \
    const dl_div dnp = dl_div_make(small ? (uint)np : 1u), dru = dl_div_make(ru);                \
    for (ulong s = get_group_id(0) * wpg + get_local_id(0) / lanes; s < nseg; s += stride) {      \
      const ulong2 e = table[s];                                                                 \
      const ulong moves = e.y & 0x7fffffffffffffffUL;                                            \
      ulong pos = e.x;                                                                           \
      LT v = s < nsave ? scratch[s * lanes + lane] : buf[base + pos * lanes + lane];             \
      for (ulong done = 0; done < moves; done += DL_SEG_K) {                                     \
        ulong ps[DL_SEG_K];                                                                      \
        LT vals[DL_SEG_K];                                                                       \
        const uint k = (uint)min((ulong)DL_SEG_K, moves - done);                                 \
        for (uint j = 0; j < DL_SEG_K; ++j)                                                      \
          if (j < k) {                                                                           \
            pos = small ? dl_tile_perm32((uint)pos, (uint)np, dnp, ru, dru, dir, uni, st)         \
                        : dl_tt_next(pos, np, ru, dir, uni, st);                                 \
            ps[j] = pos;                                                                         \
          }                                                                                      \
        for (uint j = 0; j < DL_SEG_K; ++j)                                                      \
          if (j < k && done + j + 1 < moves) vals[j] = buf[base + ps[j] * lanes + lane];         \
        for (uint j = 0; j < DL_SEG_K; ++j)                                                      \
          if (j < k) {                                                                           \
            buf[base + ps[j] * lanes + lane] = v;                                                \
            v = vals[j];                                                                         \
          }                                                                                      \
      }                                                                                          \
    }                                                                                            \
  }                                                                                              \
  /* Pttwac (paper Algorithm 1): one work-group (one worker) per start minitile, done   */       \
  /* bits in global memory claimed with atomic_or. DL's fix of the paper's race: after  */       \
  /* loading the start minitile, re-check its done bit and give up if it was claimed    */       \
  /* meanwhile (its claimer carries the original value on).                             */       \
  __kernel void dl_pttwac##SUFFIX(__global LT* buf, ulong base, volatile __global uint* flags,  \
                                  ulong count, ulong np, uint ru, uint dir, uint uni,           \
                                  DL_ST_SPACE const uint* restrict st) {                          \
    __local uint flag;                                                                           \
    const uint lane = get_local_id(0);                                                           \
    const uint lanes = get_local_size(0);                                                        \
    for (ulong i = get_group_id(0); i < count; i += get_num_groups(0)) {                         \
      if (lane == 0) flag = flags[i >> 5] & (1u << (i & 31));                                    \
      barrier(CLK_LOCAL_MEM_FENCE);                                                              \
      uint stop = flag;                                                                          \
      barrier(CLK_LOCAL_MEM_FENCE);                                                              \
      if (stop) continue;                                                                        \
      /* Every lane re-checks after its OWN load: a barrier orders only inside the     */      \
      /* group. A fence alone does not keep the flag read from being performed before  */      \
      /* the data load is served (they go to different L2 slices): the flag address    */      \
      /* depends on the loaded value (through a term that is always 0 but opaque to    */      \
      /* the compiler), so the read cannot issue before the data has arrived.          */      \
      LT v = buf[base + i * lanes + lane];                                                       \
      mem_fence(CLK_GLOBAL_MEM_FENCE);                                                           \
      const uint dep = ((const uchar*)&v)[0] & (uint)(count >> 63);                              \
      const uint late = atomic_or(&flags[(i >> 5) + dep], 0u) & (1u << (i & 31));                \
      barrier(CLK_LOCAL_MEM_FENCE);                                                              \
      if (late) flag = 1u;                                                                       \
      barrier(CLK_LOCAL_MEM_FENCE);                                                              \
      stop = flag;                                                                               \
      ulong pos = i;                                                                             \
      while (!stop) {                                                                            \
        const ulong nx = dl_tt_next(pos, np, ru, dir, uni, st);                                  \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
        if (lane == 0) {                                                                         \
          flag = atomic_or(&flags[nx >> 5], 1u << (nx & 31)) & (1u << (nx & 31));                \
          mem_fence(CLK_GLOBAL_MEM_FENCE);                                                       \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                     \
        stop = flag;                                                                             \
        if (!stop) {                                                                             \
          const LT tmp = buf[base + nx * lanes + lane];                                          \
          buf[base + nx * lanes + lane] = v;                                                     \
          v = tmp;                                                                               \
          pos = nx;                                                                              \
        }                                                                                        \
      }                                                                                          \
      barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    }                                                                                            \
  }

DL_SEG_KERNELS(_u, U)
DL_SEG_KERNELS(_v, uint4)
