// Records with mixed 1/2/4/8-byte fields, annotated for DL.
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

//DL: AoS: r[global_size(0)]
__kernel void update(__global mixed* r, int round) {
  size_t i = get_global_id(0);
  if (r[i].flag) r[i].count += r[i].kind;
  r[i].weight = r[i].weight * 0.5 + (double)r[i].value;
  r[i].tag = (uchar)(r[i].tag + round);
  r[i].level ^= (ushort)(i & 0xffff);
  r[i].value = r[i].value * 0.75f + (float)r[i].count;
  r[i].flag = (char)!r[i].flag;
}
