// ARGS: --auto
// `write_only`: the kernel never reads the buffer, so the runtime need not convert bytes
// nobody defined before its first launch. Written by hand, or inferred for a buffer
// whose every access is a plain store (the inferred `in` is const).
struct rec {
  float a;
  int b;
};

//DL: AoS: write_only out[n]
__kernel void produce(__global struct rec *out, int n, float k) {
  const int i = get_global_id(0);
  if (i >= n) return;
  out[i].a = i * k;
  out[i].b = i;
}

__kernel void derive(__global struct rec *dst, __global const struct rec *src) {
  const int i = get_global_id(0);
  dst[i].a = src[i].a + 1.0f;
  dst[i].b = src[i].b * 2;
}

// Read and written: neither qualifier.
__kernel void bump(__global struct rec *p) {
  p[get_global_id(0)].b += 1;
}
