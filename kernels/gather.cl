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
