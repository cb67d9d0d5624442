// DL marshaling kernels: AoS <-> ASTA(T) in place by cycle following inside one ASTA
// instance (PTTWAC, paper §4.4), for tiles too large for local memory.
//
// One work-group per tile (grid-stride over tiles). The tile's units stay in global
// memory; local memory holds one done bit per unit. Every work-item takes start units
// and follows their cycle: claim the next position's done bit (atomic_or), and if it
// was free, swap the carried unit with the one stored there.
//
// The paper's scheme has a race: a work-item starting at p may load A[p] after another
// work-item already claimed p and overwrote it. DL re-checks p's done bit after the
// load (with fences in between) and gives up p if it is set; whoever claimed p then
// carries the original value on (it read A[p] before writing it), so every unit is
// written exactly once, with the right value.
//
// dir 0: AoS -> ASTA(T); dir 1: ASTA(T) -> AoS.
inline uint dl_inst_next(uint p, uint w, uint ru, uint dir, uint uni, DL_ST_SPACE const uint* st) {
  return dir == 0 ? dl_aos_to_asta32(p, w, ru, uni, st) : dl_asta_to_aos32(p, w, ru, uni, st);
}

__kernel void dl_tile_instance(__global U* buf, ulong base, ulong n, uint T, uint ru, uint dir,
                               uint uni, DL_ST_SPACE const uint* restrict st,
                               __local uint* done) {
  const ulong full = n / T;
  const uint m = (uint)(n - full * T);
  const ulong ntiles = full + (m != 0);
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  for (ulong t = get_group_id(0); t < ntiles; t += get_num_groups(0)) {
    const uint w = t == full ? m : T;
    const uint tu = w * ru;
    const uint words = (tu + 31) / 32;
    __global U* a = buf + base + t * (ulong)T * ru;
    for (uint k = lid; k < words; k += lsz) done[k] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint p = lid; p < tu; p += lsz) {
      if (done[p >> 5] & (1u << (p & 31))) continue;
      U v = a[p];
      mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      if (atomic_or(&done[p >> 5], 0u) & (1u << (p & 31))) continue;
      uint pos = p;
      for (;;) {
        const uint nx = dl_inst_next(pos, w, ru, dir, uni, st);
        const uint bit = 1u << (nx & 31);
        if (atomic_or(&done[nx >> 5], bit) & bit) break;
        mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        const U tmp = a[nx];
        a[nx] = v;
        v = tmp;
        pos = nx;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
}
