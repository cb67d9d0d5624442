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
  /* Pttwac (paper Algorithm 1): cycle following with one done bit per minitile in      */ \
  /* global memory, claimed with atomic_or. A worker is `lanes` work-items; a group runs */ \
  /* wpg = local size / lanes workers in lock step, one barrier per step:                */ \
  /*  - a worker loads its start minitile, then re-reads the start's done bit (every     */ \
  /*    lane, after its own load) and gives up when a chain claimed it meanwhile (that   */ \
  /*    chain carries the original value on);                                            */ \
  /*  - each step loads the next minitile BEFORE claiming it: a minitile's bytes change  */ \
  /*    only under its claim, so what a winner loaded is the original, and the load's    */ \
  /*    latency hides behind the atomic's;                                               */ \
  /*  - lane 0 claims, its result goes through local memory (res, by step parity), and   */ \
  /*    the group stops when no worker claimed (live, a count by step mod 3, zeroed one  */ \
  /*    step ahead of its use, so one barrier per step orders every access).             */ \
  /* sh: 3 * wpg + 3 uints.                                                              */ \
  __kernel void dl_pttwac##SUFFIX(__global LT* buf, ulong base, volatile __global uint* flags,  \
                                  ulong count, ulong np, uint ru, uint dir, uint uni,           \
                                  DL_ST_SPACE const uint* restrict st, uint lanes,              \
                                  __local uint* sh) {                                           \
    const uint lid = get_local_id(0);                                                            \
    const uint w = lid / lanes, lane = lid - w * lanes;                                          \
    const uint wpg = get_local_size(0) / lanes;                                                  \
    __local uint* res = sh;                                                                      \
    __local uint* gave = sh + 2 * wpg;                                                           \
    __local uint* live = sh + 3 * wpg;                                                           \
    const ulong stride = (ulong)get_num_groups(0) * wpg;                                         \
    for (ulong r0 = (ulong)get_group_id(0) * wpg; r0 < count; r0 += stride) {                   \
      const ulong i = r0 + w;                                                                    \
      bool act = w < wpg && i < count;                                                           \
      LT v;                                                                                      \
      uint late = 0;                                                                             \
      if (act) {                                                                                 \
        v = buf[base + i * lanes + lane];                                                        \
        mem_fence(CLK_GLOBAL_MEM_FENCE);                                                         \
        /* The bit's address depends on the loaded value (through a term that is always  */     \
        /* 0 but opaque to the compiler): the read cannot be served before the data.    */     \
        const uint dep = ((const uchar*)&v)[0] & (uint)(count >> 63);                            \
        late = flags[(i >> 5) + dep] & (1u << (i & 31));                                         \
      }                                                                                          \
      if (lid < wpg) gave[lid] = 0;                                                              \
      if (lid == 0) live[0] = 0;                                                                 \
      barrier(CLK_LOCAL_MEM_FENCE);                                                              \
      if (late) gave[w] = 1u;                                                                    \
      barrier(CLK_LOCAL_MEM_FENCE);                                                              \
      act = act && !gave[w];                                                                     \
      ulong pos = i;                                                                             \
      for (uint k = 0;; ++k) {                                                                   \
        ulong nx = 0;                                                                            \
        LT tmp;                                                                                  \
        __local uint* r = res + (k & 1) * wpg;                                                   \
        if (act) {                                                                               \
          nx = dl_tt_next(pos, np, ru, dir, uni, st);                                            \
          tmp = buf[base + nx * lanes + lane];                                                   \
          if (lane == 0) {                                                                       \
            const uint bit = 1u << (nx & 31);                                                    \
            const uint got = atomic_or(&flags[nx >> 5], bit) & bit;                              \
            r[w] = got;                                                                          \
            if (!got) atomic_inc(&live[k % 3]);                                                  \
          }                                                                                      \
        }                                                                                        \
        if (lid == 0) live[(k + 1) % 3] = 0;                                                     \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
        if (act) {                                                                               \
          if (r[w]) {                                                                            \
            act = false;                                                                         \
          } else {                                                                               \
            buf[base + nx * lanes + lane] = v;                                                   \
            v = tmp;                                                                             \
            pos = nx;                                                                            \
          }                                                                                      \
        }                                                                                        \
        if (live[k % 3] == 0) break;                                                             \
      }                                                                                          \
      barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    }                                                                                            \
  }

DL_SEG_KERNELS(_u, U)
DL_SEG_KERNELS(_v, uint4)
