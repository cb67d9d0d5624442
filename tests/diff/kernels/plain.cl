// A program without any annotation (tests/diff): DL does not transform it, and must
// give its kernels AoS bytes whatever layout an annotated kernel left a buffer in.
__kernel void bump(__global uchar *p, int bytes, int k) {
  int i = get_global_id(0);
  if (i < bytes) p[i] = (uchar)(p[i] * 3u + (uint)k);
}
