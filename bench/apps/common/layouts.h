// Hand-written data layouts of the benchmark applications (prepended to *_layouts.cl).
// LIDX(i, k, S, n): index of element k of record i of n records of S elements.
//   -DL_AOS (default): AoS, records one after the other
//   -DL_DA:            discrete arrays, element k of all records together
//   -DL_ASTA -DL_T=T:  ASTA(T), tiles of T records stored as mini-SoA; the last partial
//                      tile (n % T records) is a mini-DA of its records
// 32-bit index arithmetic in every variant (buffers stay under 2^32 elements).
#if defined(L_DA)
#define LIDX(i, k, S, n) ((uint)(k) * (uint)(n) + (uint)(i))
#elif defined(L_ASTA)
inline uint lidx_asta(uint l_i, uint l_k, uint l_s, uint l_n) {
  const uint l_base = l_i / L_T * L_T;
  const uint l_w = min((uint)L_T, l_n - l_base);
  return l_base * l_s + l_k * l_w + (l_i - l_base);
}
#define LIDX(i, k, S, n) lidx_asta((uint)(i), (uint)(k), (uint)(S), (uint)(n))
#else
#define LIDX(i, k, S, n) ((uint)(i) * (uint)(S) + (uint)(k))
#endif
