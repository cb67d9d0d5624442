// mixed.cl as dl-annotate rewrites it (kept for builds without the annotator).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef struct {
  char flag;
  short kind;
  int count;
  double weight;
  uchar tag;
  ushort level;
  float value;
} mixed;

#ifdef DL_ASTA_T
inline size_t dl_tiled(size_t n, size_t R, size_t i, size_t o, size_t z) {
  if (i >= n) return i * R + o;  // records from n on stay AoS
  size_t b = (i / DL_ASTA_T) * DL_ASTA_T;
  return b * R + min(n - b, (size_t)DL_ASTA_T) * o + (i - b) * z;
}
#define F(p, n, i, type, o) (*(__global type*)((__global char*)(p) + dl_tiled((n), 24, (i), (o), sizeof(type))))
#else
#define F(p, n, i, type, o) (*(__global type*)((__global char*)(p) + (size_t)(i) * 24 + (o)))
#endif

//DL: AoS: r[global_size(0)] AOS2ASTA_mixed
//DL: record mixed 24 8 char:flag@0 short:kind@2 int:count@4 double:weight@8 uchar:tag@16 ushort:level@18 float:value@20
__kernel void update(__global mixed* r, int round) {
  size_t i = get_global_id(0);
  size_t n = get_global_size(0);
  if (F(r, n, i, char, 0)) F(r, n, i, int, 4) += F(r, n, i, short, 2);
  F(r, n, i, double, 8) = F(r, n, i, double, 8) * 0.5 + (double)F(r, n, i, float, 20);
  F(r, n, i, uchar, 16) = (uchar)(F(r, n, i, uchar, 16) + round);
  F(r, n, i, ushort, 18) ^= (ushort)(i & 0xffff);
  F(r, n, i, float, 20) = F(r, n, i, float, 20) * 0.75f + (float)F(r, n, i, int, 4);
  F(r, n, i, char, 0) = (char)!F(r, n, i, char, 0);
}
