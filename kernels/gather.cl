// DL marshaling kernels: the indirect copy (gather) of Marshaler::enqueue_gather,
// dst[i] = src[index[i]] for i < count, out of place, elements of ru units. The index is
// an array of 1-, 2-, 4- or 8-byte integers, signed or not, its width and signedness
// kernel arguments (a uniform branch), so one program serves every index type. An index
// outside [0, src_elems) (a negative one included) gives an element of zero bytes.
// Positions are 64-bit: any buffer the device can allocate.

// Entry i of the index array (entries of `bytes` bytes, `sgn` != 0: signed) as a 64-bit
// position. Signed entries are sign-extended: a negative index becomes a position of at
// least 2^63, outside any source, so one unsigned comparison tells what is inside.
inline ulong dl_gather_index(__global const uchar* index, ulong i, uint bytes, uint sgn) {
  if (bytes == 1)
    return sgn ? (ulong)(long)((__global const char*)index)[i] : (ulong)index[i];
  if (bytes == 2)
    return sgn ? (ulong)(long)((__global const short*)index)[i]
               : (ulong)((__global const ushort*)index)[i];
  if (bytes == 4)
    return sgn ? (ulong)(long)((__global const int*)index)[i]
               : (ulong)((__global const uint*)index)[i];
  return ((__global const ulong*)index)[i];
}

// One work-item per destination unit, a grid-stride loop over count * ru units:
// consecutive work-items store consecutive units (coalesced), and the units of one
// element load consecutive units of its source element (coalesced too, where elements
// span several units; the work-items of an element read the same index entry). The
// element e and unit k of a position step with the global size without divisions.
// sbase and dbase are in units, ibase in index entries.
__kernel void dl_gather(__global const U* restrict src, ulong sbase,
                        __global const uchar* restrict index, ulong ibase,
                        __global U* restrict dst, ulong dbase, ulong count, ulong src_elems,
                        uint ru, uint index_bytes, uint index_signed) {
  const ulong total = count * ru, step = get_global_size(0);
  const ulong se = step / ru;
  const uint sk = (uint)(step - se * ru);
  ulong t = get_global_id(0);
  ulong e = t / ru;
  uint k = (uint)(t - e * ru);
  for (; t < total; t += step) {
    const ulong p = dl_gather_index(index, ibase + e, index_bytes, index_signed);
    dst[dbase + t] = p < src_elems ? src[sbase + p * ru + k] : (U)(0);
    e += se;
    k += sk;
    if (k >= ru) {
      k -= ru;
      ++e;
    }
  }
}

#if DL_UNIT_BYTES <= 4
#if DL_UNIT_BYTES == 1
typedef uchar4 dl_gather_u4;
#elif DL_UNIT_BYTES == 2
typedef ushort4 dl_gather_u4;
#else
typedef uint4 dl_gather_u4;
#endif
// Elements of one unit of at most 4 bytes (a float, an int, a short, a byte) through
// 4-byte indices: four consecutive elements per work-item, their indices loaded as one
// vector and the four source loads independent of each other, stored as one vector
// (bench/results/h200/gather.json: 0.63 of copy for floats in order, the index's bound
// 0.67). The last count % 4 elements go to the first work-items, one each.
__kernel void dl_gather4(__global const U* restrict src, ulong sbase,
                         __global const uint* restrict index, ulong ibase,
                         __global U* restrict dst, ulong dbase, ulong count, ulong src_elems,
                         uint index_signed) {
  const ulong step = get_global_size(0), quads = count / 4;
  for (ulong g = get_global_id(0); g < quads; g += step) {
    const uint4 i = vload4(0, index + ibase + 4 * g);
    const ulong4 p = index_signed ? as_ulong4(convert_long4(as_int4(i))) : convert_ulong4(i);
    U v0 = p.s0 < src_elems ? src[sbase + p.s0] : (U)(0);
    U v1 = p.s1 < src_elems ? src[sbase + p.s1] : (U)(0);
    U v2 = p.s2 < src_elems ? src[sbase + p.s2] : (U)(0);
    U v3 = p.s3 < src_elems ? src[sbase + p.s3] : (U)(0);
    vstore4((dl_gather_u4)(v0, v1, v2, v3), 0, dst + dbase + 4 * g);
  }
  const ulong t = quads * 4 + get_global_id(0);
  if (t < count) {
    const uint i = index[ibase + t];
    const ulong p = index_signed ? (ulong)(long)(int)i : (ulong)i;
    dst[dbase + t] = p < src_elems ? src[sbase + p] : (U)(0);
  }
}
#endif
