// DL marshaling kernels: the generic out-of-place copy between two tiled maps.
//
// dst (tiled with width wt) receives every unit of src (tiled with width wf); one
// work-item per destination unit (coalesced stores), grid-stride. This is the
// reference every in-place algorithm is tested against on the device, and the
// OutOfPlace algorithm (the host copies the buffer to a temporary first).
__kernel void dl_copy_map(__global const U* restrict src, ulong sbase, __global U* restrict dst,
                          ulong dbase, ulong n, uint ru, ulong wf, ulong wt, uint uni,
                          __global const uint* restrict st) {
  const ulong total = n * ru;
  for (ulong p = get_global_id(0); p < total; p += get_global_size(0)) {
    const ulong a = dl_tiled_to_aos(wt, n, ru, p, uni, st);  // i * ru + q
    const ulong i = a / ru;
    const uint q = (uint)(a - i * ru);
    dst[dbase + p] = src[sbase + dl_tiled_unit(wf, n, ru, i, q, uni, st)];
  }
}
